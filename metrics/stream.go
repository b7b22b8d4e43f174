package metrics

import (
	"time"

	"github.com/surge-load/surge/errclass"
)

// A StreamEnd says how a stream ended. Its string values appear in result
// documents, so they never change.
type StreamEnd string

// How streams end.
const (
	// EndHeld: the stream lasted as planned: its hold time passed, it
	// received the events it waited for, or the client closed it.
	EndHeld StreamEnd = "held"
	// EndServerClosed: the server ended the stream or closed the
	// connection.
	EndServerClosed StreamEnd = "server_closed"
	// EndReset: the connection was reset.
	EndReset StreamEnd = "reset"
	// EndTimeout: no response headers, or no data for the idle timeout.
	EndTimeout StreamEnd = "timeout"
	// EndHTTPError: the response was not a stream: an error status, or
	// not text/event-stream, or a refused WebSocket handshake.
	EndHTTPError StreamEnd = "http_error"
	// EndConnectFailed: no connection: refused, connect timeout, DNS,
	// TLS, or the generator's own port or file limits.
	EndConnectFailed StreamEnd = "connect_failed"
	// EndInterrupted: the run stopped while the stream was open or
	// opening.
	EndInterrupted StreamEnd = "interrupted"
	// EndError: anything else, such as a malformed stream.
	EndError StreamEnd = "error"
)

// streamEnds lists the ends in the order reports show them; an end's index
// here is its slot in the counters.
var streamEnds = [...]StreamEnd{EndHeld, EndServerClosed, EndReset, EndTimeout,
	EndHTTPError, EndConnectFailed, EndInterrupted, EndError}

const numStreamEnds = len(streamEnds)

// StreamEnds lists every way a stream can end, in report order.
func StreamEnds() []StreamEnd { return streamEnds[:] }

// index returns e's slot; unknown ends count as EndError.
func (e StreamEnd) index() int {
	for i, x := range streamEnds {
		if x == e {
			return i
		}
	}
	return numStreamEnds - 1
}

// StreamEndOf returns how a stream that failed with class c ended.
func StreamEndOf(c errclass.Class) StreamEnd {
	switch c {
	case errclass.None:
		return EndHeld
	case errclass.Reset:
		return EndReset
	case errclass.Timeout:
		return EndTimeout
	case errclass.Closed:
		return EndServerClosed
	case errclass.HTTP4xx, errclass.HTTP5xx, errclass.Check:
		return EndHTTPError
	case errclass.DNS, errclass.ConnectRefused, errclass.ConnectTimeout, errclass.TLS,
		errclass.LocalPorts, errclass.LocalFDs:
		return EndConnectFailed
	case errclass.Interrupted:
		return EndInterrupted
	}
	return EndError
}

// A Stream is the measurement of one long-lived connection: a server-sent
// events subscription (one connection of it, when it reconnects) or a
// WebSocket connection, from the start of connecting to its end.
//
// A stream is recorded in up to three kinds of calls on a Shard:
// StreamOpened once the response showed a stream (headers of an event
// stream, a completed WebSocket handshake), StreamEvent for every event or
// message received, and StreamEnded exactly once at the end, whether or
// not it opened.
type Stream struct {
	Endpoint EndpointID
	Start    time.Time // when connecting began
	// Opened reports that the stream began; false if it failed before.
	Opened bool
	// Resumed marks a reconnection of an earlier stream (SSE with
	// Last-Event-ID).
	Resumed bool
	// Connect is the time to connect: name lookup, TCP and TLS handshakes.
	Connect time.Duration
	// Headers is the time from Start to the response headers: for
	// WebSocket, to the completed handshake.
	Headers time.Duration
	// Sent counts the messages sent on the stream (WebSocket).
	Sent int64
	// BytesIn and BytesOut count the stream's bytes on the wire after its
	// response headers; the request and the headers are in the Sample of
	// the exchange that opened it.
	BytesIn, BytesOut int64
	End               StreamEnd
	// CloseCode is the WebSocket close code received or sent; 0 if none.
	CloseCode int
	// Class and Err, for a stream that opened and then failed (the server
	// closed it before it lasted as planned, an idle timeout, a malformed
	// stream, a reset), say why: StreamEnded then counts the operation
	// that opened it as a failure of that class, with Err as its message,
	// in the error table, the error rate and the thresholds. Zero for a
	// stream that lasted as planned, was interrupted by the end of the
	// run, or failed before opening (its Sample carries that failure).
	Class errclass.Class
	Err   error
}

// A StreamEvent is the timing of one event or message received on a
// stream.
type StreamEvent struct {
	At    time.Time     // when it was received
	First bool          // the stream's first event
	Since time.Duration // first event: from the stream's Start; others: from the previous event (the gap)
	// Delay is the delivery delay: from the time the sender stamped on the
	// event to At. HasDelay is false when the event carried no time.
	Delay    time.Duration
	HasDelay bool
}
