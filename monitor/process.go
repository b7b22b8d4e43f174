package monitor

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/prometheus/procfs"
)

// tcpStates names the states of /proc/net/tcp, by number.
var tcpStates = [...]string{1: "established", 2: "syn_sent", 3: "syn_recv", 4: "fin_wait1", 5: "fin_wait2",
	6: "time_wait", 7: "close", 8: "close_wait", 9: "last_ack", 10: "listen", 11: "closing"}

// tcpSeries are the series of a process's TCP sockets by state.
var tcpSeries = func() []string {
	var s []string
	for _, n := range tcpStates[1:] {
		s = append(s, "tcp_"+n)
	}
	return s
}()

// A processSampler reads one process (process:PID) or every process that
// matches a name (process:NAME), summed.
type processSampler struct {
	spec Spec
	fs   procfs.FS
	self int
	// ancestors are the processes that started surge (a shell, timeout,
	// sudo): their command lines hold the spec, so they never match by it.
	ancestors map[int]bool
	prev      map[int]procCPU // the previous sample's CPU time per process
	prevT     time.Time
	// match caches, per process id and start time, whether a process
	// matches the name, so a command line is read once per process.
	match map[int]matchEntry
	cores float64
	mem   int64
}

type procCPU struct {
	start   uint64
	seconds float64
}

type matchEntry struct {
	start uint64
	ok    bool
}

func newProcessSampler(s Spec) (*processSampler, error) {
	fs, err := procfs.NewDefaultFS()
	if err != nil {
		return nil, fmt.Errorf("open /proc: %w", err)
	}
	p := &processSampler{spec: s, fs: fs, self: os.Getpid(), ancestors: ancestorsOf(fs, os.Getppid()), match: map[int]matchEntry{}}
	pids, err := p.pids()
	if err != nil {
		return nil, err
	}
	p.cores, p.mem = limitsOf(processCgroup(pids[0]))
	return p, nil
}

func (p *processSampler) limits() (float64, int64) { return p.cores, p.mem }

// pids returns the processes the source names now.
func (p *processSampler) pids() ([]int, error) {
	if p.spec.PID > 0 {
		if _, err := os.Stat(fmt.Sprintf("/proc/%d", p.spec.PID)); err != nil {
			return nil, fmt.Errorf("process %d is not running", p.spec.PID)
		}
		return []int{p.spec.PID}, nil
	}
	procs, err := p.fs.AllProcs()
	if err != nil {
		return nil, fmt.Errorf("list processes: %w", err)
	}
	var out []int
	seen := make(map[int]bool, len(procs))
	for _, pr := range procs {
		if pr.PID == p.self {
			continue
		}
		st, err := pr.Stat()
		if err != nil {
			continue
		}
		seen[pr.PID] = true
		if e, ok := p.match[pr.PID]; ok && e.start == st.Starttime {
			if e.ok {
				out = append(out, pr.PID)
			}
			continue
		}
		ok := st.Comm == p.spec.Match || matchesCmdline(pr, p.spec.Match, !p.ancestors[pr.PID])
		p.match[pr.PID] = matchEntry{start: st.Starttime, ok: ok}
		if ok {
			out = append(out, pr.PID)
		}
	}
	for pid := range p.match {
		if !seen[pid] {
			delete(p.match, pid)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no process matches %q", p.spec.Match)
	}
	return out, nil
}

// matchesCmdline reports whether the command line of pr names name: its
// executable's base name is name, or, if anywhere, the command line
// contains it.
func matchesCmdline(pr procfs.Proc, name string, anywhere bool) bool {
	args, err := pr.CmdLine()
	if err != nil || len(args) == 0 {
		return false
	}
	if filepath.Base(args[0]) == name {
		return true
	}
	return anywhere && strings.Contains(strings.Join(args, " "), name)
}

// ancestorsOf returns pid and the processes above it, up to the first.
func ancestorsOf(fs procfs.FS, pid int) map[int]bool {
	out := map[int]bool{}
	for range 64 {
		if pid <= 1 || out[pid] {
			break
		}
		out[pid] = true
		pr, err := fs.Proc(pid)
		if err != nil {
			break
		}
		st, err := pr.Stat()
		if err != nil {
			break
		}
		pid = st.PPID
	}
	return out
}

func (p *processSampler) sample(ctx context.Context) ([]reading, error) {
	pids, err := p.pids()
	if err != nil {
		return nil, err
	}
	now := time.Now()
	cpu := make(map[int]procCPU, len(pids))
	var cpuDelta, rss float64
	var fds, threads, n float64
	var states [len(tcpStates)]float64
	netns := map[string][]int{} // network namespace → processes in it
	inodes := map[uint64]bool{}
	for _, pid := range pids {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		pr, err := p.fs.Proc(pid)
		if err != nil {
			continue
		}
		st, err := pr.Stat()
		if err != nil {
			continue // exited between the listing and now
		}
		n++
		c := procCPU{start: st.Starttime, seconds: st.CPUTime()}
		cpu[pid] = c
		if old, ok := p.prev[pid]; ok && old.start == c.start {
			cpuDelta += c.seconds - old.seconds
		}
		rss += float64(st.ResidentMemory())
		threads += float64(st.NumThreads)
		targets, err := pr.FileDescriptorTargets()
		if err == nil {
			fds += float64(len(targets))
			for _, t := range targets {
				if s, ok := strings.CutPrefix(t, "socket:["); ok {
					if ino, err := strconv.ParseUint(strings.TrimSuffix(s, "]"), 10, 64); err == nil {
						inodes[ino] = true
					}
				}
			}
		}
		ns, _ := os.Readlink(fmt.Sprintf("/proc/%d/ns/net", pid))
		netns[ns] = append(netns[ns], pid)
	}
	if n == 0 {
		if p.spec.PID > 0 {
			return nil, fmt.Errorf("process %d is not running", p.spec.PID)
		}
		return nil, fmt.Errorf("no process matches %q", p.spec.Match)
	}
	for _, pids := range netns {
		pfs, err := procfs.NewFS(fmt.Sprintf("/proc/%d", pids[0]))
		if err != nil {
			continue
		}
		//lint:ignore SA1019 reading /proc/net/tcp is the point: it needs no privileges, netlink's sock_diag does
		for _, read := range []func() (procfs.NetTCP, error){pfs.NetTCP, pfs.NetTCP6} {
			lines, err := read()
			if err != nil {
				continue
			}
			for _, l := range lines {
				if inodes[l.Inode] && l.St < uint64(len(states)) {
					states[l.St]++
				}
			}
		}
	}
	rs := []reading{
		{"memory", "bytes", rss}, {"fds", "", fds}, {"threads", "", threads}, {"processes", "", n},
	}
	if p.prev != nil {
		if dt := now.Sub(p.prevT).Seconds(); dt > 0 {
			rs = append(rs, reading{"cpu", "%", 100 * cpuDelta / dt})
		}
	}
	for i, name := range tcpStates[1:] {
		rs = append(rs, reading{"tcp_" + name, "", states[i+1]})
	}
	p.prev, p.prevT = cpu, now
	return rs, nil
}
