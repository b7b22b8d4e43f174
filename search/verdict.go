package search

import (
	"fmt"

	"github.com/surge-load/surge/internal/format"
	"github.com/surge-load/surge/result"
)

// capacity assembles the capacity table and the verdict from the highest
// good trial, the lowest bad trial and why the search stopped, if it ended
// without a bad level.
func (s *searcher) capacity(good, bad *trial, stop string) *result.Capacity {
	c := &s.cfg
	out := &result.Capacity{
		Model:   string(c.Model),
		StepS:   c.Step.Seconds(),
		WarmupS: c.Warmup.Seconds(),
		BudgetS: c.Budget.Seconds(),
		Steps:   make([]result.CapacityStep, 0, len(s.trials)),
	}
	for _, t := range c.Objectives {
		out.Objectives = append(out.Objectives, t.Expr)
	}
	for _, t := range s.trials {
		out.Steps = append(out.Steps, t.step)
	}
	out.Verdict = s.verdict(good, bad, stop)
	return out
}

// verdict says what the search found.
func (s *searcher) verdict(good, bad *trial, stop string) result.CapacityVerdict {
	var v result.CapacityVerdict
	sustained := "no level met the objectives"
	if good != nil {
		g := &good.step
		v.MaxLevel, v.MaxRPS, v.MaxP95Ms = g.Level, g.RPS, g.Latency.P95
		sustained = fmt.Sprintf("maximum sustainable load %s (%.1f rps, p95 %s)", s.level(g.Level), g.RPS, format.Ms(g.Latency.P95))
	}
	switch {
	case stop == result.ReasonInterrupted:
		v.Reason = stop
		v.Detail = "interrupted: " + sustained + " so far"
		return v
	case bad == nil && stop == result.ReasonMaxReached:
		v.Reason = stop
		v.Detail = fmt.Sprintf("%s: every level up to the maximum met the objectives; the breaking point is higher (raise the maximum)", sustained)
		return v
	case bad == nil:
		v.Reason = result.ReasonBudget
		v.Detail = fmt.Sprintf("%s: the budget ran out before any level failed; the breaking point is higher (raise the budget or step faster)", sustained)
		return v
	}
	b := &bad.step
	v.Reason, v.FailedLevel, v.DominantError = b.Reason, b.Level, b.DominantError
	at := s.level(b.Level)
	var why string
	switch b.Reason {
	case result.ReasonGenerator:
		v.DominantError = ""
		lower := "no level was measured before it"
		if good != nil {
			lower = fmt.Sprintf("the service met the objectives up to %s, a lower bound of its capacity", s.level(good.step.Level))
		}
		v.Detail = fmt.Sprintf("inconclusive: generator saturated at %s (%s), so the figures from there on describe the generator, not the service; %s. Give the generator more CPU or more machines and search again",
			at, b.Detail, lower)
		return v
	case result.ReasonStopped:
		why = fmt.Sprintf("at %s the service stopped answering (%.1f successful responses per second", at, b.OKRPS)
		if good != nil {
			why += fmt.Sprintf(", against %.1f at %s", good.step.OKRPS, s.level(good.step.Level))
		}
		why += ")"
		if b.DominantError != "" {
			why += "; dominant error: " + b.DominantError
		}
	case result.ReasonErrors:
		why = fmt.Sprintf("at %s the error objective broke: %s", at, b.Detail)
	case result.ReasonLatency:
		why = fmt.Sprintf("at %s the latency objective broke: %s", at, b.Detail)
	case result.ReasonObjective:
		why = fmt.Sprintf("at %s an objective broke: %s", at, b.Detail)
	case result.ReasonNotSustained:
		why = fmt.Sprintf("at %s the load was not sustained: %.1f rps completed of %s offered, more than %.0f%% short; the rest was dropped or still queued when the step's window ended",
			at, b.RPS, at, 100*sustainedShortfall)
		if b.DominantError != "" {
			why += "; dominant error: " + b.DominantError
		}
	case result.ReasonPlateau:
		v.DominantError = ""
		v.Concurrency = b.RPS * b.Latency.Mean / 1000
		why = fmt.Sprintf("at %s throughput reached a plateau: %.1f rps, %+.1f%% against %.1f rps at %s for %.0f%% more load. The service is saturated and queueing: by Little's law %.1f requests were in it (%.1f rps × %s mean latency)",
			at, b.OKRPS, 100*(b.OKRPS/good.step.OKRPS-1), good.step.OKRPS, s.level(good.step.Level),
			100*(b.Level/good.step.Level-1), v.Concurrency, b.RPS, format.Ms(b.Latency.Mean))
	}
	v.Conclusive = true
	if good == nil {
		v.Detail = fmt.Sprintf("%s: even the first level failed; %s (start lower)", sustained, why)
		return v
	}
	v.Detail = sustained + "; " + why
	if stop == result.ReasonBudget {
		v.Detail += fmt.Sprintf(" (narrowed to between %s and %s when the budget ran out)", s.level(good.step.Level), at)
	}
	return v
}
