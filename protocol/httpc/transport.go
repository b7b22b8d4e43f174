package httpc

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/surge-load/surge/errclass"
	"github.com/surge-load/surge/metrics"
)

// A Transport performs HTTP exchanges and measures each into a Sample. It is
// the seam between the load model and the HTTP implementation: New returns
// one built on net/http, and a lean HTTP/1.1 fast path may replace it, with
// the same timing and error semantics (see the package documentation).
//
// A Transport belongs to one virtual user: it is not safe for concurrent
// use, one Do at a time.
type Transport interface {
	// Do performs one exchange of req under ctx and returns the response.
	// It fills in s's Start, End, Timing, Status, Class, Err, BytesIn and
	// BytesOut; it leaves Endpoint and Intended, which are the caller's.
	// The exchange ends when the response body has been read in full or
	// when it failed; failures are reported in s, never returned. If ctx
	// is canceled with a cause (context.WithCancelCause), the cause is
	// classified: errclass.ErrInterrupted makes errclass.Interrupted.
	Do(ctx context.Context, req *Request, s *metrics.Sample) Response

	// Warm opens the connection req would use, if it has none yet, without
	// sending anything, so that a first request does not pay for it. It
	// reports nothing: a failure is met again, and measured, by the next
	// Do. Only HTTP/1.1 connections are opened ahead.
	Warm(ctx context.Context, req *Request)

	// Close closes the idle connections. The Transport remains usable.
	Close()
}

// client is the Transport of one virtual user. HTTP/1.1 exchanges run on
// its own lean implementation (h1.go), on the calling goroutine; HTTP/2,
// for https hosts whose TLS handshake chose it, runs on net/http, which it
// owns, so a virtual user has connections of its own, as a real client
// would.
type client struct {
	opts  Options
	epoch time.Time // origin of the stamps
	d     *dialer
	http  *http.Transport
	bytes wireBytes

	// Owned by the goroutine calling Do.
	seenIn, seenOut int64                  // wire bytes charged to samples so far
	spare           *exchange              // tracing state, reused while quiet
	timeoutErr      *errclass.TimeoutError // cause of the last timeout used, reused
	h1              h1State
	h3              *h3State // Options.HTTP3; nil otherwise
	netHTTPOnly     bool     // every exchange on net/http (tests and benchmarks)
}

// New returns a Transport for one virtual user. Connections are kept alive
// unless opts.NoKeepAlive. http URLs, and https ones whose TLS handshake
// settles on HTTP/1.1, are served by a lean HTTP/1.1 client; https hosts
// that choose HTTP/2 by net/http. Responses are not decompressed, so the
// bytes measured are the bytes that were sent.
func New(opts Options) Transport { return newClient(opts) }

// newNetHTTP returns a Transport that serves every exchange with net/http,
// HTTP/1.1 too: the reference the lean client is compared with.
func newNetHTTP(opts Options) Transport {
	c := newClient(opts)
	c.netHTTPOnly = true
	return c
}

func newClient(opts Options) *client {
	opts = opts.withDefaults()
	c := &client{opts: opts, epoch: time.Now()}
	c.d = newDialer(opts, c.epoch, &c.bytes)
	c.http = &http.Transport{
		Proxy:              nil, // straight to the target, whatever the environment says
		DialContext:        c.d.dialTCP,
		DialTLSContext:     c.d.dialTLS,
		ForceAttemptHTTP2:  true,
		DisableKeepAlives:  opts.NoKeepAlive,
		DisableCompression: true,
		// One request at a time needs one idle connection per host.
		MaxIdleConnsPerHost: 1,
		IdleConnTimeout:     90 * time.Second,
	}
	switch opts.HTTP2 {
	case HTTP2Off:
		c.http.Protocols = new(http.Protocols)
		c.http.Protocols.SetHTTP1(true)
	case HTTP2PriorKnowledge:
		// Without HTTP1, net/http speaks HTTP/2 to http URLs with prior
		// knowledge.
		c.http.Protocols = new(http.Protocols)
		c.http.Protocols.SetHTTP2(true)
		c.http.Protocols.SetUnencryptedHTTP2(true)
		c.netHTTPOnly = true
	}
	if opts.HTTP3 {
		c.h3 = newH3(c)
	}
	c.h1.init(c)
	return c
}

func (c *client) Warm(ctx context.Context, req *Request) {
	t, err := req.target()
	if err != nil || c.netHTTPOnly || c.h1.h2[t.key] || (c.h3 != nil && t.secure) || c.h1.idle(t.key, stamp(c.epoch)) != nil {
		return
	}
	timeout := req.Timeout
	if timeout <= 0 {
		timeout = c.opts.Timeout
	}
	c.h1.rc.lastDial.Store(nil)
	if hc, err := c.h1.dial(ctx, t, time.Now().Add(timeout), timeout); err == nil {
		hc.dial = nil // not this request's: the first Do finds it open
		hc.idleSince = stamp(c.epoch)
		c.h1.buffers() // nor are the first exchange's allocations
	}
}

func (c *client) Close() {
	if a := c.d.adopt.Swap(nil); a != nil {
		a.conn.Close() // dialed ahead for net/http, never taken
	}
	c.h1.closeAll()
	c.http.CloseIdleConnections()
	if c.h3 != nil {
		c.h3.closeAll()
	}
}

func (c *client) Do(ctx context.Context, req *Request, s *metrics.Sample) Response {
	s.Start = time.Now()
	t, err := req.target()
	if err != nil {
		s.End = s.Start
		s.Timing = metrics.Timing{}
		s.BytesIn, s.BytesOut = c.charge()
		s.Status, s.Class = 0, errclass.Classify(err, errclass.PhaseUnknown)
		s.Err = fmt.Errorf("preparing request: %w", err)
		return Response{}
	}
	if !c.netHTTPOnly && !c.h1.h2[t.key] && (c.h3 == nil || !t.secure) {
		return c.h1.do(ctx, req, t, s)
	}
	return c.viaNetHTTP(ctx, req, t, s)
}

// viaNetHTTP performs the exchange on net/http, from s.Start.
func (c *client) viaNetHTTP(ctx context.Context, req *Request, t *target, s *metrics.Sample) Response {
	ex := c.spare
	c.spare = nil
	if ex == nil {
		ex = newExchange(c.epoch)
	} else {
		ex.reset()
	}
	resp, phase, err := c.roundTrip(ctx, req, t, ex, s)
	s.Timing = ex.timing(int64(s.Start.Sub(c.epoch)), int64(s.End.Sub(c.epoch)))
	resp = c.finish(s, resp, ex, phase, err)
	if ex.quiet() {
		c.spare = ex
	}
	return resp
}

// finish fills in the rest of s from the outcome of an exchange: bytes,
// status, class and error.
func (c *client) finish(s *metrics.Sample, resp Response, ex *exchange, phase errclass.Phase, err error) Response {
	s.BytesIn, s.BytesOut = c.charge()
	s.Status, s.Interim = resp.Status, resp.Interim
	s.Proto = ""
	if resp.Status != 0 {
		s.Proto = resp.Proto
	}
	if err != nil {
		s.Class = errclass.Classify(err, phase)
		s.Err = fmt.Errorf("%s: %w", ex.stage(phase), err)
		return resp
	}
	s.Class, s.Err = errclass.FromStatus(resp.Status), nil
	if s.Class != errclass.None {
		body := resp.Body
		if body == nil {
			body = resp.snippet
		}
		s.Err = newStatusError(resp.Status, body)
		resp.snippet = nil
	}
	return resp
}

// charge returns the wire bytes in and out since the last call.
func (c *client) charge() (in, out int64) {
	return charge(&c.seenIn, c.bytes.In.Load()), charge(&c.seenOut, c.bytes.Out.Load())
}

// roundTrip performs the exchange and sets s.End when it is over. On
// failure it returns the phase the exchange was in.
func (c *client) roundTrip(ctx context.Context, req *Request, t *target, ex *exchange, s *metrics.Sample) (Response, errclass.Phase, error) {
	timeout := req.Timeout
	if timeout <= 0 {
		timeout = c.opts.Timeout
	}
	tctx, cancel := context.WithDeadlineCause(ex.withContext(ctx), s.Start.Add(timeout), c.timeoutCause(timeout))
	defer cancel()
	rc := &requestCtx{Context: tctx}
	ex.cur = rc

	var out Response
	rt := http.RoundTripper(c.http)
	if c.h3 != nil && t.secure {
		rt = c.h3
	}
	hr, err := rt.RoundTrip(req.httpRequest(rc, t.url, t.auth))
	if err != nil {
		s.End = time.Now()
		return out, ex.phase(), contextCause(rc, err)
	}
	ex.finalHead()
	out.Status, out.Proto, out.Header = hr.StatusCode, hr.Proto, hr.Header
	out.Interim = ex.interim
	if req.NoHeader {
		out.Header = nil
	}
	switch {
	case req.KeepBody:
		out.Body, out.Truncated, err = readBody(hr.Body, hr.ContentLength, c.opts.MaxResponseBytes)
	case hr.StatusCode >= 400: // keep the start of the body: it says why
		out.snippet, _, err = readBody(hr.Body, -1, snippetBytes)
	default:
		err = drain(hr.Body)
	}
	hr.Body.Close()
	s.End = time.Now()
	if err != nil {
		return out, errclass.PhaseRequest, contextCause(rc, err)
	}
	return out, errclass.PhaseUnknown, nil
}

// charge returns the bytes counted since *seen and advances *seen. A write
// that failed after its exchange was over takes back bytes it had counted;
// the count then drops below *seen, and the next exchanges are charged
// nothing until it is back above.
func charge(seen *int64, count int64) int64 {
	if count <= *seen {
		return 0
	}
	d := count - *seen
	*seen = count
	return d
}

// timeoutCause returns the cancellation cause for a timeout of d, reusing
// the last one when d is the same.
func (c *client) timeoutCause(d time.Duration) error {
	if c.timeoutErr == nil || c.timeoutErr.After != d {
		c.timeoutErr = &errclass.TimeoutError{After: d}
	}
	return c.timeoutErr
}
