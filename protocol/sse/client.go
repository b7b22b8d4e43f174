package sse

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/surge-load/surge/errclass"
	"github.com/surge-load/surge/metrics"
	"github.com/surge-load/surge/protocol/netdial"
)

// A Client opens server-sent event streams. It is safe for concurrent use:
// all virtual users of a scenario share one. Each subscription runs on the
// goroutine that calls Subscribe, on one connection of its own, with no
// goroutine of its own; its memory is a read buffer (Options.BufferBytes),
// the parser's buffers and the connection, returned to a pool when the
// subscription ends.
type Client struct {
	opts Options
	dial *netdial.Dialer
	pool sync.Pool // of *stream
}

// New returns a Client configured by opts.
func New(opts Options) *Client {
	opts = opts.withDefaults()
	c := &Client{
		opts: opts,
		dial: netdial.New(netdial.Options{
			Resolver:    opts.Resolver,
			LocalAddrs:  opts.LocalAddrs,
			InsecureTLS: opts.InsecureTLS,
			NextProtos:  []string{"http/1.1"},
		}),
	}
	c.pool.New = func() any {
		return &stream{c: c, buf: make([]byte, opts.BufferBytes), p: Parser{MaxBytes: opts.MaxEventBytes}}
	}
	return c
}

// A Recording says where the measurements of a subscription go.
type Recording struct {
	// Shard receives them; nil measures nothing.
	Shard    *metrics.Shard
	Endpoint metrics.EndpointID
	// Intended is when the load model meant the subscription to start;
	// the first connection's latency counts from it. Zero means its
	// actual start.
	Intended time.Time
}

// A Result says how a subscription went.
type Result struct {
	// Status is the HTTP status of the last response; 0 if none arrived.
	Status int
	// Connections counts the connections tried: 1 plus the reconnections.
	Connections int
	// Events counts the events received over all connections.
	Events int64
	// LastEventID is the last event ID at the end.
	LastEventID string
	// End says how the subscription ended: EndHeld when it lasted as
	// planned, otherwise how its last connection ended.
	End metrics.StreamEnd
	// Err is nil when the subscription lasted as planned (a server that
	// closes a subscription without an end condition ends it as planned)
	// and says why not otherwise. Class is its class.
	Err   error
	Class errclass.Class
}

// errServerClosed is the failure of a stream the server ended early.
var errServerClosed = errors.New("the server closed the stream")

// Subscribe opens the stream req describes, holds it until req says it
// ends, and records every connection into rec:
//
//   - an operation (metrics.Sample) per connection attempt, measured from
//     its start to its response headers, with the timing of its phases
//     (DNS, connect, TLS, send, wait) and the bytes of its request and
//     response headers; it fails with the class of a failure before the
//     headers, errclass.HTTP4xx or HTTP5xx for an error status, or
//     errclass.Check for another status than 200 or a response that is
//     not text/event-stream;
//   - a metrics.Stream per attempt: StreamOpened when the headers showed
//     an event stream, StreamEvent per event, StreamEnded at the end.
//
// When ctx is cancelled the stream ends at once with
// metrics.EndInterrupted.
func (c *Client) Subscribe(ctx context.Context, req *Request, rec Recording) Result {
	prep, err := req.prepared()
	if err != nil {
		now := time.Now()
		err = fmt.Errorf("subscribe: %w", err)
		if rec.Shard != nil {
			rec.Shard.Record(&metrics.Sample{Endpoint: rec.Endpoint, Intended: rec.Intended, Start: now, End: now, Class: errclass.Other, Err: err})
			rec.Shard.StreamEnded(&metrics.Stream{Endpoint: rec.Endpoint, Start: now, End: metrics.EndError})
		}
		return Result{End: metrics.EndError, Err: err, Class: errclass.Other}
	}
	s := c.pool.Get().(*stream)
	s.begin(req, prep, rec)
	res := s.subscribe(ctx)
	s.finish()
	c.pool.Put(s)
	return res
}

// subscribe runs the subscription: connections, and reconnections as the
// request allows.
func (s *stream) subscribe(ctx context.Context) Result {
	req := s.req
	retry := req.Retry
	if retry <= 0 {
		retry = DefaultRetry
	}
	var res Result
	intended := s.rec.Intended
	for attempt := 0; ; attempt++ {
		out := s.connect(ctx, attempt > 0, intended)
		intended = time.Time{}
		res.Connections++
		res.Status, res.End, res.Err, res.Class = out.status, out.end, out.err, out.class
		switch out.end {
		case metrics.EndHeld, metrics.EndInterrupted, metrics.EndHTTPError:
			return s.result(res, out.opened)
		}
		if !req.Reconnect || (req.MaxReconnects > 0 && attempt >= req.MaxReconnects) {
			return s.result(res, out.opened)
		}
		if d, ok := s.p.Retry(); ok {
			retry = d
		}
		wait := retry
		held := false
		if !s.holdEnd.IsZero() {
			if left := time.Until(s.holdEnd); left <= wait {
				wait, held = max(left, 0), true
			}
		}
		if !sleep(ctx, wait) {
			res.End, res.Err, res.Class = metrics.EndInterrupted, context.Cause(ctx), errclass.Interrupted
			return s.result(res, false)
		}
		if held {
			res.End, res.Err, res.Class = metrics.EndHeld, nil, errclass.None
			return s.result(res, false)
		}
	}
}

// result completes res at the end of the subscription; opened says
// whether its last connection opened a stream.
func (s *stream) result(res Result, opened bool) Result {
	res.Events = s.total
	res.LastEventID = string(s.p.LastEventID())
	req := s.req
	if res.End == metrics.EndServerClosed && opened && req.Hold == 0 && req.Events == 0 && req.Until == nil {
		// Without an end condition the server's close is the plan.
		res.Err, res.Class = nil, errclass.None
	}
	return res
}

// sleep waits for d, or until ctx is done; it reports whether d passed.
func sleep(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
