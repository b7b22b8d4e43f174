package metrics

import (
	"math"
	"time"

	"github.com/surge-load/surge/errclass"
	"github.com/surge-load/surge/result"
)

// SumPoints adds up points of the same interval from several segments of
// a split run, exactly as Merge adds up their series: counts add, the
// latency histograms merge and percentiles are recomputed from them.
func SumPoints(points ...result.Point) (result.Point, error) {
	parts := make([]*result.Result, len(points))
	for i, p := range points {
		p.T = 0
		parts[i] = &result.Result{Series: []result.Point{p}}
	}
	series, err := mergeSeries(parts)
	if err != nil || len(series) == 0 {
		return result.Point{DurationS: 1}, err
	}
	return series[0], nil
}

// LiveOf returns the live state of a run whose series so far is series,
// elapsed into it: the whole run's counts and the last ten intervals'
// rates and percentiles, as Recorder.Live gives them.
func LiveOf(series []result.Point, elapsed time.Duration) Live {
	var w liveWindow
	for i := range series {
		p := &series[i]
		all := newAggregate()
		if h, err := decodeHist(p.LatencyHistogram); err == nil && p.Requests > 0 {
			all.latency = h
			all.requests = p.Requests
			all.latMinNs, all.latMaxNs = NsOf(p.Latency.Min), NsOf(p.Latency.Max)
			all.latSumNs = int64(math.Round(p.Latency.Mean * 1e6 * float64(p.Requests)))
		}
		all.failures = p.Failures
		for class, n := range p.Errors {
			all.errClass(errclass.Class(class)).count = n
		}
		w.push(p, all)
	}
	if len(series) == 0 {
		return Live{Elapsed: elapsed}
	}
	return w.snapshot(time.Time{}, time.Time{}.Add(elapsed), &series[len(series)-1])
}
