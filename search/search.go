package search

import (
	"context"
	"fmt"
	"time"

	"github.com/surge-load/surge/internal/format"
	"github.com/surge-load/surge/result"
)

// Phases of a step.
const (
	phaseStep    = "step"    // stepping up
	phaseNarrow  = "narrow"  // between the last good and the first bad level
	phaseConfirm = "confirm" // the maximum held once more
)

// A searcher is one search in progress.
type searcher struct {
	cfg    Config
	began  time.Time
	trials []*trial
}

// Run searches for the maximum load the service sustains, as described in
// the package documentation. It returns the result of the step at the
// highest good level (or, if none was good, of the first bad one) with its
// Capacity set to every step and the verdict. A search stopped by ctx or
// Options.Abort returns what it found, with Run.Interrupted set. The error
// is non-nil only if the search could not run.
func Run(ctx context.Context, cfg Config) (*result.Result, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	s := &searcher{cfg: cfg, began: time.Now()}
	good, bad, stop, err := s.search(ctx)
	if err != nil {
		return nil, err
	}
	var confirmed *bool
	if good != nil && !cfg.NoConfirm && stop != result.ReasonInterrupted && stop != result.ReasonBudget {
		// The maximum, held once more: a service that degraded during the
		// search fails it now.
		t, cstop, err := s.try(ctx, good.step.Level, phaseConfirm, good, true)
		if err != nil {
			return nil, err
		}
		if cstop == result.ReasonInterrupted {
			stop = cstop
		} else if t != nil {
			ok := t.step.OK
			confirmed = &ok
		}
	}
	host := good
	if host == nil {
		host = bad
	}
	if host == nil && len(s.trials) > 0 {
		host = s.trials[len(s.trials)-1]
	}
	if host == nil {
		return nil, fmt.Errorf("search: no step ran")
	}
	res := host.res
	res.Capacity = s.capacity(good, bad, stop)
	v := &res.Capacity.Verdict
	v.OutOfOrder, v.Confirmed = s.outOfOrder(), confirmed
	v.Detail += s.trustText(v)
	res.Run.Load = fmt.Sprintf("find-max step at %s: %s", s.level(host.step.Level), res.Run.Load)
	if stop == result.ReasonInterrupted {
		res.Run.Interrupted = true
		if res.Run.StopReason == "" {
			res.Run.StopReason = "the search was stopped"
		}
	}
	return res, nil
}

// search steps up, then narrows. It returns the highest good and the
// lowest bad trial (either may be nil) and why it stopped early, if it
// did: result.ReasonMaxReached, result.ReasonBudget or
// result.ReasonInterrupted.
func (s *searcher) search(ctx context.Context) (good, bad *trial, stop string, err error) {
	c := &s.cfg
	for level := c.Start; ; level = c.next(level) {
		t, stop, err := s.try(ctx, level, phaseStep, good, false)
		if err != nil || stop != "" {
			return good, bad, stop, err
		}
		if !t.step.OK {
			bad = t
			break
		}
		good = t
		if c.Max > 0 && level >= c.Max {
			return good, nil, result.ReasonMaxReached, nil
		}
	}
	for good != nil && narrowable(bad) {
		level, ok := c.mid(good.step.Level, bad.step.Level)
		if !ok {
			break
		}
		t, stop, err := s.try(ctx, level, phaseNarrow, good, false)
		if err != nil || stop == result.ReasonInterrupted {
			return good, bad, stop, err
		}
		if stop == result.ReasonBudget {
			return good, bad, stop, nil // narrowed as far as the budget allowed
		}
		if t.step.OK {
			good = t
		} else {
			bad = t
		}
	}
	return good, bad, "", nil
}

// narrowable reports whether levels below bad are worth trying: not when
// the generator saturated, nor when the service stopped answering.
func narrowable(bad *trial) bool {
	return bad.step.Reason != result.ReasonGenerator && bad.step.Reason != result.ReasonStopped
}

// try runs and judges a step at level if the budget allows it (or
// pastBudget: the confirm step), after the cool-down and the health check;
// the first step always fits, as withDefaults checked. stop is
// result.ReasonBudget if it did not, and result.ReasonInterrupted if the
// search was stopped during the step.
func (s *searcher) try(ctx context.Context, level float64, phase string, good *trial, pastBudget bool) (*trial, string, error) {
	if len(s.trials) > 0 && !pastBudget && time.Since(s.began)+s.cfg.Cooldown+s.cfg.Step > s.cfg.Budget {
		return nil, result.ReasonBudget, nil
	}
	health, ok := s.betweenSteps(ctx)
	if !ok {
		return nil, result.ReasonInterrupted, nil
	}
	t, err := s.runStep(ctx, level, phase)
	if err != nil {
		return nil, "", err
	}
	t.step.Health = health
	s.trials = append(s.trials, t)
	if t.res.Run.Interrupted || ctx.Err() != nil {
		t.step.Reason, t.step.Detail = result.ReasonInterrupted, "interrupted"
		s.report(t)
		return t, result.ReasonInterrupted, nil
	}
	s.judge(t, good)
	s.report(t)
	s.checkpoint(nil)
	return t, "", nil
}

func (s *searcher) report(t *trial) {
	if s.cfg.OnStep != nil {
		s.cfg.OnStep(t.step)
	}
}

// level formats a level of the search's model.
func (s *searcher) level(l float64) string { return format.Level(string(s.cfg.Model), l) }
