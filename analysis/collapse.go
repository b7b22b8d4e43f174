package analysis

import (
	"github.com/surge-load/surge/errclass"
	"github.com/surge-load/surge/result"
)

// The rules of collapse detection. Throughput is successful responses per
// second.
const (
	// peakWindowS is how many intervals the peak is averaged over, so
	// that one lucky second is not the peak.
	peakWindowS = 3
	// collapseHoldS is how many consecutive intervals a collapse, or a
	// recovery, must last.
	collapseHoldS = 3
	// stoppedShare: throughput below this share of the peak is the
	// service no longer answering.
	stoppedShare = 0.05
	// errorsShare: failed and dropped operations at this share or more of
	// all are errors taking over.
	errorsShare = 0.5
	// recoveredShare: throughput back at this share of the peak, with
	// errors below errorsShare, is a recovery.
	recoveredShare = 0.5
	// minPeakRPS: a peak lower than this is no peak to fall from.
	minPeakRPS = 1
)

// DetectCollapse looks in the per-second series of r for the service
// giving way after a peak, while load was still offered. It finds the
// peak throughput (successful responses per second, averaged over three
// seconds), then the first three or more consecutive seconds after it in
// which throughput fell below 5% of the peak (the service stopped
// answering) or failures and drops were half of the operations or more
// (errors took over). The collapse lasts until three consecutive seconds
// are healthy again (throughput at half the peak or more, errors below
// half) or the load ends. Seconds after the active load period (the drain
// of in-flight operations) and seconds in which no load was offered (a
// ramp down to zero) are not judged. It returns nil if there was no
// collapse.
func DetectCollapse(r *result.Result) *result.Collapse {
	pts := activePoints(r)
	if len(pts) < peakWindowS+collapseHoldS {
		return nil
	}
	peak, at := -1.0, -1
	for i := 0; i+peakWindowS <= len(pts); i++ {
		w := pts[i : i+peakWindowS]
		if errorShare(w) >= errorsShare {
			continue
		}
		if rps := okRPS(w); rps > peak {
			peak, at = rps, i
		}
	}
	if peak < minPeakRPS {
		return nil
	}
	bad := func(p *result.Point) bool {
		return offered(p) && (okRPS([]result.Point{*p}) < stoppedShare*peak || errorShare([]result.Point{*p}) >= errorsShare)
	}
	good := func(p *result.Point) bool {
		return okRPS([]result.Point{*p}) >= recoveredShare*peak && errorShare([]result.Point{*p}) < errorsShare
	}
	from := holds(pts, at+peakWindowS, bad)
	if from < 0 {
		return nil
	}
	end, recovered := len(pts), false
	if r := holds(pts, from+collapseHoldS, good); r >= 0 {
		end, recovered = r, true
	}
	for end > from+collapseHoldS && !offered(&pts[end-1]) {
		end-- // the load ended: the collapse lasted until then
	}
	span := pts[from:end]
	c := &result.Collapse{
		Kind:          result.CollapseErrors,
		PeakRPS:       peak,
		PeakAtS:       pts[at+peakWindowS/2].T,
		AtS:           pts[from].T,
		LastedS:       sumDuration(span),
		Recovered:     recovered,
		RPS:           okRPS(span),
		ErrorRate:     errorShare(span),
		DominantError: dominantError(span),
	}
	c.AfterPeakS = c.AtS - c.PeakAtS
	if c.RPS < stoppedShare*peak {
		c.Kind = result.CollapseStopped
	}
	return c
}

// activePoints returns the points of r's active load period.
func activePoints(r *result.Result) []result.Point {
	n := 0
	for n < len(r.Series) && r.Series[n].T < r.Run.DurationS {
		n++
	}
	return r.Series[:n]
}

// holds returns the first index from start on at which cond holds for
// collapseHoldS consecutive points, or -1.
func holds(pts []result.Point, start int, cond func(*result.Point) bool) int {
	run := 0
	for i := start; i < len(pts); i++ {
		if !cond(&pts[i]) {
			run = 0
			continue
		}
		if run++; run == collapseHoldS {
			return i - collapseHoldS + 1
		}
	}
	return -1
}

// offered reports whether load was offered in p: operations completed,
// were in flight or were dropped.
//
// Users that are busy only holding open streams (SSE, WebSocket) offer no
// requests: a second in which every busy user holds a stream is not judged,
// since subscriptions are made only when streams open.
func offered(p *result.Point) bool {
	busy := p.Busy
	if p.Streams != nil {
		busy -= p.Streams.Open
	}
	return p.Requests > 0 || busy > 0 || p.Dropped > 0
}

// okRPS is the successful operations per second over pts.
func okRPS(pts []result.Point) float64 {
	var ok int64
	for _, p := range pts {
		ok += p.Requests - p.Failures
	}
	if d := sumDuration(pts); d > 0 {
		return float64(ok) / d
	}
	return 0
}

// errorShare is (failures + dropped) / (requests + dropped) over pts.
func errorShare(pts []result.Point) float64 {
	var bad, all int64
	for _, p := range pts {
		bad += p.Failures + p.Dropped
		all += p.Requests + p.Dropped
	}
	if all == 0 {
		return 0
	}
	return float64(bad) / float64(all)
}

func sumDuration(pts []result.Point) float64 {
	var d float64
	for _, p := range pts {
		d += p.DurationS
	}
	return d
}

// dominantError is the most frequent error class over pts, drops
// included; empty if nothing failed.
func dominantError(pts []result.Point) string {
	counts := map[string]int64{}
	for _, p := range pts {
		for class, n := range p.Errors {
			counts[class] += n
		}
		counts[string(errclass.Dropped)] += p.Dropped
	}
	return mostFrequent(counts)
}

// mostFrequent returns the key with the highest count, the smallest such
// key on ties, or "" if every count is zero.
func mostFrequent(counts map[string]int64) string {
	var top string
	var n int64
	for k, c := range counts {
		if c > n || c == n && c > 0 && k < top {
			top, n = k, c
		}
	}
	return top
}
