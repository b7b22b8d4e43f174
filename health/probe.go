// Package health watches the load generator itself: its CPU, memory, garbage
// collector, goroutines and file descriptors, so that a verdict never blames
// the server for the generator's own saturation.
package health

import (
	"os"
	"runtime"
	"syscall"
	"time"

	"github.com/surge-load/surge/metrics"
)

// Probe samples the generator process once per interval. It implements
// metrics.Probe; each Sample covers the time since the previous one.
type Probe struct {
	cores     int
	prevCPU   time.Duration
	prevWall  time.Time
	prevPause uint64
}

// NewProbe returns a Probe whose first interval starts now.
func NewProbe() *Probe {
	p := &Probe{cores: runtime.GOMAXPROCS(0), prevWall: time.Now(), prevCPU: processCPU()}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	p.prevPause = ms.PauseTotalNs
	return p
}

// Cores is the number of CPUs the generator may use.
func (p *Probe) Cores() int { return p.cores }

// Sample returns the generator's state over the interval since the last call.
func (p *Probe) Sample() metrics.GeneratorPoint {
	now, cpu := time.Now(), processCPU()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	g := metrics.GeneratorPoint{
		Goroutines: runtime.NumGoroutine(),
		HeapBytes:  ms.HeapAlloc,
		GCPauseMs:  float64(ms.PauseTotalNs-p.prevPause) / 1e6,
		FDs:        openFDs(),
	}
	if wall := now.Sub(p.prevWall); wall > 0 {
		// The kernel accounts CPU time in ticks, so a short last interval
		// can show more than all cores; no process uses more.
		g.CPUPercent = min(100, 100*float64(cpu-p.prevCPU)/float64(wall)/float64(p.cores))
	}
	p.prevWall, p.prevCPU, p.prevPause = now, cpu, ms.PauseTotalNs
	return g
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
