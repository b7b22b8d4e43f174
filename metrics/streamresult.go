package metrics

import (
	"fmt"
	"strconv"
)

// StreamStats summarise the streams of an endpoint or of the whole run:
// server-sent events subscriptions and WebSocket connections. Stats has
// them (Stats.Streams) only when the run had streams. Every connection
// attempt is also an operation in the request statistics, measured to its
// response headers; StreamStats say what happened after.
type StreamStats struct {
	// Opened counts the streams that began: the response was an event
	// stream, or the WebSocket handshake succeeded. Reconnects counts
	// those that resumed an earlier stream.
	Opened     int64 `json:"opened"`
	Reconnects int64 `json:"reconnects"`
	// OpenMax is the most streams open at once at the end of a second
	// (totals only).
	OpenMax int64 `json:"open_max,omitempty"`
	// Events counts the events (WebSocket: messages) received, and
	// EventsPerSec divides them by the measured period (Result.MeasuredS,
	// without the warm-up), as rps divides requests. Sent
	// counts messages sent (WebSocket).
	Events       int64   `json:"events"`
	EventsPerSec float64 `json:"events_per_sec"`
	Sent         int64   `json:"sent"`
	// BytesIn and BytesOut count the streams' bytes on the wire after
	// their response headers.
	BytesIn  int64 `json:"bytes_in"`
	BytesOut int64 `json:"bytes_out"`
	// Connect is the time to connect (name lookup, TCP, TLS); Headers from
	// the start of connecting to the response headers or the completed
	// WebSocket handshake; FirstEvent from the start of connecting to the
	// first event; Gap between consecutive events of a stream; Delay from
	// the send time an event carried to its arrival.
	Connect    Percentiles `json:"connect_ms"`
	Headers    Percentiles `json:"headers_ms"`
	FirstEvent Percentiles `json:"first_event_ms"`
	Gap        Percentiles `json:"gap_ms"`
	Delay      Percentiles `json:"delay_ms"`
	// Ends counts how streams and attempts to open them ended, by
	// StreamEnd; every attempt ends exactly once.
	Ends map[string]int64 `json:"ends"`
	// CloseCodes counts WebSocket close codes.
	CloseCodes map[string]int64 `json:"close_codes,omitempty"`
	// The distributions as HdrHistogram V2 compressed base64, in
	// microseconds, so that results merge exactly.
	ConnectHistogram    string `json:"connect_histogram,omitempty"`
	HeadersHistogram    string `json:"headers_histogram,omitempty"`
	FirstEventHistogram string `json:"first_event_histogram,omitempty"`
	GapHistogram        string `json:"gap_histogram,omitempty"`
	DelayHistogram      string `json:"delay_histogram,omitempty"`
}

// percentiles returns the distributions of s in histogram order.
func (s *StreamStats) percentiles() [numStreamHists]*Percentiles {
	return [numStreamHists]*Percentiles{&s.Connect, &s.Headers, &s.FirstEvent, &s.Gap, &s.Delay}
}

func (s *StreamStats) histograms() [numStreamHists]*string {
	return [numStreamHists]*string{&s.ConnectHistogram, &s.HeadersHistogram, &s.FirstEventHistogram, &s.GapHistogram, &s.DelayHistogram}
}

// A StreamPoint is the streams of one interval of the series.
type StreamPoint struct {
	Open   int64            `json:"open"`   // streams open at the end of the interval
	Opened int64            `json:"opened"` // streams that began in it
	Events int64            `json:"events"` // events and messages received in it
	Ends   map[string]int64 `json:"ends,omitempty"`
}

// toStats summarises a; durationS is the measured period in seconds.
func (a *streamAgg) toStats(durationS float64) *StreamStats {
	s := &StreamStats{
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
	pcts, hists := s.percentiles(), s.histograms()
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
func fromStreamStats(s *StreamStats) (*streamAgg, error) {
	a := &streamAgg{}
	a.opened, a.resumed = s.Opened, s.Reconnects
	a.events, a.sent = s.Events, s.Sent
	a.bytesIn, a.bytesOut = s.BytesIn, s.BytesOut
	pcts, hists := s.percentiles(), s.histograms()
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
func mergeStreams(out *Result, parts []*Result) error {
	aggs := map[string]*streamAgg{}
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
				aggs[e.Name] = newStreamAgg()
			}
			aggs[e.Name].merge(a)
		}
	}
	if len(aggs) == 0 {
		return nil
	}
	total := newStreamAgg()
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
func addStreamPoint(dst **StreamPoint, q *StreamPoint) {
	if q == nil {
		return
	}
	if *dst == nil {
		*dst = &StreamPoint{}
	}
	d := *dst
	d.Open += q.Open
	d.Opened += q.Opened
	d.Events += q.Events
	for end, n := range q.Ends {
		if d.Ends == nil {
			d.Ends = map[string]int64{}
		}
		d.Ends[end] += n
	}
}
