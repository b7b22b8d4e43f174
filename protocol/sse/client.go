package sse

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/surge-load/surge/errclass"
	"github.com/surge-load/surge/internal/netdial"
	"github.com/surge-load/surge/metrics"
)

// A Client opens server-sent event streams. It is safe for concurrent use:
// all virtual users of a scenario share one. Each subscription runs on the
// goroutine that calls Subscribe, on one connection of its own; only the
// opening of a connection (dial, request, response headers) runs on a
// short-lived goroutine, so that its deep stack does not stay with the
// caller's for the life of the stream. A held stream's memory is the
// caller's goroutine (a 4 KiB stack), a read buffer (Options.BufferBytes),
// the parser's buffers and the socket; the buffers return to a pool when
// the subscription ends.
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
		dial: netdial.HTTP1(opts.Resolver, opts.LocalAddrs, opts.InsecureTLS),
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

// ErrPlanEnded is the cancellation cause that ends a subscription as
// planned: a stream held "until the run ends" when the run stops starting
// new work. It ends held, not interrupted.
var ErrPlanEnded = errors.New("sse: the plan ended the subscription")

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
func (c *Client) Subscribe(ctx context.Context, req *Request, rec Recording) (res Result) {
	prep, err := req.prepared()
	if err != nil {
		badRequest(&res, rec, err)
		return res
	}
	c.run(ctx, req, prep, rec, &res)
	return res
}

// run runs a subscription on a stream from the pool.
//
//go:noinline
func (c *Client) run(ctx context.Context, req *Request, prep *prepared, rec Recording, res *Result) {
	s := c.pool.Get().(*stream)
	s.begin(req, prep, rec)
	s.subscribe(ctx)
	*res = s.res
	s.finish()
	c.pool.Put(s)
}

// badRequest records and returns a subscription whose request is wrong.
// It is a function of its own so that its locals do not weigh on the
// stack frame of Subscribe, which stays on the stack while the stream is
// held.
//
//go:noinline
func badRequest(res *Result, rec Recording, err error) {
	now := time.Now()
	err = fmt.Errorf("subscribe: %w", err)
	if rec.Shard != nil {
		rec.Shard.Record(&metrics.Sample{Endpoint: rec.Endpoint, Intended: rec.Intended, Start: now, End: now, Class: errclass.Other, Err: err})
		rec.Shard.StreamEnded(&metrics.Stream{Endpoint: rec.Endpoint, Start: now, End: metrics.EndError})
	}
	*res = Result{End: metrics.EndError, Err: err, Class: errclass.Other}
}

// subscribe runs the subscription: connections, and reconnections as the
// request allows. It leaves its result in s.res.
//
// A held stream parks its goroutine deep inside this call for as long as
// it lasts, and a goroutine keeps the largest stack it ever needed, so the
// functions on that path keep their state in s rather than in large
// locals and results: the stream then fits a 4 KiB stack.
func (s *stream) subscribe(ctx context.Context) {
	req, res := s.req, &s.res
	*res = Result{}
	retry := req.Retry
	if retry <= 0 {
		retry = DefaultRetry
	}
	intended := s.rec.Intended
	for attempt := 0; ; attempt++ {
		s.connect(ctx, attempt > 0, intended)
		intended = time.Time{}
		out := &s.out
		res.Connections++
		res.Status, res.End, res.Err, res.Class = out.status, out.end, out.err, out.class
		switch out.end {
		case metrics.EndHeld, metrics.EndInterrupted, metrics.EndHTTPError:
			s.result(out.opened)
			return
		}
		if !req.Reconnect || (req.MaxReconnects > 0 && attempt >= req.MaxReconnects) {
			s.result(out.opened)
			return
		}
		if d, ok := s.p.Retry(); ok {
			retry = d
		}
		if !s.pause(ctx, retry) {
			return
		}
	}
}

// pause waits out the reconnection time before a reconnection; it reports
// whether to reconnect, and otherwise completes s.res.
//
//go:noinline
func (s *stream) pause(ctx context.Context, retry time.Duration) bool {
	res := &s.res
	wait, held := retry, false
	if !s.holdEnd.IsZero() {
		if left := time.Until(s.holdEnd); left <= wait {
			wait, held = max(left, 0), true
		}
	}
	if !sleep(ctx, wait) {
		out := interrupted(ctx)
		res.End, res.Err, res.Class = out.end, out.err, out.class
		s.result(false)
		return false
	}
	if held {
		res.End, res.Err, res.Class = metrics.EndHeld, nil, errclass.None
		s.result(false)
		return false
	}
	return true
}

// result completes s.res at the end of the subscription; opened says
// whether its last connection opened a stream.
//
//go:noinline
func (s *stream) result(opened bool) {
	res := &s.res
	res.Events = s.total
	res.LastEventID = string(s.p.LastEventID())
	req := s.req
	if res.End == metrics.EndServerClosed && opened && req.Hold == 0 && req.Events == 0 && req.Until == nil {
		// Without an end condition the server's close is the plan.
		res.Err, res.Class = nil, errclass.None
	}
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
