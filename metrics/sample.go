// Package metrics records measurements of operations and turns them into
// the result document (package result): shards take samples without a
// global lock, a collector folds them every second into per-endpoint
// histograms and a per-second series, Recorder.Result builds the document
// and Merge adds up the documents of several machines exactly.
package metrics

import (
	"time"

	"github.com/surge-load/surge/errclass"
)

// EndpointID identifies a statistics row registered with Recorder.Endpoint.
type EndpointID int32

// Timing breaks one HTTP operation into phases. A phase that did not happen
// (no DNS lookup on a reused connection, no TLS on plain HTTP) is zero.
type Timing struct {
	Blocked time.Duration // waiting for a connection, excluding DNS, connect and TLS
	DNS     time.Duration
	Connect time.Duration
	TLS     time.Duration
	Send    time.Duration // writing the request
	Wait    time.Duration // request written until the first response byte
	Receive time.Duration // first response byte until the body is read
}

// A Sample is the measurement of one operation: one request, one
// subscription, one message exchange.
type Sample struct {
	Endpoint EndpointID
	// Intended is when the load model meant the operation to start. In the
	// open model it is the arrival time, so latency counted from it includes
	// any time the operation waited behind a stalled server or a busy
	// generator (coordinated omission). Zero means the same as Start.
	Intended time.Time
	Start    time.Time // when the operation actually began
	End      time.Time // when it finished, the body fully read
	Timing   Timing
	Status   int            // protocol status, such as the HTTP status code; 0 if none arrived
	Class    errclass.Class // why it failed; errclass.None on success
	Err      error          // the failure's error, kept as a sample message
	BytesIn  int64          // bytes received on the wire, headers included
	BytesOut int64          // bytes sent on the wire, headers included
	// Interim counts the informational responses (HTTP 1xx, such as 100
	// Continue or 103 Early Hints) that came before the final one.
	Interim int
	// Proto is the protocol version the response came in, such as
	// "HTTP/1.1", "HTTP/2.0" or "HTTP/3.0"; empty if none arrived.
	Proto string
}

// Latency is the time from the intended start to the end.
func (s *Sample) Latency() time.Duration {
	if s.Intended.IsZero() {
		return s.End.Sub(s.Start)
	}
	return s.End.Sub(s.Intended)
}

// ServiceTime is the time from the actual start to the end.
func (s *Sample) ServiceTime() time.Duration { return s.End.Sub(s.Start) }

// Failed reports whether the operation failed.
func (s *Sample) Failed() bool { return s.Class != errclass.None }
