package search

import (
	"context"
	"fmt"
	"time"

	"github.com/surge-load/surge"
	"github.com/surge-load/surge/analysis"
	"github.com/surge-load/surge/metrics"
	"github.com/surge-load/surge/report"
)

// A trial is one step run: its row in the capacity table and the result
// it came from.
type trial struct {
	step metrics.CapacityStep
	res  *metrics.Result
	// judged are the points of the judged window of res's series.
	judged []metrics.Point
}

// runStep holds level for one step and measures the judged window. The
// trial is not yet judged.
func (s *searcher) runStep(ctx context.Context, level float64, phase string) (*trial, error) {
	c := &s.cfg
	plan, err := c.Build(level, c.Step)
	if err != nil {
		return nil, fmt.Errorf("search: build the plan for %s: %w", report.Level(string(c.Model), level), err)
	}
	plan.Warmup = c.Warmup
	plan.Thresholds = c.Objectives
	startS := time.Since(s.began).Seconds()
	res, err := surge.Run(ctx, plan, c.Options)
	if err != nil {
		return nil, fmt.Errorf("search: step at %s: %w", report.Level(string(c.Model), level), err)
	}
	t := &trial{res: res}
	warmupS := 0.0
	if res.Warmup != nil {
		warmupS = res.Warmup.DurationS
	}
	judgedS := res.Run.DurationS - warmupS
	for _, p := range res.Series {
		// An interval is judged if most of it is after the warm-up.
		if p.T+p.DurationS/2 >= warmupS && p.T < res.Run.DurationS {
			t.judged = append(t.judged, p)
		}
	}
	// The objectives are judged over the window after the warm-up, which
	// the totals already hold; rates must be per second of that window.
	judgedRes := *res
	judgedRes.Run.DurationS = judgedS
	analysis.Evaluate(&judgedRes, c.Objectives)
	res.Thresholds = judgedRes.Thresholds

	tot := &res.Totals
	st := metrics.CapacityStep{
		Level:     level,
		Phase:     phase,
		StartS:    startS,
		JudgedS:   judgedS,
		Requests:  tot.Requests,
		Failures:  tot.Failures,
		Dropped:   tot.Dropped,
		Latency:   tot.Latency,
		ErrorRate: tot.ErrorRate,
	}
	if judgedS > 0 {
		st.RPS = float64(tot.Requests) / judgedS
		st.OKRPS = float64(tot.Requests-tot.Failures) / judgedS
	}
	if len(res.Errors) > 0 {
		st.DominantError = res.Errors[0].Class
	}
	for _, p := range t.judged {
		st.GeneratorCPUPercent = max(st.GeneratorCPUPercent, p.Generator.CPUPercent)
	}
	t.step = st
	return t, nil
}
