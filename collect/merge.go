package collect

import (
	"fmt"

	"github.com/surge-load/surge/analysis"
	"github.com/surge-load/surge/result"
)

// merge ends the run: it stops taking parts, merges those it has, names
// the missing segments and judges the whole.
func (c *Collector) merge(interrupted bool, cause error) (*result.Result, error) {
	c.mu.Lock()
	c.over = true
	var parts []*result.Result
	var missing []result.MissingSegment
	for i, s := range c.segs {
		if s.part != nil {
			parts = append(parts, s.part)
			if want := s.part.Series; len(want) > s.points {
				c.logf("segment %d: %d of its %d live points never arrived (the live view missed them; the merged result has them)", i, len(want)-s.points, len(want))
			}
			continue
		}
		m := result.MissingSegment{Index: i, Reason: c.missingReason(&s, interrupted)}
		c.logf("segment %d is missing: %s", i, m.Reason)
		missing = append(missing, m)
	}
	c.mu.Unlock()
	if len(parts) == 0 {
		return nil, fmt.Errorf("collect: no segment sent its part: %s", missing[0].Reason)
	}
	res, err := analysis.Merge(parts...)
	if err != nil {
		return nil, fmt.Errorf("collect: %w", err)
	}
	res.Run.Segment = result.Segment{Index: 0, Count: c.cfg.Parts}
	res.Run.Missing = missing
	if interrupted {
		res.Run.Interrupted = true
		res.Run.StopReason = "the collector stopped waiting for the parts"
		if cause != nil {
			res.Run.StopReason += ": " + cause.Error()
		}
	}
	return res, nil
}

// missingReason says why segment s sent no part.
func (c *Collector) missingReason(s *segment, interrupted bool) string {
	switch {
	case !s.joined:
		return fmt.Sprintf("never joined within the join wait (%v)", c.cfg.JoinWait)
	case s.failed != "":
		return s.failed
	case !s.starting:
		return "joined, but never asked for the start"
	case interrupted:
		return fmt.Sprintf("sent no part before the collector was stopped (its last live point ended %.0fs into the run)", s.lastT)
	case s.points == 0:
		return fmt.Sprintf("sent no live point and no part within %v of the plan's end", c.cfg.PartWait)
	default:
		return fmt.Sprintf("stopped reporting %.0fs into the run and sent no part within %v of the plan's end", s.lastT, c.cfg.PartWait)
	}
}
