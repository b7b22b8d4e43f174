package analysis

import (
	"fmt"

	"github.com/surge-load/surge/result"
)

// Limits past which the generator, not the server, may be what was measured.
const (
	busyCPUPercent = 90 // of all cores
	lateLagMs      = 50 // scheduling lag p99 within one interval
	runqLagMs      = 50 // Go runtime scheduling latency p99 within one interval
	// saturatedIntervals is how many intervals a limit must be passed in
	// before it counts: single intervals come from start-up and shutdown.
	saturatedIntervals = 2
)

// A generatorRule is one sign of a saturated generator.
type generatorRule struct {
	cause string // as in result.Saturation.Causes
	bad   func(*result.GeneratorPoint) bool
	// warning says what it means and what to do; %s is "from Xs on (N s
	// in all)".
	warning string
}

var generatorRules = []generatorRule{
	{
		cause:   "cpu",
		bad:     func(g *result.GeneratorPoint) bool { return g.CPUPercent >= busyCPUPercent },
		warning: fmt.Sprintf("generator CPU at %d%%%% or more %%s: throughput and latency from then on may be limited by the generator, not the server; use fewer users per process or more machines", busyCPUPercent),
	},
	{
		// Only late arrivals delay sends whose latency counts from their
		// intended time; a think time that overslept (closed model) delays
		// nothing that is measured, so it never makes results untrustworthy.
		cause:   "lag",
		bad:     func(g *result.GeneratorPoint) bool { return g.LateArrivals > 0 && 100*g.LateArrivals >= g.Arrivals },
		warning: fmt.Sprintf("generator handed out arrivals %dms late or more (p99) %%s: sends left late, so their latency holds the generator's delay", lateLagMs),
	},
	{
		cause:   "runq",
		bad:     func(g *result.GeneratorPoint) bool { return g.RunqP99Ms >= runqLagMs },
		warning: fmt.Sprintf("generator goroutines waited %dms or more for a CPU %%s: the generator was short of CPU (GOMAXPROCS, a CPU quota or other processes); give it more cores or use more machines", runqLagMs),
	},
}

// JudgeGenerator decides, from the series of r, whether the load generator
// itself was saturated. It sets r.Generator.Saturation, nil when the
// results are trustworthy throughout, and appends to r.Generator.Warnings
// one warning per sign of saturation that says from when and what to do.
func JudgeGenerator(r *result.Result) {
	r.Generator.Saturation = Saturation(r.Series)
	if r.Generator.Warnings == nil {
		r.Generator.Warnings = []string{}
	}
	for _, rule := range generatorRules {
		if w := firstRun(r.Series, rule.bad); w != "" {
			r.Generator.Warnings = append(r.Generator.Warnings, fmt.Sprintf(rule.warning, w))
		}
	}
}

// Saturation returns when and why sends were delayed in series, or nil if
// they never were: CPU at 90% or more of the generator's cores, 1% or more
// of the arrivals handed out 50 ms or more late (p99), or goroutines waiting
// 50 ms or more for a CPU (p99), each in at least two intervals. Only the
// intervals where a rule held are saturated (Saturation.Intervals). The
// cause is "generator" when the generator's own CPU was busy in them, and
// "machine_busy" when sends were delayed while it was not: other
// processes, or a CPU quota, took the CPU.
func Saturation(series []result.Point) *result.Saturation {
	var s *result.Saturation
	saturated := make([]bool, len(series))
	cpu := false
	for _, rule := range generatorRules {
		var hits []int
		for i := range series {
			if rule.bad(&series[i].Generator) {
				hits = append(hits, i)
			}
		}
		if len(hits) < saturatedIntervals {
			continue
		}
		if s == nil {
			s = &result.Saturation{TrustworthyUntilS: series[hits[0]].T}
		}
		s.TrustworthyUntilS = min(s.TrustworthyUntilS, series[hits[0]].T)
		s.Causes = append(s.Causes, rule.cause)
		cpu = cpu || rule.cause == "cpu"
		for _, i := range hits {
			saturated[i] = true
		}
	}
	if s == nil {
		return nil
	}
	s.Cause = result.CauseMachineBusy
	if cpu {
		s.Cause = result.CauseGenerator
	}
	for i, bad := range saturated {
		if !bad {
			continue
		}
		p := &series[i]
		s.SaturatedS += p.DurationS
		if n := len(s.Intervals); n > 0 && s.Intervals[n-1].ToS >= p.T-1e-9 {
			s.Intervals[n-1].ToS = p.T + p.DurationS
		} else {
			s.Intervals = append(s.Intervals, result.Span{FromS: p.T, ToS: p.T + p.DurationS})
		}
	}
	return s
}

// firstRun describes the intervals where bad holds: from when, and for how
// many seconds in all. It ignores fewer than saturatedIntervals intervals.
func firstRun(series []result.Point, bad func(*result.GeneratorPoint) bool) string {
	var from float64 = -1
	var seconds float64
	n := 0
	for i := range series {
		if bad(&series[i].Generator) {
			if from < 0 {
				from = series[i].T
			}
			seconds += series[i].DurationS
			n++
		}
	}
	if n < saturatedIntervals {
		return ""
	}
	return fmt.Sprintf("from %.0fs on (%.0f s in all)", from, seconds)
}
