package monitor

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// A cgroupSampler reads a cgroup v2 directory: CPU, memory, pids and
// throttling.
type cgroupSampler struct {
	dir   string
	cores float64
	mem   int64
	prev  map[string]float64 // cpu.stat of the previous sample
	prevT time.Time
	miss  []string
}

func newCgroupSampler(dir string) (*cgroupSampler, error) {
	if _, err := os.Stat(filepath.Join(dir, "cpu.stat")); err != nil {
		return nil, fmt.Errorf("cgroup %s is gone or unreadable: %w", dir, err)
	}
	c := &cgroupSampler{dir: dir}
	c.cores, c.mem = limitsOf(dir)
	for _, f := range []string{"memory.current", "pids.current"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			ctl, _, _ := strings.Cut(f, ".")
			c.miss = append(c.miss, fmt.Sprintf("%s has no %s: the %s controller is not enabled for it (cgroup.subtree_control of its parent)", dir, f, ctl))
		}
	}
	return c, nil
}

func (c *cgroupSampler) limits() (float64, int64) { return c.cores, c.mem }
func (c *cgroupSampler) notes() []string          { return c.miss }

func (c *cgroupSampler) sample(ctx context.Context) ([]reading, error) {
	b, err := os.ReadFile(filepath.Join(c.dir, "cpu.stat"))
	if err != nil {
		return nil, fmt.Errorf("cgroup %s is gone or unreadable: %w", c.dir, err)
	}
	now := time.Now()
	stat := map[string]float64{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), " "); ok {
			if f, err := strconv.ParseFloat(v, 64); err == nil {
				stat[k] = f
			}
		}
	}
	var rs []reading
	if v, ok := readNumber(filepath.Join(c.dir, "memory.current")); ok {
		rs = append(rs, reading{"memory", "bytes", v})
	}
	if v, ok := readNumber(filepath.Join(c.dir, "pids.current")); ok {
		rs = append(rs, reading{"pids", "", v})
	}
	if c.prev != nil {
		if dt := now.Sub(c.prevT).Seconds(); dt > 0 {
			rate := func(k string) (float64, bool) {
				v, ok1 := stat[k]
				p, ok2 := c.prev[k]
				return (v - p) / dt, ok1 && ok2
			}
			if r, ok := rate("usage_usec"); ok {
				rs = append(rs, reading{"cpu", "%", r / 1e4})
			}
			if r, ok := rate("nr_throttled"); ok {
				rs = append(rs, reading{"throttled", "/s", r})
			}
			if r, ok := rate("throttled_usec"); ok {
				rs = append(rs, reading{"throttled_ms", "ms/s", r / 1e3})
			}
		}
	}
	c.prev, c.prevT = stat, now
	return rs, nil
}

// readNumber reads a file holding one number.
func readNumber(path string) (float64, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, false
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(string(b)), 64)
	return v, err == nil
}
