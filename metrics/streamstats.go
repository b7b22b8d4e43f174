package metrics

import (
	"fmt"
	"strconv"

	"github.com/surge-load/surge/result"
)

// streamPercentiles returns the distributions of s in histogram order.
func streamPercentiles(s *result.StreamStats) [numStreamHists]*result.Percentiles {
	return [numStreamHists]*result.Percentiles{&s.Connect, &s.Headers, &s.FirstEvent, &s.Gap, &s.Delay}
}

// streamHistograms returns the encoded histograms of s in histogram order.
func streamHistograms(s *result.StreamStats) [numStreamHists]*string {
	return [numStreamHists]*string{&s.ConnectHistogram, &s.HeadersHistogram, &s.FirstEventHistogram, &s.GapHistogram, &s.DelayHistogram}
}

// toStats summarises a; durationS is the measured period in seconds.
func (a *streamAggregate) toStats(durationS float64) *result.StreamStats {
	s := &result.StreamStats{
		Opened:     a.opened,
		Reconnects: a.resumed,
		Events:     a.events,
		Sent:       a.sent,
		BytesIn:    a.bytesIn,
		BytesOut:   a.bytesOut,
		Ends:       map[string]int64{},
	}
	if durationS > 0 {
		s.EventsPerSec = float64(a.events) / durationS
	}
	pcts, hists := streamPercentiles(s), streamHistograms(s)
	for i, h := range a.hists {
		if a.n[i] > 0 {
			*pcts[i] = percentilesOf(h, a.minUs[i], a.maxUs[i])
			*hists[i] = encodeHist(h)
		}
	}
	for i, n := range a.ends {
		if n > 0 {
			s.Ends[string(streamEnds[i])] = n
		}
	}
	for code, n := range a.closeCodes {
		if s.CloseCodes == nil {
			s.CloseCodes = map[string]int64{}
		}
		s.CloseCodes[strconv.Itoa(code)] = n
	}
	return s
}

// fromStreamStats rebuilds the aggregate behind s.
func fromStreamStats(s *result.StreamStats) (*streamAggregate, error) {
	a := &streamAggregate{}
	a.opened, a.resumed = s.Opened, s.Reconnects
	a.events, a.sent = s.Events, s.Sent
	a.bytesIn, a.bytesOut = s.BytesIn, s.BytesOut
	pcts, hists := streamPercentiles(s), streamHistograms(s)
	for i := range a.hists {
		h, err := decodeHist(*hists[i])
		if err != nil {
			return nil, fmt.Errorf("streams: %w", err)
		}
		a.hists[i] = h
		if n := h.TotalCount(); n > 0 {
			a.n[i], a.minUs[i], a.maxUs[i] = n, usOf(pcts[i].Min), usOf(pcts[i].Max)
		}
	}
	for name, n := range s.Ends {
		i := StreamEnd(name).index()
		a.ends[i] += n
		a.ended += n
	}
	for code, n := range s.CloseCodes {
		c, err := strconv.Atoi(code)
		if err != nil {
			return nil, fmt.Errorf("streams: close code %q is not a number", code)
		}
		if a.closeCodes == nil {
			a.closeCodes = map[int]int64{}
		}
		a.closeCodes[c] += n
	}
	return a, nil
}

// mergeStreams adds up the streams of the parts' endpoints into out, whose
// endpoints and series are merged already.
func mergeStreams(out *result.Result, parts []*result.Result) error {
	aggs := map[string]*streamAggregate{}
	for i, p := range parts {
		for _, e := range p.Endpoints {
			if e.Streams == nil {
				continue
			}
			a, err := fromStreamStats(e.Streams)
			if err != nil {
				return fmt.Errorf("merge: part %d, endpoint %q: %w", i+1, e.Name, err)
			}
			if aggs[e.Name] == nil {
				aggs[e.Name] = newStreamAggregate()
			}
			aggs[e.Name].merge(a)
		}
	}
	if len(aggs) == 0 {
		return nil
	}
	total := newStreamAggregate()
	for i := range out.Endpoints {
		e := &out.Endpoints[i]
		if a := aggs[e.Name]; a != nil {
			e.Streams = a.toStats(out.MeasuredS())
			total.merge(a)
		}
	}
	out.Totals.Streams = total.toStats(out.MeasuredS())
	out.Totals.Streams.OpenMax = openMax(out.Series)
	return nil
}

// addStreamPoint adds q into *dst, making it on first use.
func addStreamPoint(dst **result.StreamPoint, q *result.StreamPoint) {
	if q == nil {
		return
	}
	if *dst == nil {
		*dst = &result.StreamPoint{}
	}
	d := *dst
	d.Open += q.Open
	d.Opened += q.Opened
	d.Events += q.Events
	mergeCounts(&d.Ends, q.Ends)
}
