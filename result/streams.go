package result

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

// A StreamPoint is the streams of one interval of the series.
type StreamPoint struct {
	Open   int64            `json:"open"`   // streams open at the end of the interval
	Opened int64            `json:"opened"` // streams that began in it
	Events int64            `json:"events"` // events and messages received in it
	Ends   map[string]int64 `json:"ends,omitempty"`
}
