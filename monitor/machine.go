package monitor

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/prometheus/procfs"
)

// machineLimits returns this machine's cores and memory.
func machineLimits() (cores float64, memoryBytes int64) {
	fs, err := procfs.NewDefaultFS()
	if err != nil {
		return 0, 0
	}
	if st, err := fs.Stat(); err == nil {
		cores = float64(len(st.CPU))
	}
	if mi, err := fs.Meminfo(); err == nil && mi.MemTotal != nil {
		memoryBytes = int64(*mi.MemTotal) * 1024
	}
	return cores, memoryBytes
}

// cgroupRoot returns where the cgroup v2 hierarchy is mounted: normally
// /sys/fs/cgroup, /sys/fs/cgroup/unified on a machine with both versions.
func cgroupRoot() (string, error) {
	f, err := os.Open("/proc/self/mounts")
	if err != nil {
		return "", fmt.Errorf("find the cgroup v2 mount: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) >= 3 && fs[2] == "cgroup2" {
			return fs[1], nil
		}
	}
	return "", errors.New("this machine has no cgroup v2 hierarchy mounted")
}

// cgroupDir resolves the directory of cgroup:PATH: absolute, or relative
// to the cgroup v2 mount.
func cgroupDir(p string) (string, error) {
	if !filepath.IsAbs(p) {
		root, err := cgroupRoot()
		if err != nil {
			return "", err
		}
		p = filepath.Join(root, p)
	}
	if _, err := os.Stat(filepath.Join(p, "cgroup.procs")); err != nil {
		return "", fmt.Errorf("%s is not a cgroup v2 directory (no cgroup.procs in it)", p)
	}
	return filepath.Clean(p), nil
}

// containerDir finds the cgroup v2 directory of a container: the first
// directory under the cgroup v2 mount, breadth first, whose name contains
// the id (as docker-ID.scope, cri-containerd-ID.scope or ID).
func containerDir(id string) (string, error) {
	if len(id) < 4 {
		return "", fmt.Errorf("container id %q is too short to find; give at least 12 characters", id)
	}
	root, err := cgroupRoot()
	if err != nil {
		return "", err
	}
	queue := []string{root}
	for depth := 0; depth < 8 && len(queue) > 0; depth++ {
		var next []string
		for _, dir := range queue {
			ents, err := os.ReadDir(dir)
			if err != nil {
				continue
			}
			for _, e := range ents {
				if !e.IsDir() {
					continue
				}
				p := filepath.Join(dir, e.Name())
				if strings.Contains(e.Name(), id) {
					return p, nil
				}
				next = append(next, p)
			}
		}
		queue = next
	}
	return "", fmt.Errorf("no cgroup under %s names container %s; give its directory as cgroup:PATH", root, id)
}

// cgroupLimits reads the CPU (cpu.max) and memory (memory.max) limits of
// the cgroup directory dir; zero where there is none.
func cgroupLimits(dir string) (cores float64, memoryBytes int64) {
	if b, err := os.ReadFile(filepath.Join(dir, "cpu.max")); err == nil {
		if f := strings.Fields(string(b)); len(f) == 2 && f[0] != "max" {
			quota, err1 := strconv.ParseFloat(f[0], 64)
			period, err2 := strconv.ParseFloat(f[1], 64)
			if err1 == nil && err2 == nil && period > 0 {
				cores = quota / period
			}
		}
	}
	if b, err := os.ReadFile(filepath.Join(dir, "memory.max")); err == nil {
		if v, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); err == nil {
			memoryBytes = v
		}
	}
	return cores, memoryBytes
}

// limitsOf returns the limits of the cgroup dir where it has them, else
// the machine's.
func limitsOf(dir string) (cores float64, memoryBytes int64) {
	mc, mm := machineLimits()
	if dir != "" {
		cores, memoryBytes = cgroupLimits(dir)
	}
	if cores <= 0 || cores > mc {
		cores = mc
	}
	if memoryBytes <= 0 || memoryBytes > mm {
		memoryBytes = mm
	}
	return cores, memoryBytes
}

// processCgroup returns the cgroup v2 directory of process pid, or "".
func processCgroup(pid int) string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/cgroup", pid))
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "0::"); ok {
			root, err := cgroupRoot()
			if err != nil {
				return ""
			}
			return filepath.Join(root, rest)
		}
	}
	return ""
}
