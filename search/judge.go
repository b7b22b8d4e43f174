package search

import (
	"fmt"
	"strings"

	"github.com/surge-load/surge/analysis"
	"github.com/surge-load/surge/errclass"
	"github.com/surge-load/surge/internal/format"
	"github.com/surge-load/surge/result"
)

// The rules of a step's judgement; see the package documentation.
const (
	// stoppedShare: successful throughput below this share of the last
	// good step's is the service no longer answering.
	stoppedShare = 0.05
	// plateauLoad, plateauGain and plateauShare: a level at least
	// plateauLoad above the last good one whose successful throughput grew
	// by less than plateauGain, or by less than plateauShare of the growth
	// of the load, is a plateau. Below its capacity a service's throughput
	// grows with the load; a quarter leaves room for noise and for a last
	// good level just short of the saturated throughput.
	plateauLoad  = 0.10
	plateauGain  = 0.03
	plateauShare = 0.25
	// sustainedShortfall: in the open model, a step whose completed
	// throughput falls short of the offered rate by more than this share
	// did not sustain its level (the rest was dropped, or queued past the
	// judged window), so the named maximum is never above what completed.
	// 10% leaves room for the edges of a short judged window.
	sustainedShortfall = 0.10
)

// judge decides whether t passed, comparing it with good, the highest
// level that passed so far (nil if none did), and fills in its OK,
// Reason, Broken and Detail.
func (s *searcher) judge(t *trial, good *trial) {
	st := &t.step
	for _, th := range t.res.Thresholds {
		if !th.OK {
			st.Broken = append(st.Broken, brokenText(&th))
		}
	}
	if sat := analysis.Saturation(t.judged); sat != nil {
		st.Reason = result.ReasonGenerator
		st.Detail = fmt.Sprintf("generator saturated (%s) from %.0fs into the step", strings.Join(sat.Causes, ", "), sat.TrustworthyUntilS)
		return
	}
	if c := t.res.Collapse; c != nil && c.Kind == result.CollapseStopped {
		st.Reason = result.ReasonStopped
		st.Detail = fmt.Sprintf("stopped answering %.0fs into the step", c.AtS)
		return
	}
	if good != nil && good.step.OKRPS > 0 && st.OKRPS < stoppedShare*good.step.OKRPS {
		st.Reason = result.ReasonStopped
		st.Detail = fmt.Sprintf("stopped answering: %.1f successful responses per second, against %.1f at %s",
			st.OKRPS, good.step.OKRPS, s.level(good.step.Level))
		return
	}
	if reason, detail := objectiveReason(t); reason != "" {
		st.Reason, st.Detail = reason, detail
		return
	}
	if good != nil && plateau(good.step.Level, good.step.OKRPS, st.Level, st.OKRPS) {
		st.Reason = result.ReasonPlateau
		st.Detail = fmt.Sprintf("plateau: %+.0f%% throughput for %+.0f%% load",
			100*(st.OKRPS/good.step.OKRPS-1), 100*(st.Level/good.step.Level-1))
		return
	}
	if s.cfg.Model == Rate && st.RPS < (1-sustainedShortfall)*completable(t) && !sentLate(t) {
		st.Reason = result.ReasonNotSustained
		st.Detail = fmt.Sprintf("not sustained: %.1f rps completed of %s offered (%.0f%% short, more than the %.0f%% allowed)",
			st.RPS, s.level(st.Level), 100*(1-st.RPS/st.Level), 100*sustainedShortfall)
		return
	}
	st.OK = true
}

// sentLate reports whether t's operations spent most of their latency
// before they were sent: latency counts from the intended start, service
// time from the send, so a generator that could not keep up with its
// arrivals, not the service, explains a shortfall. (A service that queues
// holds the requests it was sent: their service time is their latency.)
// The generator's own judgement (saturation) speaks for such a step.
func sentLate(t *trial) bool {
	tot := &t.res.Totals
	return tot.Latency.Mean > 0 && tot.ServiceTime.Mean < 0.5*tot.Latency.Mean
}

// completable is how many operations per second t's judged window could
// have completed at its level in the open model: the level itself, less
// the start edge when the window begins at the load's start (a short
// warm-up), since the first arrivals complete one latency later. The
// latency is that of the window's first second, before any queue built.
func completable(t *trial) float64 {
	var windowS float64
	for _, p := range t.judged {
		windowS += p.DurationS
	}
	if windowS <= 0 {
		return t.step.Level
	}
	first := t.judged[0]
	edgeS := min(max(0, first.Latency.P50/1000-first.T), windowS)
	return t.step.Level * (1 - edgeS/windowS)
}

// plateau reports whether going from level1, which gave throughput rps1,
// to level2, which gave rps2, is a throughput plateau.
func plateau(level1, rps1, level2, rps2 float64) bool {
	load := level2/level1 - 1
	if load < plateauLoad || rps1 <= 0 {
		return false
	}
	gain := rps2/rps1 - 1
	return gain < max(plateauGain, plateauShare*load)
}

// objectiveReason names the kind of objective t broke, if any: errors
// before latency, unless the dominant error is dropped arrivals, which a
// slow service causes.
func objectiveReason(t *trial) (reason, detail string) {
	var errs, lats, others []string
	for _, th := range t.res.Thresholds {
		if th.OK {
			continue
		}
		switch th.Metric {
		case "errors", "failures", "dropped":
			errs = append(errs, brokenText(&th))
		case "rps", "requests":
			others = append(others, brokenText(&th))
		default:
			lats = append(lats, brokenText(&th))
		}
	}
	dominant := t.step.DominantError
	switch {
	case len(errs) > 0 && (len(lats) == 0 || dominant != string(errclass.Dropped)):
		d := strings.Join(errs, "; ")
		if dominant != "" {
			d += " (" + dominant + ")"
		}
		return result.ReasonErrors, d
	case len(lats) > 0:
		return result.ReasonLatency, strings.Join(lats, "; ")
	case len(others) > 0:
		return result.ReasonObjective, strings.Join(others, "; ")
	}
	return "", ""
}

// brokenText writes a broken objective with its actual value, as in
// "p95<1000ms: 1.30s".
func brokenText(th *result.ThresholdResult) string {
	if th.Note != "" {
		return fmt.Sprintf("%s: %s", th.Expr, th.Note)
	}
	var actual string
	switch th.Unit {
	case "ms":
		actual = format.Ms(th.Actual)
	case "%":
		actual = fmt.Sprintf("%.2f%%", th.Actual)
	case "/s":
		actual = fmt.Sprintf("%.1f/s", th.Actual)
	default:
		actual = fmt.Sprintf("%g", th.Actual)
	}
	return fmt.Sprintf("%s: %s", th.Expr, actual)
}
