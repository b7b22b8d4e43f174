package analysis

import (
	"fmt"

	"github.com/surge-load/surge/metrics"
)

// Limits past which the generator, not the server, may be what was measured.
const (
	busyCPUPercent = 90 // of all cores
	lateLagMs      = 50 // scheduling lag p99 within one interval
)

// GeneratorWarnings says when, from the series of r, the load generator
// itself was saturated, so that results from then on may describe the
// generator rather than the server.
func GeneratorWarnings(r *metrics.Result) []string {
	var out []string
	if w := firstRun(r.Series, func(p *metrics.Point) bool { return p.Generator.CPUPercent >= busyCPUPercent }); w != "" {
		out = append(out, fmt.Sprintf("generator CPU at %d%% or more %s: throughput and latency from then on may be limited by the generator, not the server; use fewer users per process or more machines", busyCPUPercent, w))
	}
	if w := firstRun(r.Series, func(p *metrics.Point) bool { return p.Generator.LagP99Ms >= lateLagMs }); w != "" {
		out = append(out, fmt.Sprintf("generator started scheduled work %dms late or more %s: it could not keep up with the plan", lateLagMs, w))
	}
	return out
}

// firstRun describes the intervals where bad holds: from when, and for how
// many seconds in all. It ignores single intervals, which start-up and
// shutdown cause.
func firstRun(series []metrics.Point, bad func(*metrics.Point) bool) string {
	var from float64 = -1
	var seconds float64
	n := 0
	for i := range series {
		if bad(&series[i]) {
			if from < 0 {
				from = series[i].T
			}
			seconds += series[i].DurationS
			n++
		}
	}
	if n < 2 {
		return ""
	}
	return fmt.Sprintf("from %.0fs on (%.0f s in all)", from, seconds)
}
