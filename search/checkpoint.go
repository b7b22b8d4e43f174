package search

import (
	"fmt"
	"strings"
	"time"

	"github.com/surge-load/surge/result"
)

// checkpoint hands Config.Checkpoint the search so far: the result of the
// highest good step finished (or, if none, of the last one; or, during the
// first step, that step so far), marked incomplete with the seconds of the
// search it covers, its Capacity holding the steps finished. current is
// the running step's checkpoint, nil between steps.
func (s *searcher) checkpoint(current *result.Result) {
	if s.cfg.Checkpoint == nil {
		return
	}
	var host *trial
	for _, t := range s.trials {
		if t.step.OK && t.step.Phase != phaseConfirm && (host == nil || t.step.Level > host.step.Level) {
			host = t
		}
	}
	if host == nil && len(s.trials) > 0 {
		host = s.trials[len(s.trials)-1]
	}
	var res result.Result
	switch {
	case host != nil:
		res = *host.res
		res.Run.Load = fmt.Sprintf("find-max step at %s: %s", s.level(host.step.Level), res.Run.Load)
	case current != nil:
		res = *current
	default:
		return
	}
	var good *trial
	if host != nil && host.step.OK {
		good = host
	}
	res.Capacity = s.capacity(good, nil, result.ReasonInterrupted)
	covered := time.Since(s.began).Seconds()
	held := fmt.Sprintf("its first %d steps", len(s.trials))
	if len(s.trials) == 0 {
		held = "its first step so far"
	}
	v := &res.Capacity.Verdict
	v.Detail = fmt.Sprintf("checkpoint: the search was still going after %.0fs; %s", covered, strings.TrimPrefix(v.Detail, "interrupted: "))
	res.Run.Incomplete, res.Run.CoveredS = true, covered
	res.Run.StopReason = fmt.Sprintf("checkpoint: the search was still going; this holds %s (%.0fs)", held, covered)
	s.cfg.Checkpoint(&res)
}
