package httpc

import (
	"context"
	"net/http/httptrace"
	"net/textproto"
	"reflect"
	"sync/atomic"
	"time"

	"github.com/surge-load/surge/errclass"
	"github.com/surge-load/surge/metrics"
)

// Instants of an exchange are stamps: nanoseconds since the client's epoch,
// read from the monotonic clock. Zero means "has not happened". They are
// atomic because net/http calls trace hooks from its own goroutines.

// An exchange is the tracing state of one Do call. Its httptrace hooks are
// bound to it once, so tracing a request allocates nothing.
//
// net/http may call a hook after RoundTrip returned: the request write can
// finish after the response arrived, and a failed exchange can leave a
// dial or a read behind. So an exchange is reused for the next request
// only once no hook can fire for it any more (see quiet); otherwise it is
// dropped and a new one made, and a late hook writes into an exchange no
// one reads.
type exchange struct {
	epoch time.Time
	hooks httptrace.ClientTrace // the hooks, bound to this exchange

	// traced is parent with the hooks added; kept while the caller passes
	// the same parent.
	parent context.Context
	traced context.Context

	// cur is the request in flight. Written before the request starts,
	// read by hooks while it runs.
	cur *requestCtx

	gotConn   atomic.Int64 // the request got a connection
	wrote     atomic.Int64 // the request was written
	firstByte atomic.Int64 // the first byte of the final response arrived
	interims  atomic.Int32 // informational (1xx) responses before the final one
	interim   int          // interims, read once the exchange is over

	// conn is the connection the request got. connDial is the dial that
	// made it, if this request made it: a connection dialed earlier, or
	// for another request, has no dial time in this one.
	conn     atomic.Pointer[countingConn]
	connDial atomic.Pointer[dialRecord]
}

// A requestCtx is the context of one request: the caller's context with
// the request's deadline. Dials find it among the context values net/http
// passes them; they dial under it, so that a dial ends with its request,
// and they report into it, never into a later request.
type requestCtx struct {
	context.Context
	lastDial atomic.Pointer[dialRecord] // the latest dial started for the request

	// The connection the request got, and the stamp of when it got it:
	// a second connection for the same request is net/http retrying it.
	conn   atomic.Pointer[countingConn]
	connAt atomic.Int64
}

// Value returns the requestCtx itself for requestKey, so dials find it.
func (rc *requestCtx) Value(key any) any {
	if key == (requestKey{}) {
		return rc
	}
	return rc.Context.Value(key)
}

// A dialRecord holds the stamps of one dial: resolving the host, the TCP
// handshake (from the first attempt to the successful one, or to the last
// failure) and the TLS handshake.
type dialRecord struct {
	owner             *requestCtx // nil if the dial was not made for a request
	dnsStart, dnsDone atomic.Int64
	connStart, connOK atomic.Int64
	connFailed        atomic.Int64
	tlsStart, tlsDone atomic.Int64
}

// requestKey is the context key of a requestCtx.
type requestKey struct{}

func newExchange(epoch time.Time) *exchange {
	ex := &exchange{epoch: epoch}
	ex.hooks = httptrace.ClientTrace{
		GotConn:              ex.gotConnHook,
		WroteRequest:         ex.wroteRequestHook,
		GotFirstResponseByte: ex.firstByteHook,
		Got1xxResponse:       ex.got1xxHook,
	}
	return ex
}

// now returns the current stamp.
func (ex *exchange) now() int64 { return stamp(ex.epoch) }

func stamp(epoch time.Time) int64 { return max(1, int64(time.Since(epoch))) }

// reset readies a quiet exchange for the next request.
func (ex *exchange) reset() {
	ex.cur = nil
	ex.gotConn.Store(0)
	ex.wrote.Store(0)
	ex.firstByte.Store(0)
	ex.interims.Store(0)
	ex.interim = 0
	ex.conn.Store(nil)
	ex.connDial.Store(nil)
}

// quiet reports whether no hook can fire for the exchange any more. After
// a successful RoundTrip net/http retries nothing, so once the connection,
// the write and the first byte have been reported, nothing is left to
// report. (Dials report into the requestCtx, not the exchange.)
func (ex *exchange) quiet() bool {
	return ex.gotConn.Load() != 0 && ex.wrote.Load() != 0 && ex.firstByte.Load() != 0
}

// withContext returns parent with the exchange's hooks added. It is kept
// for the next call with the same parent, the common case: a virtual user
// passes the same context to every request.
func (ex *exchange) withContext(parent context.Context) context.Context {
	if ex.traced != nil && parent == ex.parent {
		return ex.traced
	}
	// WithClientTrace merges the hooks already in parent into the trace it
	// is given, so give it a copy.
	hooks := new(httptrace.ClientTrace)
	*hooks = ex.hooks
	ctx := httptrace.WithClientTrace(parent, hooks)
	// Only a comparable parent can be cached: comparing the next parent
	// with an uncomparable one of the same type would panic.
	ex.parent, ex.traced = nil, nil
	if reflect.TypeOf(parent).Comparable() {
		ex.parent, ex.traced = parent, ctx
	}
	return ctx
}

func (ex *exchange) gotConnHook(info httptrace.GotConnInfo) {
	cc := asCountingConn(info.Conn)
	if err := ex.cur.retrying(); err != nil && cc != nil {
		// The request went out on another connection already: make this
		// one fail its write, so that net/http gives up.
		cc.refuse(err)
		return
	}
	if cc != nil {
		ex.cur.conn.Store(cc)
		ex.cur.connAt.Store(ex.now())
	}
	var own *dialRecord
	if cc != nil && cc.dial.owner == ex.cur {
		own = cc.dial
	}
	ex.conn.Store(cc)
	ex.connDial.Store(own)
	ex.gotConn.Store(ex.now())
}

func (ex *exchange) wroteRequestHook(httptrace.WroteRequestInfo) { ex.wrote.Store(ex.now()) }

func (ex *exchange) firstByteHook() { ex.firstByte.Store(ex.now()) }

// got1xxHook counts an informational response. GotFirstResponseByte
// fired for its first byte; the wait lasts until the final response, so
// the stamp is dropped, and set when net/http has read the final head
// (finalHead).
func (ex *exchange) got1xxHook(int, textproto.MIMEHeader) error {
	ex.interims.Add(1)
	ex.firstByte.Store(0)
	return nil
}

// finalHead notes that the final response's head has been read: if an
// informational response came first, its arrival ends the wait.
func (ex *exchange) finalHead() {
	ex.interim = int(ex.interims.Load())
	ex.firstByte.CompareAndSwap(0, ex.now())
}

// lastDial returns the latest dial of the request in flight, if any.
func (ex *exchange) lastDial() *dialRecord {
	if ex.cur == nil {
		return nil
	}
	return ex.cur.lastDial.Load()
}

// phase returns how far the exchange has come, for errclass.Classify.
func (ex *exchange) phase() errclass.Phase {
	if ex.gotConn.Load() != 0 {
		return errclass.PhaseRequest
	}
	if d := ex.lastDial(); d != nil {
		switch {
		case d.tlsStart.Load() != 0:
			return errclass.PhaseTLS
		case d.connStart.Load() != 0:
			return errclass.PhaseConnect
		case d.dnsStart.Load() != 0:
			return errclass.PhaseDNS
		}
	}
	// Waiting for a connection, before any dial reported progress.
	return errclass.PhaseConnect
}

// stage names what the exchange was doing in phase, for error messages.
func (ex *exchange) stage(phase errclass.Phase) string {
	switch phase {
	case errclass.PhaseDNS:
		return "resolving host"
	case errclass.PhaseConnect:
		return "connecting"
	case errclass.PhaseTLS:
		return "TLS handshake"
	case errclass.PhaseRequest:
		switch {
		case ex.wrote.Load() == 0:
			return "sending request"
		case ex.firstByte.Load() == 0:
			return "awaiting response"
		}
		return "reading response"
	}
	return "preparing request"
}

// timing splits the exchange from stamp start to stamp end into phases
// that add up to end-start. Instants that did not happen collapse onto the
// next one that did, or onto end: a request that failed while waiting has
// Receive zero, one that failed while connecting has Send, Wait and
// Receive zero.
func (ex *exchange) timing(start, end int64) metrics.Timing {
	conn := clamp(orElse(ex.gotConn.Load(), end), start, end)
	first := ex.firstByte.Load()
	wrote := ex.wrote.Load()
	if first != 0 && (wrote == 0 || wrote > first) {
		// The response came before the write was reported. Either the
		// server answered before it read the whole request, or the
		// writing goroutine was descheduled between writing and
		// reporting (HTTP/2 reports from a goroutine of its own). Sending
		// ended by the start of the last write, which is stamped before
		// it happens and cannot be late.
		wrote = first
		if cc := ex.conn.Load(); cc != nil {
			if w := cc.lastWrite.Load(); w >= conn && w <= first {
				wrote = w
			}
		}
	}
	wrote = clamp(orElse(wrote, end), conn, end)
	first = clamp(orElse(first, end), wrote, end)

	var t metrics.Timing
	d := ex.connDial.Load()
	if ex.gotConn.Load() == 0 {
		d = ex.lastDial() // failed before it had a connection
	}
	if d != nil {
		t.DNS = span(d.dnsStart.Load(), d.dnsDone.Load(), start, conn)
		t.Connect = span(d.connStart.Load(), orElse(d.connOK.Load(), d.connFailed.Load()), start, conn)
		t.TLS = span(d.tlsStart.Load(), d.tlsDone.Load(), start, conn)
	}
	t.Blocked = max(0, time.Duration(conn-start)-t.DNS-t.Connect-t.TLS)
	t.Send = time.Duration(wrote - conn)
	t.Wait = time.Duration(first - wrote)
	t.Receive = time.Duration(end - first)
	return t
}

// span returns the duration from stamp a to stamp b, both clamped to
// [lo, hi]; an unfinished span (b zero) lasts until hi. Zero if a is zero.
func span(a, b, lo, hi int64) time.Duration {
	if a == 0 {
		return 0
	}
	a = clamp(a, lo, hi)
	b = clamp(orElse(b, hi), a, hi)
	return time.Duration(b - a)
}

func clamp(v, lo, hi int64) int64 { return min(max(v, lo), hi) }

func orElse(v, alt int64) int64 {
	if v == 0 {
		return alt
	}
	return v
}
