package search

import (
	"context"
	"fmt"
	"time"

	"github.com/surge-load/surge"
	"github.com/surge-load/surge/internal/format"
	"github.com/surge-load/surge/result"
)

// A trial is one step run: its row in the capacity table and the result
// it came from.
type trial struct {
	step result.CapacityStep
	res  *result.Result
	// judged are the points of the judged window of res's series.
	judged []result.Point
}

// runStep holds level for one step and measures the judged window. The
// trial is not yet judged.
func (s *searcher) runStep(ctx context.Context, level float64, phase string) (*trial, error) {
	c := &s.cfg
	plan, err := c.Build(level, c.Step)
	if err != nil {
		return nil, fmt.Errorf("search: build the plan for %s: %w", format.Level(string(c.Model), level), err)
	}
	plan.Warmup = c.Warmup
	plan.Thresholds = c.Objectives
	startS := time.Since(s.began).Seconds()
	opts := c.Options
	opts.Checkpoint = nil
	if c.Checkpoint != nil {
		opts.Checkpoint = s.checkpoint
	}
	res, err := surge.Run(ctx, plan, opts)
	if err != nil {
		return nil, fmt.Errorf("search: step at %s: %w", format.Level(string(c.Model), level), err)
	}
	t := &trial{res: res}
	warmupS := 0.0
	if res.Warmup != nil {
		warmupS = res.Warmup.DurationS
	}
	// Run has judged the objectives over the operations meant to start
	// after the warm-up, with rates per second of that window
	// (Result.MeasuredS): the warm-up is subtracted once, there.
	judgedS := res.MeasuredS()
	var windowS float64
	var completed, succeeded int64
	for _, p := range res.Series {
		// An interval is judged if most of it is after the warm-up and
		// before the load stopped; the drain after it is not.
		if p.T+p.DurationS/2 >= warmupS && p.T+p.DurationS/2 < res.Run.DurationS {
			t.judged = append(t.judged, p)
			windowS += p.DurationS
			completed += p.Requests
			succeeded += p.Requests - p.Failures
		}
	}

	tot := &res.Totals
	st := result.CapacityStep{
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
	// Throughput is what the service completed inside the judged window,
	// by the series (each operation counted in the second it ended), not
	// what was offered: in the open model an overloaded service's queue
	// finishes the window's arrivals only after the window, and counting
	// them would credit the service with a load it never served.
	switch {
	case windowS > 0:
		st.RPS = float64(completed) / windowS
		st.OKRPS = float64(succeeded) / windowS
	case judgedS > 0:
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
