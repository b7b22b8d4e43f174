package report

import "github.com/surge-load/surge/result"

// A StreamTimeline is the long-lived connections (SSE subscriptions,
// WebSockets) of a run over time, one value per point of its Timeline.
type StreamTimeline struct {
	Open   Values `json:"open"`     // streams open at the end of an interval, the most in the point
	Opened Values `json:"opened_s"` // streams that began, per second
	Events Values `json:"events_s"` // events and messages received, per second
	// Ends are the streams that ended per second, one series per cause
	// that occurred, in the order of metrics.StreamEnds (endCauses).
	Ends []ClassValues `json:"ends"`
}

// newStreamTimeline returns an empty stream timeline for the intervals
// pts, or nil if none of them had streams.
func newStreamTimeline(pts []*result.Point) *StreamTimeline {
	ends, streams := streamEndsIn(pts)
	if !streams {
		return nil
	}
	st := &StreamTimeline{Ends: []ClassValues{}}
	for _, end := range ends {
		st.Ends = append(st.Ends, ClassValues{Class: end})
	}
	return st
}

// streamEndsIn returns the causes that streams ended for in pts (see
// endCauses), and whether any of pts had streams at all.
func streamEndsIn(pts []*result.Point) (ends []string, streams bool) {
	counts := map[string]int64{}
	for _, p := range pts {
		if p.Streams != nil {
			streams = true
			for end, n := range p.Streams.Ends {
				counts[end] += n
			}
		}
	}
	return endCauses(counts), streams
}

// add appends one point made of the intervals in b, durS seconds long.
func (st *StreamTimeline) add(b []*result.Point, durS float64) {
	var open, opened, events int64
	ends := make([]int64, len(st.Ends))
	for _, p := range b {
		s := p.Streams
		if s == nil {
			continue
		}
		open = max(open, s.Open)
		opened += s.Opened
		events += s.Events
		for i, e := range st.Ends {
			ends[i] += s.Ends[e.Class]
		}
	}
	st.Open = append(st.Open, float64(open))
	st.Opened = append(st.Opened, float64(opened)/durS)
	st.Events = append(st.Events, float64(events)/durS)
	for i := range st.Ends {
		st.Ends[i].Values = append(st.Ends[i].Values, float64(ends[i])/durS)
	}
}
