package livemetrics

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/surge-load/surge/result"
)

// generatorGauges are the load generator's health, from the last interval.
type generatorGauges struct {
	cpu, goroutines, heap, fds, lagP99, runqP99 prometheus.Gauge
	gcPause                                     prometheus.Counter
}

func newGeneratorGauges() generatorGauges {
	g := func(name, help string) prometheus.Gauge {
		return prometheus.NewGauge(prometheus.GaugeOpts{Name: name, Help: help})
	}
	return generatorGauges{
		cpu:        g("surge_generator_cpu_percent", "The generator's CPU use, percent of all cores."),
		goroutines: g("surge_generator_goroutines", "The generator's goroutines."),
		heap:       g("surge_generator_heap_bytes", "The generator's heap in use."),
		fds:        g("surge_generator_open_fds", "The generator's open file descriptors (-1 if unknown)."),
		lagP99:     g("surge_generator_lag_p99_seconds", "99th percentile of how late the generator started scheduled work, last interval."),
		runqP99:    g("surge_generator_runq_p99_seconds", "99th percentile of how long runnable goroutines waited for a CPU, last interval."),
		gcPause: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "surge_generator_gc_pause_seconds_total", Help: "Stop-the-world garbage collection pauses of the generator.",
		}),
	}
}

func (g *generatorGauges) register(reg prometheus.Registerer) {
	reg.MustRegister(g.cpu, g.goroutines, g.heap, g.fds, g.lagP99, g.runqP99, g.gcPause)
}

func (g *generatorGauges) set(p *result.GeneratorPoint) {
	g.cpu.Set(p.CPUPercent)
	g.goroutines.Set(float64(p.Goroutines))
	g.heap.Set(float64(p.HeapBytes))
	g.fds.Set(float64(p.FDs))
	g.lagP99.Set(p.LagP99Ms / 1000)
	g.runqP99.Set(p.RunqP99Ms / 1000)
	g.gcPause.Add(p.GCPauseMs / 1000)
}
