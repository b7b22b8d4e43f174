package sse

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"time"

	"github.com/surge-load/surge/errclass"
	"github.com/surge-load/surge/internal/netdial"
	"github.com/surge-load/surge/metrics"
	"github.com/surge-load/surge/protocol/http1"
)

// A stream is the state of one subscription while it runs. Streams are
// pooled by their Client; everything but the buffers is reset per
// subscription.
type stream struct {
	c   *Client
	buf []byte // the read buffer; the request is composed in it too
	p   Parser
	b   http1.Body
	hr  http1.HeadReader
	cnt netdial.Counter
	t   netdial.Timing

	// The subscription.
	req     *Request
	prep    *prepared
	rec     Recording
	holdEnd time.Time // zero if no hold
	total   int64     // events over all connections

	res Result // of the subscription

	// The connection.
	conn      net.Conn
	stop      func() bool // stops watching the context for conn
	rest      []byte      // body bytes that came with the headers
	out       outcome     // how the connection ended
	start     time.Time   // when connecting began
	deadline  time.Time   // the connection's read deadline
	smp       metrics.Sample
	st        metrics.Stream
	h         http1.Head
	lastEvent time.Time
	events    int64
}

// begin readies s for a subscription of req.
func (s *stream) begin(req *Request, prep *prepared, rec Recording) {
	s.req, s.prep, s.rec = req, prep, rec
	s.total = 0
	s.holdEnd = time.Time{}
	if req.Hold > 0 {
		s.holdEnd = time.Now().Add(req.Hold)
	}
	s.p.Reset()
	s.p.retry, s.p.hasRetry = 0, false
	s.p.Comments = 0
	id := prep.lastEventID
	if req.LastEventID != "" {
		id = req.LastEventID
	}
	s.p.SetLastEventID([]byte(id))
}

// finish drops the references s holds before it returns to the pool.
func (s *stream) finish() {
	s.req, s.prep, s.rec = nil, nil, Recording{}
	s.smp, s.st = metrics.Sample{}, metrics.Stream{}
}

// outcome is how one connection ended.
type outcome struct {
	opened bool // the response was an event stream
	status int
	end    metrics.StreamEnd
	class  errclass.Class
	err    error
}

// aLongTimeAgo is a deadline in the past: setting it unblocks a read.
var aLongTimeAgo = time.Unix(1, 0)

// connect makes one connection of the subscription, holds its stream
// until it ends, records it, and leaves how it ended in s.out.
func (s *stream) connect(ctx context.Context, resumed bool, intended time.Time) {
	s.openAside(ctx, resumed, intended)
	if s.conn == nil {
		return
	}
	if !s.consume(s.rest) {
		s.read(ctx)
	}
	s.closeConn()
}

// openAside runs open on a goroutine of its own that ends with it.
// Connecting, the TLS handshake and reading the headers take a deep stack,
// and a goroutine keeps the largest stack it ever needed for as long as it
// lives: done on the subscriber's goroutine, which then parks for the life
// of the stream, they would double that goroutine's stack (8 KiB instead
// of 4) for every open stream.
//
//go:noinline
func (s *stream) openAside(ctx context.Context, resumed bool, intended time.Time) {
	done := make(chan struct{})
	go func() {
		s.conn, s.stop, s.rest, s.out = s.open(ctx, resumed, intended)
		close(done)
	}()
	<-done
}

// closeConn closes the connection of an open stream and records its end.
//
//go:noinline
func (s *stream) closeConn() {
	s.stop()
	s.conn.Close()
	s.conn, s.stop, s.rest = nil, nil, nil
	out := &s.out
	out.status, out.opened = s.h.Status, true
	st := &s.st
	st.End = out.end
	if s.failedAfterOpening(out) {
		st.Class, st.Err = out.class, out.err
	}
	st.BytesIn = s.cnt.In.Load() - s.smp.BytesIn
	st.BytesOut = s.cnt.Out.Load() - s.smp.BytesOut
	if s.rec.Shard != nil {
		s.rec.Shard.StreamEnded(st)
	}
}

// failedAfterOpening reports whether a connection that opened a stream and
// ended as out failed: not when it lasted as planned, not when the run's
// end interrupted it, and not when the server closed a subscription that
// has no end condition of its own (the server's close is then its plan).
func (s *stream) failedAfterOpening(out *outcome) bool {
	switch {
	case out.class == errclass.None, out.class == errclass.Interrupted:
		return false
	case out.end == metrics.EndServerClosed && s.req.Hold == 0 && s.req.Events == 0 && s.req.Until == nil:
		return false
	}
	return true
}

// open connects, sends the request and reads the response headers. If the
// response is an event stream it returns the connection, the function
// that stops watching ctx for it, and the body bytes that came with the
// headers; otherwise a nil connection and how the attempt ended, which it
// has recorded.
func (s *stream) open(ctx context.Context, resumed bool, intended time.Time) (net.Conn, func() bool, []byte, outcome) {
	s.start = time.Now()
	s.events = 0
	s.cnt.In.Store(0)
	s.cnt.Out.Store(0)
	s.smp = metrics.Sample{Endpoint: s.rec.Endpoint, Intended: intended, Start: s.start}
	s.st = metrics.Stream{Endpoint: s.rec.Endpoint, Start: s.start, Resumed: resumed}
	smp, st := &s.smp, &s.st

	timeout := s.req.Timeout
	if timeout <= 0 {
		timeout = s.c.opts.Timeout
	}
	deadline := s.start.Add(timeout)
	dctx, cancel := context.WithDeadlineCause(ctx, deadline, &errclass.TimeoutError{After: timeout})
	conn, phase, err := s.c.dial.Dial(dctx, s.prep.addr, s.prep.secure, s.prep.serverName, &s.cnt, &s.t)
	if err != nil {
		err = contextCause(dctx, err)
	}
	cancel()
	if err != nil {
		return nil, nil, nil, s.failed(phase, err)
	}
	// A cancelled ctx unblocks whatever the connection waits for.
	stop := context.AfterFunc(ctx, func() { _ = conn.SetDeadline(aLongTimeAgo) })
	_ = conn.SetDeadline(deadline)
	s.deadline = deadline
	fail := func(out outcome) (net.Conn, func() bool, []byte, outcome) {
		stop()
		conn.Close()
		return nil, nil, nil, out
	}

	sendStart := time.Now()
	if err := s.send(conn); err != nil {
		return fail(s.failed(errclass.PhaseRequest, fmt.Errorf("sending request: %w", s.cause(ctx, err))))
	}
	sent := time.Now()
	rest, err := s.readHead(conn)
	got := time.Now()
	smp.Timing = metrics.Timing{DNS: s.t.DNS, Connect: s.t.Connect, TLS: s.t.TLS, Send: sent.Sub(sendStart), Wait: got.Sub(sent)}
	if err != nil {
		switch {
		case errors.Is(err, io.EOF):
			err = io.ErrUnexpectedEOF
		case errors.Is(err, os.ErrDeadlineExceeded) && ctx.Err() == nil:
			err = fmt.Errorf("%w (%v)", &errclass.TimeoutError{After: timeout}, err)
		}
		smp.End = got
		return fail(s.failed(errclass.PhaseRequest, fmt.Errorf("awaiting response headers: %w", s.cause(ctx, err))))
	}
	smp.End, smp.Status = got, s.h.Status
	smp.BytesOut = s.cnt.Out.Load()
	smp.BytesIn = s.cnt.In.Load() - int64(len(rest))
	if s.h.Status != 200 || !isEventStream(s.h.ContentType) {
		return fail(s.rejected())
	}
	s.record(smp)
	st.Opened = true
	st.Connect = s.t.DNS + s.t.Connect + s.t.TLS
	st.Headers = got.Sub(s.start)
	if s.rec.Shard != nil {
		s.rec.Shard.StreamOpened(st)
	}
	s.b.Reset(&s.h, true)
	s.p.Reset()
	return conn, stop, rest, outcome{}
}

// send writes the request, composed in the read buffer when it fits.
func (s *stream) send(conn net.Conn) error {
	b := append(s.buf[:0], s.prep.head...)
	if id := s.p.LastEventID(); len(id) > 0 {
		b = append(b, "Last-Event-ID: "...)
		b = append(b, id...)
		b = append(b, "\r\n"...)
	}
	b = append(b, "\r\n"...)
	body := s.req.Body
	if len(b)+len(body) <= cap(s.buf) {
		b, body = append(b, body...), nil
	}
	if _, err := conn.Write(b); err != nil {
		return err
	}
	if len(body) > 0 {
		_, err := conn.Write(body)
		return err
	}
	return nil
}

// readHead reads the response header, skipping informational responses,
// and returns it with the bytes of the body that came with it. A header
// longer than the read buffer is read into a temporary larger one.
func (s *stream) readHead(conn net.Conn) (rest []byte, err error) {
	s.hr.Limit = maxHeaderBytes
	buf, end, n, err := s.hr.ReadHead(conn, s.buf, 0, &s.h)
	if err != nil {
		return nil, err
	}
	return buf[end:n], nil
}

// isEventStream reports whether a Content-Type is text/event-stream.
func isEventStream(contentType []byte) bool {
	media, _, _ := bytes.Cut(contentType, []byte(";"))
	return bytes.EqualFold(bytes.TrimSpace(media), []byte("text/event-stream"))
}

// rejected records a response that is not an event stream.
func (s *stream) rejected() outcome {
	smp, st, h := &s.smp, &s.st, &s.h
	class := errclass.FromStatus(h.Status)
	var err error
	switch {
	case class != errclass.None:
		err = fmt.Errorf("status %d", h.Status)
	case h.Status != 200:
		class, err = errclass.Check, fmt.Errorf("status %d: not an event stream", h.Status)
	default:
		class, err = errclass.Check, fmt.Errorf("Content-Type %q: not text/event-stream", h.ContentType)
	}
	smp.Class = class
	if class == errclass.Check {
		smp.Err = err
	}
	s.record(smp)
	st.End = metrics.EndHTTPError
	if s.rec.Shard != nil {
		s.rec.Shard.StreamEnded(st)
	}
	return outcome{status: h.Status, end: metrics.EndHTTPError, class: class, err: err}
}

// failed records a connection that failed before its response headers.
func (s *stream) failed(phase errclass.Phase, err error) outcome {
	smp, st := &s.smp, &s.st
	if smp.End.IsZero() {
		smp.End = time.Now()
		smp.Timing = metrics.Timing{DNS: s.t.DNS, Connect: s.t.Connect, TLS: s.t.TLS}
	}
	smp.BytesIn, smp.BytesOut = s.cnt.In.Load(), s.cnt.Out.Load()
	smp.Class, smp.Err = errclass.Classify(err, phase), err
	if errors.Is(err, ErrPlanEnded) || errors.Is(err, errclass.ErrInterrupted) {
		// The run ended while the subscription waited to open.
		smp.Class = errclass.Interrupted
	}
	s.record(smp)
	st.End = metrics.StreamEndOf(smp.Class)
	if s.rec.Shard != nil {
		s.rec.Shard.StreamEnded(st)
	}
	return outcome{end: st.End, class: smp.Class, err: err}
}

func (s *stream) record(smp *metrics.Sample) {
	if s.rec.Shard != nil {
		s.rec.Shard.Record(smp)
	}
}

// read reads the stream until it ends, and leaves how in s.out.
func (s *stream) read(ctx context.Context) {
	for {
		s.arm()
		if ctx.Err() != nil {
			s.out = interrupted(ctx)
			return
		}
		n, err := s.conn.Read(s.buf)
		if n > 0 && s.consume(s.buf[:n]) {
			return
		}
		if err != nil {
			s.out = s.readFailed(ctx, err)
			return
		}
	}
}

// arm sets the read deadline the next read needs: the end of the hold or
// of the idle timeout, whichever comes first.
//
//go:noinline
func (s *stream) arm() {
	dl := s.holdEnd
	if idle := s.req.IdleTimeout; idle > 0 {
		if t := time.Now().Add(idle); dl.IsZero() || t.Before(dl) {
			dl = t
		}
	}
	if !dl.Equal(s.deadline) {
		_ = s.conn.SetReadDeadline(dl)
		s.deadline = dl
	}
}

// readFailed says how a stream whose read failed with err ended.
func (s *stream) readFailed(ctx context.Context, err error) outcome {
	switch {
	case ctx.Err() != nil:
		return interrupted(ctx)
	case errors.Is(err, os.ErrDeadlineExceeded):
		if !s.holdEnd.IsZero() && !time.Now().Before(s.holdEnd) {
			return outcome{end: metrics.EndHeld}
		}
		return outcome{end: metrics.EndTimeout, class: errclass.Timeout,
			err: fmt.Errorf("reading stream: no data for %v", s.req.IdleTimeout)}
	case errors.Is(err, io.EOF):
		return outcome{end: metrics.EndServerClosed, class: errclass.Closed, err: errServerClosed}
	}
	class := errclass.Classify(err, errclass.PhaseRequest)
	return outcome{end: metrics.StreamEndOf(class), class: class, err: fmt.Errorf("reading stream: %w", err)}
}

func interrupted(ctx context.Context) outcome {
	if errors.Is(context.Cause(ctx), ErrPlanEnded) {
		return outcome{end: metrics.EndHeld}
	}
	return outcome{end: metrics.EndInterrupted, class: errclass.Interrupted, err: context.Cause(ctx)}
}

// consume parses the body bytes p. It reports whether the stream ended,
// and then leaves how in s.out.
func (s *stream) consume(p []byte) bool {
	for !s.b.Done() && len(p) > 0 {
		data, rest, err := s.b.Next(p)
		if err != nil {
			s.malformed(err)
			return true
		}
		p = rest
		for len(data) > 0 {
			n, ev, err := s.p.Feed(data)
			data = data[n:]
			if err != nil {
				s.malformed(err)
				return true
			}
			if ev != nil && s.event(ev) {
				s.out = outcome{end: metrics.EndHeld}
				return true
			}
		}
	}
	if s.b.Done() {
		s.out = outcome{end: metrics.EndServerClosed, class: errclass.Closed, err: errServerClosed}
		return true
	}
	return false
}

// malformed ends a stream that cannot be read further.
//
//go:noinline
func (s *stream) malformed(err error) {
	class := errclass.Other
	if errors.Is(err, errclass.ErrProtocol) {
		class = errclass.Protocol // the framing of the body, not the events
	}
	s.out = outcome{end: metrics.EndError, class: class, err: fmt.Errorf("reading stream: %w", err)}
}

// event measures and records one event; it reports whether the
// subscription has what it waited for.
func (s *stream) event(ev *Event) bool {
	now := time.Now()
	se := metrics.StreamEvent{At: now, First: s.events == 0}
	if se.First {
		se.Since = now.Sub(s.start)
	} else {
		se.Since = now.Sub(s.lastEvent)
	}
	if f := s.req.SentAt; f != nil {
		if t, ok := f(ev.Data); ok {
			se.Delay, se.HasDelay = now.Sub(t), true
		}
	}
	s.lastEvent = now
	s.events++
	s.total++
	if s.rec.Shard != nil {
		s.rec.Shard.StreamEvent(s.rec.Endpoint, &se)
	}
	if f := s.req.OnEvent; f != nil {
		f(ev)
	}
	if f := s.req.Until; f != nil && f(ev) {
		return true
	}
	return s.req.Events > 0 && s.total >= s.req.Events
}

// cause returns why ctx ended if it did, since that is why the connection
// failed, and err otherwise.
func (s *stream) cause(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return context.Cause(ctx)
	}
	return err
}

// contextCause returns why ctx ended if err is a consequence of it, and
// err otherwise.
func contextCause(ctx context.Context, err error) error {
	if ctx.Err() == nil {
		return err
	}
	cause := context.Cause(ctx)
	var te *errclass.TimeoutError
	if errors.As(cause, &te) {
		return fmt.Errorf("%w (%v)", cause, err)
	}
	return cause
}
