package metrics

import (
	"math"

	"github.com/surge-load/surge/result"
)

// An endpointShare is one endpoint's operations in an interval, the warm-up's
// included (as the series counts them).
type endpointShare struct {
	id EndpointID
	st *aggregate
}

// endpointShares lists the endpoints with operations in iv. An endpoint with
// both warm-up and measured operations in the interval is merged into a
// scratch aggregate of the collector's, reused from one interval to the next.
func (r *Recorder) endpointShares(iv *interval) []endpointShare {
	out := r.shares[:0]
	n := max(len(iv.eps), len(iv.warm))
	for id := range n {
		var a, b *aggregate
		if id < len(iv.eps) && iv.eps[id] != nil && iv.eps[id].requests > 0 {
			a = iv.eps[id]
		}
		if id < len(iv.warm) && iv.warm[id] != nil && iv.warm[id].requests > 0 {
			b = iv.warm[id]
		}
		switch {
		case a == nil && b == nil:
			continue
		case a == nil:
			a = b
		case b != nil:
			m := aggregateIn(&r.mergedShares, EndpointID(id))
			m.reset()
			m.merge(a)
			m.merge(b)
			a = m
		}
		out = append(out, endpointShare{EndpointID(id), a})
	}
	r.shares = out
	return out
}

// MaxSeriesEndpoints is how many statistics rows the series gives points
// of their own: the first rows to complete operations (of those that first
// complete in the same second, the first registered). A point costs about
// 0.5–1 KB (docs/performance.md), so a run of thousands of rows would
// otherwise cost gigabytes an hour; the rows left out are counted in the
// result (Result.EndpointSeriesOmitted), and their operations are in every
// other figure.
const MaxSeriesEndpoints = 100

// endpointPoints makes the series' per-endpoint points of an interval, of
// the rows that have them (MaxSeriesEndpoints).
func (r *Recorder) endpointPoints(shares []endpointShare) []result.EndpointPoint {
	var out []result.EndpointPoint
	for _, sh := range shares {
		for int(sh.id) >= len(r.seriesRow) {
			r.seriesRow = append(r.seriesRow, rowUnseen)
		}
		switch r.seriesRow[sh.id] {
		case rowUnseen:
			if r.seriesRows < MaxSeriesEndpoints {
				r.seriesRow[sh.id] = rowKept
				r.seriesRows++
			} else {
				r.seriesRow[sh.id] = rowOmitted
				r.seriesOmitted++
				continue
			}
		case rowOmitted:
			continue
		}
		if out == nil {
			out = make([]result.EndpointPoint, 0, len(shares))
		}
		out = append(out, result.EndpointPoint{
			Name:             r.endpointName(sh.id),
			Requests:         sh.st.requests,
			Failures:         sh.st.failures,
			Latency:          percentilesOfTally(sh.st.latency, &sh.st.tally),
			LatencyHistogram: r.enc.encode(sh.st.latency),
		})
	}
	return out
}

// Whether a row has points of its own in the series (endpointPoints).
const (
	rowUnseen = iota
	rowKept
	rowOmitted
)

// pointTally is the tally behind a point of the series: requests,
// failures and the latencies' exact extremes and sum.
func pointTally(requests, failures int64, lat *result.Percentiles) tally {
	return tally{
		requests: requests, failures: failures,
		latMinNs: NsOf(lat.Min), latMaxNs: NsOf(lat.Max),
		latSumNs: int64(math.Round(lat.Mean * 1e6 * float64(requests))),
	}
}

// endpointSum adds up the endpoints' points of one interval from several
// results: counts add and histograms merge, so that percentiles are those
// of all the operations, never averages.
type endpointSum struct {
	order []string
	by    map[string]*aggregate
}

func (s *endpointSum) add(e *result.EndpointPoint) error {
	if e.Requests <= 0 {
		return nil
	}
	h, err := decodeHist(e.LatencyHistogram)
	if err != nil {
		return err
	}
	if s.by == nil {
		s.by = map[string]*aggregate{}
	}
	st := s.by[e.Name]
	if st == nil {
		st = &aggregate{latency: newHist()}
		s.by[e.Name] = st
		s.order = append(s.order, e.Name)
	}
	c := pointTally(e.Requests, e.Failures, &e.Latency)
	st.tally.merge(&c)
	st.latency.Merge(h)
	return nil
}

// points returns the sums, in the order first seen.
func (s *endpointSum) points() []result.EndpointPoint {
	if len(s.order) == 0 {
		return nil
	}
	out := make([]result.EndpointPoint, len(s.order))
	for i, name := range s.order {
		st := s.by[name]
		out[i] = result.EndpointPoint{
			Name:             name,
			Requests:         st.requests,
			Failures:         st.failures,
			Latency:          percentilesOfTally(st.latency, &st.tally),
			LatencyHistogram: encodeHist(st.latency),
		}
	}
	return out
}
