// Package health watches the load generator itself: its CPU, memory, garbage
// collector, goroutines and file descriptors, so that a verdict never blames
// the server for the generator's own saturation.
package health

import (
	"os"
	"runtime"
	"syscall"
	"time"

	"github.com/surge-load/surge/result"
)

// Probe samples the generator process once per interval. It implements
// metrics.Probe; each Sample covers the time since the previous one.
type Probe struct {
	cores     int
	prevCPU   time.Duration
	prevWall  time.Time
	prevPause uint64
	prevGC    uint32
	runq      *runqLatency
}

// NewProbe returns a Probe whose first interval starts now.
func NewProbe() *Probe {
	p := &Probe{cores: runtime.GOMAXPROCS(0), prevWall: time.Now(), prevCPU: processCPU(), runq: newRunqLatency()}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	p.prevPause, p.prevGC = ms.PauseTotalNs, ms.NumGC
	return p
}

// Cores is the number of CPUs the generator may use.
func (p *Probe) Cores() int { return p.cores }

// Sample returns the generator's state over the interval since the last call.
func (p *Probe) Sample() result.GeneratorPoint {
	now, cpu := time.Now(), processCPU()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	g := result.GeneratorPoint{
		Goroutines: runtime.NumGoroutine(),
		HeapBytes:  ms.HeapAlloc,
		GCPauseMs:  float64(ms.PauseTotalNs-p.prevPause) / 1e6,
		FDs:        openFDs(),
		GCCycles:   int(ms.NumGC - p.prevGC),
		RunqP99Ms:  p.runq.p99Ms(),
	}
	g.GCPauseMaxMs = longestPauseMs(&ms, p.prevGC)
	if wall := now.Sub(p.prevWall); wall > 0 {
		// The kernel accounts CPU time in ticks, so a short last interval
		// can show more than all cores; no process uses more.
		g.CPUPercent = min(100, 100*float64(cpu-p.prevCPU)/float64(wall)/float64(p.cores))
	}
	p.prevWall, p.prevCPU, p.prevPause, p.prevGC = now, cpu, ms.PauseTotalNs, ms.NumGC
	return g
}

// longestPauseMs is the longest stop-the-world pause, in milliseconds, of
// the collections numbered after since; the runtime remembers the last 256.
func longestPauseMs(ms *runtime.MemStats, since uint32) float64 {
	ring := uint32(len(ms.PauseNs))
	var longest uint64
	for n := ms.NumGC; n > since && ms.NumGC-n < ring; n-- {
		longest = max(longest, ms.PauseNs[(n+ring-1)%ring])
	}
	return float64(longest) / 1e6
}

// processCPU is the user and system CPU time the process has used.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// openFDs counts the process's open file descriptors, or -1 where /proc is
// not available.
func openFDs() int {
	f, err := os.Open("/proc/self/fd")
	if err != nil {
		return -1
	}
	defer f.Close()
	n := 0
	for {
		names, err := f.Readdirnames(1024)
		n += len(names)
		if err != nil {
			break
		}
	}
	return n - 1 // the descriptor of the directory itself
}
