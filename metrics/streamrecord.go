package metrics

import (
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
	"github.com/surge-load/surge/errclass"
	"github.com/surge-load/surge/result"
)

// The distributions kept of streams, by index.
const (
	streamConnect    = iota // Stream.Connect
	streamHeaders           // Stream.Headers
	streamFirstEvent        // StreamEvent.Since of first events
	streamGap               // StreamEvent.Since of the others
	streamDelay             // StreamEvent.Delay
	numStreamHists
)

// streamCounts are the counters of a set of streams: everything but the
// histograms.
type streamCounts struct {
	opened, resumed   int64
	ended, closed     int64 // closed: ended after opening
	events, sent      int64
	bytesIn, bytesOut int64
	ends              [numStreamEnds]int64
	closeCodes        map[int]int64
	// Exact extremes of each distribution, meaningful when n[i] > 0.
	n            [numStreamHists]int64
	minUs, maxUs [numStreamHists]int64
}

// value notes us in distribution i's count and extremes.
func (c *streamCounts) value(i int, us int64) {
	if c.n[i] == 0 {
		c.minUs[i], c.maxUs[i] = us, us
	} else {
		c.minUs[i], c.maxUs[i] = min(c.minUs[i], us), max(c.maxUs[i], us)
	}
	c.n[i]++
}

func (c *streamCounts) merge(o *streamCounts) {
	c.opened += o.opened
	c.resumed += o.resumed
	c.ended += o.ended
	c.closed += o.closed
	c.events += o.events
	c.sent += o.sent
	c.bytesIn += o.bytesIn
	c.bytesOut += o.bytesOut
	for i, n := range o.ends {
		c.ends[i] += n
	}
	mergeCounts(&c.closeCodes, o.closeCodes)
	for i, n := range o.n {
		if n == 0 {
			continue
		}
		if c.n[i] == 0 {
			c.minUs[i], c.maxUs[i] = o.minUs[i], o.maxUs[i]
		} else {
			c.minUs[i], c.maxUs[i] = min(c.minUs[i], o.minUs[i]), max(c.maxUs[i], o.maxUs[i])
		}
		c.n[i] += n
	}
}

// empty reports whether nothing was counted.
func (c *streamCounts) empty() bool {
	return c.opened == 0 && c.ended == 0 && c.events == 0
}

// reset empties c, keeping its map's storage.
func (c *streamCounts) reset() {
	codes := c.closeCodes
	clear(codes)
	*c = streamCounts{closeCodes: codes}
}

// streamInterval is one endpoint's streams in a shard's current interval.
// Its histograms are sparse, made on first use.
type streamInterval struct {
	streamCounts
	hists [numStreamHists]*hdr.PackedHistogram
}

func (s *streamInterval) record(i int, d time.Duration) {
	us := micros(d)
	s.value(i, us)
	if s.hists[i] == nil {
		s.hists[i] = newPacked()
	}
	_ = s.hists[i].RecordValue(us)
}

// streamIntervals are a shard's streams of the current interval, by
// EndpointID: [0] those measured, [1] those of the warm-up, which only
// the series counts.
type streamIntervals struct {
	eps [2][]*streamInterval
}

// streamAt returns the interval's record of endpoint id for something
// that happened (or, for a stream, started) at t. s.mu is held.
func (s *Shard) streamAt(t time.Time, id EndpointID) *streamInterval {
	set := 0
	if t.Before(s.warmUntil) {
		set = 1
	}
	eps := &s.streams.eps[set]
	for int(id) >= len(*eps) {
		*eps = append(*eps, nil)
	}
	ep := (*eps)[id]
	if ep == nil {
		ep = &streamInterval{}
		(*eps)[id] = ep
	}
	return ep
}

// StreamOpened records that st began: the response showed a stream.
// st.Start, Endpoint, Connect, Headers and Resumed are read.
func (s *Shard) StreamOpened(st *Stream) {
	s.mu.Lock()
	ep := s.streamAt(st.Start, st.Endpoint)
	ep.opened++
	if st.Resumed {
		ep.resumed++
	}
	ep.record(streamConnect, st.Connect)
	ep.record(streamHeaders, st.Headers)
	s.mu.Unlock()
}

// StreamEvent records one event or message received on a stream of
// endpoint id. It allocates nothing once the interval's histograms exist.
func (s *Shard) StreamEvent(id EndpointID, ev *StreamEvent) {
	s.mu.Lock()
	ep := s.streamAt(ev.At, id)
	ep.events++
	if ev.First {
		ep.record(streamFirstEvent, ev.Since)
	} else {
		ep.record(streamGap, ev.Since)
	}
	if ev.HasDelay {
		ep.record(streamDelay, ev.Delay)
	}
	s.mu.Unlock()
}

// StreamEnded records how st ended. Call it exactly once per stream,
// whether or not it opened.
func (s *Shard) StreamEnded(st *Stream) {
	s.mu.Lock()
	ep := s.streamAt(st.Start, st.Endpoint)
	ep.ended++
	ep.ends[st.End.index()]++
	if st.Opened {
		ep.closed++
	}
	ep.sent += st.Sent
	ep.bytesIn += st.BytesIn
	ep.bytesOut += st.BytesOut
	if st.CloseCode != 0 {
		if ep.closeCodes == nil {
			ep.closeCodes = map[int]int64{}
		}
		ep.closeCodes[st.CloseCode]++
	}
	if st.Opened && st.Class != errclass.None {
		eps := &s.eps
		if st.Start.Before(s.warmUntil) {
			eps = &s.warm
		}
		endpointIn(eps, st.Endpoint).failLate(st.Class, st.Err)
	}
	s.mu.Unlock()
}

// streamAggregate is the full-precision aggregate of a set of streams.
type streamAggregate struct {
	streamCounts
	hists [numStreamHists]*hist
}

func newStreamAggregate() *streamAggregate {
	a := &streamAggregate{}
	for i := range a.hists {
		a.hists[i] = newHist()
	}
	return a
}

func (a *streamAggregate) merge(o *streamAggregate) {
	a.streamCounts.merge(&o.streamCounts)
	for i, h := range o.hists {
		a.hists[i].Merge(h)
	}
}

// streamRecorder is the collector's state of streams.
type streamRecorder struct {
	run  []*streamAggregate // by EndpointID, without the warm-up
	open int64              // streams open: opened minus those that ended since
	seen bool               // a stream was recorded: the series carries streams from then on
}

// foldStreams drains the shards' streams into the run's aggregates and
// the point p of the interval.
func (r *Recorder) foldStreams(p *result.Point) {
	sr := &r.streams
	var pt result.StreamPoint
	var closed int64
	var ends [numStreamEnds]int64
	for _, s := range r.shards {
		s.mu.Lock()
		for set, eps := range s.streams.eps {
			for id, ep := range eps {
				if ep == nil || ep.empty() {
					continue
				}
				sr.seen = true
				pt.Opened += ep.opened
				pt.Events += ep.events
				closed += ep.closed
				for i, n := range ep.ends {
					ends[i] += n
				}
				if set == 0 {
					for id >= len(sr.run) {
						sr.run = append(sr.run, nil)
					}
					if sr.run[id] == nil {
						sr.run[id] = newStreamAggregate()
					}
					agg := sr.run[id]
					agg.streamCounts.merge(&ep.streamCounts)
					for i, h := range ep.hists {
						if h != nil {
							agg.hists[i].Merge(h)
						}
					}
				}
				ep.reset()
				for _, h := range ep.hists {
					if h != nil {
						h.Reset()
					}
				}
			}
		}
		s.mu.Unlock()
	}
	if !sr.seen {
		return
	}
	sr.open += pt.Opened - closed
	pt.Open = sr.open
	for i, n := range ends {
		if n > 0 {
			if pt.Ends == nil {
				pt.Ends = map[string]int64{}
			}
			pt.Ends[string(streamEnds[i])] = n
		}
	}
	p.Streams = &pt
}

// streamResult adds the streams' statistics to res, which Result built.
func (r *Recorder) streamResult(res *result.Result) {
	if !r.streams.seen {
		return
	}
	total := newStreamAggregate()
	for id, agg := range r.streams.run {
		if agg == nil {
			continue
		}
		st := endpointRow(res, r.endpointName(EndpointID(id)))
		st.Streams = agg.toStats(res.MeasuredS())
		total.merge(agg)
	}
	res.Totals.Streams = total.toStats(res.MeasuredS())
	res.Totals.Streams.OpenMax = openMax(res.Series)
}

// endpointRow returns the Stats of the endpoint called name in res,
// adding an empty row if it has none (all its requests were in the
// warm-up, say).
func endpointRow(res *result.Result, name string) *result.Stats {
	for i := range res.Endpoints {
		if res.Endpoints[i].Name == name {
			return &res.Endpoints[i].Stats
		}
	}
	res.Endpoints = append(res.Endpoints, result.EndpointStats{Name: name, Stats: toStats(newAggregate(), 0, res.MeasuredS())})
	return &res.Endpoints[len(res.Endpoints)-1].Stats
}

// openMax returns the most streams open at the end of any interval.
func openMax(series []result.Point) int64 {
	var m int64
	for _, p := range series {
		if p.Streams != nil {
			m = max(m, p.Streams.Open)
		}
	}
	return m
}
