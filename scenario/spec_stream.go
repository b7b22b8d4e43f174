package scenario

import "time"

// An SSE step subscribes to a server-sent event stream (text/event-stream)
// and holds it, measuring the subscription and every event (see package
// protocol/sse and the streams section of the result).
//
// The subscription ends at the first of Hold, Events and Until; with none
// of them it lasts until the server closes it or the run stops. Until, the
// expressions of SentAt, and the step's Capture, Append and Remove see the
// event: event.type, event.id, event.data and event.n (the events received
// so far, this one included), json (the data decoded) and body (the data
// as text), and status; Capture, Append and Remove run once the
// subscription has ended, against its last event. The step fails if the
// subscription did not last as planned: a failed connection, an HTTP
// error, a server that closed it early (unless Reconnect).
type SSE struct {
	Method  string            // GET if empty
	URL     string            // template: a path relative to Spec.Target, or an absolute http(s) URL
	Headers map[string]string // templates; Defaults.Headers apply
	Body    string            // template
	// Timeout bounds connecting and waiting for the response headers;
	// zero means Defaults.Timeout.
	Timeout time.Duration

	// Hold is how long to keep the subscription, reconnections included.
	Hold time.Duration
	// Events ends the subscription after this many events.
	Events int
	// Until, an expression, ends the subscription at the first event for
	// which it is true.
	Until string
	// IdleTimeout fails a stream that receives nothing at all, events or
	// keep-alive comments, for this long; zero means no limit.
	IdleTimeout time.Duration

	// LastEventID, a template, is sent as Last-Event-ID on the first
	// connection, to resume a stream.
	LastEventID string
	// Reconnect reconnects after the server closed the stream or the
	// connection failed, with Last-Event-ID and the server's retry time,
	// as a browser's EventSource does; MaxReconnects bounds the
	// reconnections (zero: no bound).
	Reconnect     bool
	MaxReconnects int

	// SentAt, an expression, reads the time an event was sent from the
	// event, to measure its delivery delay: a number of SentAtUnit since
	// the Unix epoch, such as json.sent_at. A simple path into json is
	// read without decoding the event or allocating.
	SentAt string
	// SentAtUnit is "ns" (the default), "us", "ms" or "s".
	SentAtUnit string
}

// A WebSocket step opens a WebSocket connection, runs its actions in
// order, and closes it: the handshake is one operation of the step's
// statistics row, every awaited reply one operation of its own row, and
// the connection one stream (see package protocol/ws).
type WebSocket struct {
	// URL is a template: a path relative to Spec.Target, or an absolute
	// ws, wss, http or https URL.
	URL     string
	Headers map[string]string // templates; Defaults.Headers apply
	// Timeout bounds connecting and the handshake; zero means
	// Defaults.Timeout.
	Timeout time.Duration
	Actions []WSAction
	// CloseCode is the close code sent at the end; zero means 1000.
	CloseCode int
}

// A WSAction is one thing done on a WebSocket connection: exactly one of
// Send, JSON, Await and Hold.
type WSAction struct {
	// Send sends a text message: a template.
	Send string
	// JSON sends a JSON message, a tree like Request.JSON.
	JSON any
	// Await, an expression, receives messages until one makes it true,
	// within Timeout (zero: Defaults.Timeout). It sees body (the message
	// as text), json (it decoded), duration_ms (from the last message
	// sent) and status. The wait is an operation of the row Name (by
	// default the step's row followed by " await"), measured from the last
	// message sent: the round trip.
	Await   string
	Timeout time.Duration
	Name    string
	// Capture sets variables from the awaited message.
	Capture map[string]string
	// Hold keeps the connection open this long, receiving and counting
	// messages.
	Hold time.Duration
}
