package httpc

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"runtime"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/surge-load/surge/errclass"
	"github.com/surge-load/surge/metrics"
	"github.com/surge-load/surge/protocol/http1"
)

// Buffer sizes of the HTTP/1.1 client.
const (
	readBufferBytes = 8 << 10  // the read buffer of a virtual user
	keptBufferBytes = 64 << 10 // a buffer grown for a long head is kept up to this
)

// h1State is the lean HTTP/1.1 client of one virtual user. An exchange
// runs entirely on the goroutine that calls Do: the request is composed in
// a reused buffer and written, the response read into another and parsed
// in place (protocol/http1), so a prepared request allocates nothing. The
// caller's context is watched once, not per request: its cancellation
// sets the deadline of the connection in flight in the past.
type h1State struct {
	c     *client
	conns []*h1conn       // open connections, one per target
	h2    map[string]bool // targets whose TLS handshake chose HTTP/2
	buf   []byte          // read buffer
	out   []byte          // the request head, and a body that fits
	hr    http1.HeadReader
	head  http1.Head
	body  http1.Body
	ex    exchange   // the stamps of the exchange in flight
	rc    requestCtx // where its dial records itself

	active      atomic.Pointer[h1conn] // the connection in flight
	watchedDone <-chan struct{}        // Done of the context watched
	unwatch     func() bool
	interruptFn func()

	peekFn  func(fd uintptr) bool
	peekN   int
	peekErr error
	peekBuf [1]byte
}

// An h1conn is an open HTTP/1.1 connection.
type h1conn struct {
	key  string          // the target it serves
	conn net.Conn        // the countingConn, or a *tls.Conn over it
	cc   *countingConn   // under TLS
	raw  syscall.RawConn // the socket, to peek at while idle
	tls  bool
	dial *dialRecord // set until its first exchange: that one made it

	idleSince int64 // stamp of the end of its last exchange
}

func (h *h1State) init(c *client) {
	h.c = c
	h.h2 = map[string]bool{}
	h.ex = exchange{epoch: c.epoch}
	h.hr.Arrived = func() { h.ex.firstByte.Store(h.ex.now()) }
	h.interruptFn = func() {
		if hc := h.active.Load(); hc != nil {
			_ = hc.conn.SetDeadline(aLongTimeAgo)
		}
	}
	h.peekFn = func(fd uintptr) bool {
		h.peekN, h.peekErr = peekByte(fd, &h.peekBuf)
		return true
	}
}

// buffers makes the read and request buffers on first use (an exchange's
// or a warm-up's): a pool of many users that the load never needs costs
// no buffers.
func (h *h1State) buffers() {
	if h.buf == nil {
		h.buf, h.out = make([]byte, readBufferBytes), make([]byte, 0, 1024)
	}
}

// aLongTimeAgo is a deadline in the past: setting it unblocks a read or a
// write at once.
var aLongTimeAgo = time.Unix(1, 0)

// errHTTP2 says that the handshake chose HTTP/2: net/http takes over.
var errHTTP2 = errors.New("the server chose HTTP/2")

// do performs an exchange from s.Start.
func (h *h1State) do(ctx context.Context, req *Request, t *target, s *metrics.Sample) Response {
	ex := &h.ex
	ex.reset()
	ex.cur = &h.rc
	h.rc.lastDial.Store(nil)
	resp, phase, err := h.exchange(ctx, req, t, s)
	if err == errHTTP2 {
		return h.c.viaNetHTTP(ctx, req, t, s)
	}
	ex.interim = resp.Interim
	s.Timing = ex.timing(int64(s.Start.Sub(h.c.epoch)), int64(s.End.Sub(h.c.epoch)))
	return h.c.finish(s, resp, ex, phase, err)
}

// exchange performs the exchange and sets s.End when it is over. On
// failure it returns the phase the exchange was in.
func (h *h1State) exchange(ctx context.Context, req *Request, t *target, s *metrics.Sample) (resp Response, _ errclass.Phase, _ error) {
	c := h.c
	timeout := req.Timeout
	if timeout <= 0 {
		timeout = c.opts.Timeout
	}
	deadline := s.Start.Add(timeout)
	if ctx.Err() != nil {
		s.End = time.Now()
		return resp, errclass.PhaseUnknown, context.Cause(ctx)
	}
	method := req.Method
	if method == "" {
		method = http.MethodGet
	}
	h.buffers()
	out, rest, keepAlive, err := h.compose(req, t, method)
	if err != nil {
		s.End = time.Now()
		return resp, errclass.PhaseUnknown, err
	}
	h.watch(ctx)

	ex := &h.ex
	hc := h.idle(t.key, ex.now())
	if hc == nil {
		var err error
		if hc, err = h.dial(ctx, t, deadline, timeout); err != nil {
			s.End = time.Now()
			if err == errHTTP2 {
				return resp, errclass.PhaseUnknown, err
			}
			return resp, h.ex.phase(), err
		}
	}
	ex.gotConn.Store(ex.now())
	ex.conn.Store(hc.cc)
	if hc.dial != nil {
		ex.connDial.Store(hc.dial)
		hc.dial = nil
	}
	h.active.Store(hc)
	defer h.active.Store(nil)
	_ = hc.conn.SetDeadline(deadline)
	fail := func(err error) (Response, errclass.Phase, error) {
		s.End = time.Now()
		h.drop(hc)
		return resp, errclass.PhaseRequest, h.cause(ctx, err, timeout)
	}
	if ctx.Err() != nil {
		return fail(context.Cause(ctx))
	}

	if _, err := hc.conn.Write(out); err != nil {
		return fail(err)
	}
	if len(rest) > 0 {
		if _, err := hc.conn.Write(rest); err != nil {
			return fail(err)
		}
	}
	ex.wrote.Store(ex.now())
	// Let the other users run before reading: the response is then
	// more often there at the first read, which saves a read that finds
	// nothing and a wait in the poller (a system call and a park and a
	// wake-up of this goroutine). With nothing else to run this returns
	// at once.
	runtime.Gosched()

	buf, end, n, err := h.hr.ReadHead(hc.conn, h.buf, 0, &h.head)
	if len(buf) <= keptBufferBytes {
		h.buf = buf
	}
	resp.Interim = h.hr.Interim
	if err != nil {
		return fail(err)
	}
	hd := &h.head
	resp.Status, resp.Proto = hd.Status, "HTTP/1.1"
	if hd.Minor == 0 {
		resp.Proto = "HTTP/1.0"
	}
	if !req.NoHeader {
		resp.Header = hd.Header()
	}
	h.body.Reset(hd, hd.HasBody(method))
	var sink bodySink
	switch {
	case req.KeepBody:
		sink.limit = c.opts.MaxResponseBytes
		if hd.Length >= 0 {
			sink.buf = make([]byte, 0, min(hd.Length, sink.limit))
		}
	case hd.Status >= 400: // keep the start of the body: it says why
		sink.limit = snippetBytes
	}
	leftover, err := h.readBody(hc, buf, buf[end:n], &sink)
	s.End = time.Now()
	if req.KeepBody {
		resp.Body, resp.Truncated = sink.buf, sink.truncated
		if resp.Body == nil {
			resp.Body = []byte{}
		}
	} else if sink.limit > 0 {
		resp.snippet = sink.buf
	}
	if err != nil {
		h.drop(hc)
		return resp, errclass.PhaseRequest, h.cause(ctx, err, timeout)
	}
	if !keepAlive || hd.Close || h.body.ToEOF() || leftover || hd.Status < 200 {
		h.drop(hc)
	}
	hc.idleSince = int64(s.End.Sub(c.epoch))
	return resp, errclass.PhaseUnknown, nil
}

// A bodySink keeps the start of a response body.
type bodySink struct {
	buf       []byte
	limit     int64 // how much to keep; 0 keeps nothing
	truncated bool
}

func (k *bodySink) write(p []byte) {
	if k.limit == 0 || len(p) == 0 {
		return
	}
	room := k.limit - int64(len(k.buf))
	if int64(len(p)) > room {
		p, k.truncated = p[:room], true
	}
	k.buf = append(k.buf, p...)
}

// readBody reads the body whose first bytes are p into sink, reading
// more into buf. It reports whether bytes followed the body: a server
// that sends what was not asked for is not trusted with the next request.
func (h *h1State) readBody(hc *h1conn, buf, p []byte, sink *bodySink) (leftover bool, err error) {
	for {
		for len(p) > 0 && !h.body.Done() {
			data, rest, perr := h.body.Next(p)
			if perr != nil {
				return false, perr
			}
			sink.write(data)
			p = rest
		}
		switch {
		case h.body.Done():
			return len(p) > 0, nil
		case err == io.EOF && h.body.ToEOF():
			return false, nil // the body ends with the connection
		case err == io.EOF:
			return false, io.ErrUnexpectedEOF
		case err != nil:
			return false, err
		}
		var n int
		n, err = hc.conn.Read(buf)
		p = buf[:n]
	}
}

// cause returns why an exchange failed with err: the cancellation cause
// if ctx ended, the timeout if the deadline passed, err otherwise.
func (h *h1State) cause(ctx context.Context, err error, timeout time.Duration) error {
	if ctx.Err() != nil {
		return context.Cause(ctx)
	}
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return h.c.timeoutCause(timeout)
	}
	return err
}

// watch makes the cancellation of ctx interrupt the exchange in flight.
// A virtual user passes the same context to every request, so it is
// watched once.
func (h *h1State) watch(ctx context.Context) {
	done := ctx.Done()
	if done == h.watchedDone {
		return
	}
	if h.unwatch != nil {
		h.unwatch()
	}
	h.watchedDone, h.unwatch = done, nil
	if done != nil {
		h.unwatch = context.AfterFunc(ctx, h.interruptFn)
	}
}
