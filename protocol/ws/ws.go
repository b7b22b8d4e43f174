package ws

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"time"

	"github.com/coder/websocket"

	"github.com/surge-load/surge/errclass"
	"github.com/surge-load/surge/internal/netdial"
	"github.com/surge-load/surge/metrics"
)

// Defaults for the zero values of Options.
const (
	DefaultTimeout      = 30 * time.Second
	DefaultReadLimit    = 1 << 20 // 1 MiB
	DefaultCloseTimeout = 5 * time.Second
)

// Options configure a Client.
type Options struct {
	// Timeout bounds connecting and the handshake; zero means
	// DefaultTimeout.
	Timeout time.Duration
	// InsecureTLS skips verification of the server's certificate.
	InsecureTLS bool
	// Resolver resolves host names; nil means net.DefaultResolver.
	Resolver *net.Resolver
	// LocalAddrs are the source addresses connections are spread over,
	// round-robin. Nil lets the operating system choose.
	LocalAddrs []net.IP
	// ReadLimit bounds the size of a message received; zero means
	// DefaultReadLimit. A larger one fails the connection.
	ReadLimit int64
}

// A Client opens WebSocket connections. It is safe for concurrent use:
// all virtual users of a scenario share one.
type Client struct {
	opts Options
	dial *netdial.Dialer
	http *http.Client
}

// New returns a Client configured by opts.
func New(opts Options) *Client {
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.ReadLimit <= 0 {
		opts.ReadLimit = DefaultReadLimit
	}
	c := &Client{
		opts: opts,
		dial: netdial.HTTP1(opts.Resolver, opts.LocalAddrs, opts.InsecureTLS),
	}
	dial := func(secure bool) func(ctx context.Context, network, addr string) (net.Conn, error) {
		return func(ctx context.Context, network, addr string) (net.Conn, error) {
			conn, _ := ctx.Value(connKey{}).(*Conn)
			if conn == nil {
				return nil, errors.New("ws: dial outside Connect")
			}
			if conn.nc != nil {
				// net/http re-sending the handshake: one attempt is one
				// operation, so the first one's failure stands.
				return nil, errors.New("ws: the handshake's connection failed; surge does not re-send it")
			}
			nc, phase, err := c.dial.Dial(ctx, addr, secure, "", &conn.cnt, &conn.t)
			conn.phase, conn.nc = phase, nc
			return nc, err
		}
	}
	c.http = &http.Client{
		Transport: &http.Transport{
			Proxy:          nil,
			DialContext:    dial(false),
			DialTLSContext: dial(true),
			// Every handshake has a connection of its own, which the
			// WebSocket takes over; a refused one is closed.
			DisableKeepAlives:  true,
			DisableCompression: true,
			TLSClientConfig:    &tls.Config{InsecureSkipVerify: opts.InsecureTLS},
		},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	return c
}

// connKey is the context key under which Connect passes its Conn to the
// dialer.
type connKey struct{}

// A Recording says where the measurements of a connection go.
type Recording struct {
	// Shard receives them; nil measures nothing.
	Shard *metrics.Shard
	// Endpoint is the row of the handshake and the connection's stream.
	Endpoint metrics.EndpointID
	// Intended is when the load model meant the connection to start; the
	// handshake's latency counts from it. Zero means its actual start.
	Intended time.Time
}

// A Conn is one WebSocket connection of one virtual user. It is not safe
// for concurrent use.
type Conn struct {
	c     *Client
	ws    *websocket.Conn
	rec   Recording
	st    metrics.Stream
	cnt   netdial.Counter
	t     netdial.Timing
	phase errclass.Phase // how far the dial came, while dialing
	// nc is the connection under the WebSocket: read deadlines on it end
	// a wait without closing the WebSocket, as a cancelled context would.
	nc net.Conn

	handshakeIn, handshakeOut int64 // bytes of the handshake

	buf       []byte    // the last message received, reused
	lastSend  time.Time // when the last message was sent
	lastMsg   time.Time // when the last message was received
	received  int64
	ended     bool
	endErr    error // why the connection ended, if it failed
	endClass  errclass.Class
	closeCode int
}

// Connect opens a WebSocket connection to rawURL (ws, wss, http or https)
// with header, under ctx, and records the handshake. A failed handshake
// is recorded and returned as an error; the Conn is then nil.
func (c *Client) Connect(ctx context.Context, rawURL string, header http.Header, rec Recording) (*Conn, error) {
	conn := &Conn{c: c, rec: rec, phase: errclass.PhaseConnect}
	start := time.Now()
	conn.st = metrics.Stream{Endpoint: rec.Endpoint, Start: start}
	smp := metrics.Sample{Endpoint: rec.Endpoint, Intended: rec.Intended, Start: start}

	u, err := url.Parse(rawURL)
	if err == nil && u.Scheme != "ws" && u.Scheme != "wss" && u.Scheme != "http" && u.Scheme != "https" {
		err = fmt.Errorf("scheme must be ws, wss, http or https")
	}
	if err != nil {
		err = fmt.Errorf("WebSocket URL %q: %w", rawURL, err)
		smp.End, smp.Class, smp.Err = start, errclass.Other, err
		conn.record(&smp)
		conn.end(metrics.EndError, 0)
		return nil, err
	}

	hctx, cancel := context.WithTimeoutCause(context.WithValue(ctx, connKey{}, conn), c.opts.Timeout,
		fmt.Errorf("WebSocket handshake timed out after %v: %w", c.opts.Timeout, os.ErrDeadlineExceeded))
	defer cancel()
	ws, resp, err := dialAside(hctx, rawURL, &websocket.DialOptions{HTTPClient: c.http, HTTPHeader: header})
	smp.End = time.Now()
	smp.Timing = metrics.Timing{DNS: conn.t.DNS, Connect: conn.t.Connect, TLS: conn.t.TLS}
	smp.Timing.Wait = max(smp.End.Sub(start)-smp.Timing.DNS-smp.Timing.Connect-smp.Timing.TLS, 0)
	smp.BytesIn, smp.BytesOut = conn.cnt.In.Load(), conn.cnt.Out.Load()
	if resp != nil {
		smp.Status = resp.StatusCode
	}
	if err != nil {
		phase := errclass.PhaseRequest
		if conn.phase != errclass.PhaseUnknown {
			phase = conn.phase // the dial failed
		}
		if hctx.Err() != nil {
			err = fmt.Errorf("%w (%v)", context.Cause(hctx), err)
			if ctx.Err() != nil {
				err = context.Cause(ctx)
			}
		}
		switch {
		case resp != nil && resp.StatusCode != http.StatusSwitchingProtocols:
			smp.Class = errclass.FromStatus(resp.StatusCode)
			if smp.Class == errclass.None {
				smp.Class = errclass.Check
			}
			err = fmt.Errorf("WebSocket handshake: status %d", resp.StatusCode)
		default:
			smp.Class = errclass.Classify(err, phase)
			err = fmt.Errorf("WebSocket handshake: %w", err)
		}
		smp.Err = err
		conn.record(&smp)
		conn.end(metrics.StreamEndOf(smp.Class), 0)
		return nil, err
	}
	ws.SetReadLimit(c.opts.ReadLimit)
	conn.ws = ws
	conn.handshakeIn, conn.handshakeOut = smp.BytesIn, smp.BytesOut
	conn.record(&smp)
	conn.st.Opened = true
	conn.st.Connect = conn.t.DNS + conn.t.Connect + conn.t.TLS
	conn.st.Headers = smp.End.Sub(start)
	if rec.Shard != nil {
		rec.Shard.StreamOpened(&conn.st)
	}
	return conn, nil
}

// dialAside runs the handshake on a goroutine of its own that ends with
// it. The handshake goes deep through net/http, and a goroutine keeps the
// largest stack it ever needed for as long as it lives: done on the
// virtual user's goroutine, which then holds the connection, it would
// leave that goroutine with a stack of 8 or 16 KiB instead of 4.
func dialAside(ctx context.Context, rawURL string, opts *websocket.DialOptions) (*websocket.Conn, *http.Response, error) {
	type dialed struct {
		ws   *websocket.Conn
		resp *http.Response
		err  error
	}
	done := make(chan dialed, 1)
	go func() {
		ws, resp, err := websocket.Dial(ctx, rawURL, opts)
		done <- dialed{ws, resp, err}
	}()
	d := <-done
	return d.ws, d.resp, d.err
}

func (conn *Conn) record(smp *metrics.Sample) {
	if conn.rec.Shard != nil {
		conn.rec.Shard.Record(smp)
	}
}

// end records the end of the stream, once.
func (conn *Conn) end(how metrics.StreamEnd, code int) {
	if conn.ended {
		return
	}
	conn.ended = true
	conn.closeCode = code
	conn.st.End, conn.st.CloseCode = how, code
	if conn.st.Opened {
		conn.st.BytesIn = conn.cnt.In.Load() - conn.handshakeIn
		conn.st.BytesOut = conn.cnt.Out.Load() - conn.handshakeOut
	}
	if conn.rec.Shard != nil {
		conn.rec.Shard.StreamEnded(&conn.st)
	}
}

// fail ends the connection after err, classifying it, and returns the
// error to report.
func (conn *Conn) fail(ctx context.Context, err error) error {
	if conn.ended {
		return conn.endErr
	}
	code := int(websocket.CloseStatus(err))
	var class errclass.Class
	switch {
	case ctx.Err() != nil:
		err, class = context.Cause(ctx), errclass.Interrupted
	case code >= 0:
		class = errclass.Closed
		err = fmt.Errorf("the server closed the connection with code %d: %w", code, err)
	case errors.Is(err, io.EOF):
		class = errclass.Closed
	default:
		class = errclass.Classify(err, errclass.PhaseRequest)
	}
	conn.endErr, conn.endClass = err, class
	conn.end(metrics.StreamEndOf(class), max(code, 0))
	_ = conn.ws.CloseNow()
	return err
}

// Send sends msg as a text message.
func (conn *Conn) Send(ctx context.Context, msg []byte) error {
	if conn.ended {
		return conn.closedError()
	}
	conn.lastSend = time.Now()
	if err := conn.ws.Write(ctx, websocket.MessageText, msg); err != nil {
		return conn.fail(ctx, fmt.Errorf("sending: %w", err))
	}
	conn.st.Sent++
	return nil
}

// SendJSON sends v encoded as JSON in a text message.
func (conn *Conn) SendJSON(ctx context.Context, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode message: %w", err)
	}
	return conn.Send(ctx, b)
}

// closedError is the error of an operation on an ended connection.
func (conn *Conn) closedError() error {
	if conn.endErr != nil {
		return fmt.Errorf("connection already ended: %w", conn.endErr)
	}
	return errors.New("connection already closed")
}

// read receives the next message into conn.buf and records it.
func (conn *Conn) read(ctx context.Context) error {
	_, r, err := conn.ws.Reader(ctx)
	if err == nil {
		conn.buf = conn.buf[:0]
		for {
			if len(conn.buf) == cap(conn.buf) {
				conn.buf = append(conn.buf, 0)[:len(conn.buf)]
			}
			n, rerr := r.Read(conn.buf[len(conn.buf):cap(conn.buf)])
			conn.buf = conn.buf[:len(conn.buf)+n]
			if rerr == io.EOF {
				break
			}
			if rerr != nil {
				err = rerr
				break
			}
		}
	}
	if err != nil {
		return err
	}
	now := time.Now()
	ev := metrics.StreamEvent{At: now, First: conn.received == 0}
	if ev.First {
		ev.Since = now.Sub(conn.st.Start)
	} else {
		ev.Since = now.Sub(conn.lastMsg)
	}
	conn.lastMsg = now
	conn.received++
	if conn.rec.Shard != nil {
		conn.rec.Shard.StreamEvent(conn.rec.Endpoint, &ev)
	}
	return nil
}

// Await says which message to wait for.
type Await struct {
	// Match reports whether msg is the awaited message; nil accepts any.
	// msg is valid only during the call.
	Match func(msg []byte) bool
	// Timeout bounds the wait; zero means no bound beyond ctx. A wait
	// that times out fails, and the connection stays open.
	Timeout time.Duration
	// Record makes the wait an operation of Endpoint: the round trip from
	// the last message sent (or from the start of the wait, if none was
	// sent since the last wait) to the matching message, or a failure of
	// class timeout, closed or reset.
	Record   bool
	Endpoint metrics.EndpointID
}

// ErrAwaitTimeout is the failure of an Await whose timeout passed.
var ErrAwaitTimeout = errors.New("no matching message within the timeout")

// Await receives messages until one matches, and returns it; the slice is
// valid until the next call on conn. Every message received counts as an
// event of the connection's stream, matching or not.
func (conn *Conn) Await(ctx context.Context, a Await) ([]byte, error) {
	start := time.Now()
	from := conn.lastSend
	if from.IsZero() {
		from = start
	}
	conn.lastSend = time.Time{}
	msg, class, err := conn.await(ctx, a)
	if a.Record && conn.rec.Shard != nil {
		smp := metrics.Sample{Endpoint: a.Endpoint, Start: from, End: time.Now(), Class: class, Err: err}
		smp.Timing.Wait = smp.End.Sub(smp.Start)
		conn.rec.Shard.Record(&smp)
	}
	return msg, err
}

func (conn *Conn) await(ctx context.Context, a Await) ([]byte, errclass.Class, error) {
	if conn.ended {
		return nil, errclass.Closed, conn.closedError()
	}
	var deadline time.Time
	if a.Timeout > 0 {
		deadline = time.Now().Add(a.Timeout)
	}
	match := a.Match
	if match == nil {
		match = anyMessage
	}
	timedOut, err := conn.readUntil(ctx, deadline, match)
	switch {
	case err == nil:
		return conn.buf, errclass.None, nil
	case timedOut:
		return nil, errclass.Timeout, fmt.Errorf("awaiting a message: %w after %v", ErrAwaitTimeout, a.Timeout)
	}
	err = conn.fail(ctx, fmt.Errorf("awaiting a message: %w", err))
	return nil, conn.endClass, err
}

func anyMessage([]byte) bool { return true }
func noMessage([]byte) bool  { return false }

// readUntil receives messages, counting them, until match accepts one
// (left in conn.buf) or a read fails; timedOut says the failure is the
// deadline passing (zero: none), with ctx still live.
func (conn *Conn) readUntil(ctx context.Context, deadline time.Time, match func([]byte) bool) (timedOut bool, err error) {
	if !deadline.IsZero() {
		_ = conn.nc.SetReadDeadline(deadline)
		defer conn.nc.SetReadDeadline(time.Time{})
	}
	for {
		err := conn.read(ctx)
		if err == nil {
			if match(conn.buf) {
				return false, nil
			}
			continue
		}
		return !deadline.IsZero() && errors.Is(err, os.ErrDeadlineExceeded) && ctx.Err() == nil && !time.Now().Before(deadline), err
	}
}

// Hold keeps the connection open for d, receiving and counting messages.
// It returns early, with the error, if the connection ends.
func (conn *Conn) Hold(ctx context.Context, d time.Duration) error {
	if conn.ended {
		return conn.closedError()
	}
	if timedOut, err := conn.readUntil(ctx, time.Now().Add(d), noMessage); !timedOut {
		return conn.fail(ctx, fmt.Errorf("holding: %w", err))
	}
	return nil
}

// Close closes the connection with code and reason and records its end:
// held to plan. Closing an ended connection does nothing.
func (conn *Conn) Close(code websocket.StatusCode, reason string) error {
	if conn.ended {
		return nil
	}
	conn.end(metrics.EndHeld, int(code))
	err := conn.ws.Close(code, reason)
	if err != nil && !errors.Is(err, net.ErrClosed) {
		return fmt.Errorf("closing: %w", err)
	}
	return nil
}

// Ended reports whether the connection has ended, and why if it failed.
func (conn *Conn) Ended() (bool, error) { return conn.ended, conn.endErr }

// Received counts the messages received so far.
func (conn *Conn) Received() int64 { return conn.received }
