package httpc

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
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

	// Close closes the idle connections. The Transport remains usable.
	Close()
}

// client is the Transport built on net/http. It owns its http.Transport,
// so a virtual user has connections of its own, as a real client would.
type client struct {
	opts  Options
	epoch time.Time // origin of the stamps
	http  *http.Transport
	bytes wireBytes

	// Owned by the goroutine calling Do.
	seenIn, seenOut int64                  // wire bytes charged to samples so far
	spare           *exchange              // tracing state, reused while quiet
	timeoutErr      *errclass.TimeoutError // cause of the last timeout used, reused
}

// New returns a Transport built on net/http and net/http/httptrace, for one
// virtual user. Connections are kept alive unless opts.NoKeepAlive, and
// HTTP/2 is used when a TLS server offers it. Responses are not
// decompressed, so the bytes measured are the bytes that were sent.
func New(opts Options) Transport {
	opts = opts.withDefaults()
	c := &client{opts: opts, epoch: time.Now()}
	d := newDialer(opts, c.epoch, &c.bytes)
	c.http = &http.Transport{
		Proxy:              nil, // straight to the target, whatever the environment says
		DialContext:        d.dialTCP,
		DialTLSContext:     d.dialTLS,
		ForceAttemptHTTP2:  true,
		DisableKeepAlives:  opts.NoKeepAlive,
		DisableCompression: true,
		// One request at a time needs one idle connection per host.
		MaxIdleConnsPerHost: 1,
		IdleConnTimeout:     90 * time.Second,
	}
	return c
}

func (c *client) Close() { c.http.CloseIdleConnections() }

func (c *client) Do(ctx context.Context, req *Request, s *metrics.Sample) Response {
	ex := c.spare
	c.spare = nil
	if ex == nil {
		ex = newExchange(c.epoch)
	} else {
		ex.reset()
	}

	s.Start = time.Now()
	var (
		resp  Response
		phase errclass.Phase
	)
	u, err := req.target()
	if err == nil {
		resp, phase, err = c.roundTrip(ctx, req, u, ex, s)
	} else {
		s.End = time.Now()
	}

	s.Timing = ex.timing(int64(s.Start.Sub(c.epoch)), int64(s.End.Sub(c.epoch)))
	s.BytesIn, s.BytesOut = charge(&c.seenIn, c.bytes.in.Load()), charge(&c.seenOut, c.bytes.out.Load())
	s.Status = resp.Status
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
	if ex.quiet() {
		c.spare = ex
	}
	return resp
}

// roundTrip performs the exchange and sets s.End when it is over. On
// failure it returns the phase the exchange was in.
func (c *client) roundTrip(ctx context.Context, req *Request, u *url.URL, ex *exchange, s *metrics.Sample) (Response, errclass.Phase, error) {
	timeout := req.Timeout
	if timeout <= 0 {
		timeout = c.opts.Timeout
	}
	tctx, cancel := context.WithDeadlineCause(ex.withContext(ctx), s.Start.Add(timeout), c.timeoutCause(timeout))
	defer cancel()
	rc := &requestCtx{Context: tctx}
	ex.cur = rc

	var out Response
	hr, err := c.http.RoundTrip(req.httpRequest(rc, u))
	if err != nil {
		s.End = time.Now()
		return out, ex.phase(), contextCause(rc, err)
	}
	out.Status, out.Proto, out.Header = hr.StatusCode, hr.Proto, hr.Header
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
