package sse

import (
	"errors"
	"fmt"
	"maps"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/surge-load/surge/protocol/http1"
)

// A Request describes one subscription: the HTTP request that opens the
// stream, when to end it, whether to reconnect, and what to measure. It is
// built once and used by many virtual users at once: Subscribe only reads
// it. Call Prepare before sharing it, and do not modify it afterwards.
//
// A subscription ends at the first of: Hold passing, Events events
// received, Until returning true, the server closing the stream (unless
// Reconnect), a failure (unless Reconnect), and the end of the context.
// With none of the first three set it lasts until the server closes it or
// the run stops, and the server closing it is its planned end.
type Request struct {
	Method string      // "" means GET
	URL    string      // absolute http or https URL
	Header http.Header // sent as is, after the defaults it overrides
	Body   []byte      // sent with a Content-Length; nil for none

	// Hold is how long to keep the subscription, counted from its start
	// and across reconnections; zero means no limit.
	Hold time.Duration
	// Events ends the subscription after this many events; zero means no
	// limit.
	Events int64
	// OnEvent, if not nil, is called with every event, on the goroutine
	// that called Subscribe, for instance to capture from it; then Until,
	// if not nil, whose true ends the subscription as planned. The event
	// is valid only during the calls.
	OnEvent func(ev *Event)
	Until   func(ev *Event) bool

	// Timeout overrides Options.Timeout when not zero.
	Timeout time.Duration
	// IdleTimeout ends a stream that receives no bytes at all (events or
	// keep-alive comments) for this long, as a timeout; zero means none.
	IdleTimeout time.Duration

	// LastEventID, if not empty, is sent as Last-Event-ID on the first
	// connection, to resume a stream read earlier.
	LastEventID string
	// Reconnect reconnects, as an EventSource does, after the server
	// closed the stream or the connection failed: after the server's
	// "retry" time, or Retry until it sets one, with Last-Event-ID set to
	// the last event ID received. An HTTP error status or a response that
	// is not an event stream is not retried. MaxReconnects bounds the
	// reconnections; zero means no limit.
	Reconnect     bool
	MaxReconnects int
	// Retry is the reconnection time until the server sets one; zero
	// means DefaultRetry.
	Retry time.Duration

	// SentAt, if not nil, reads the time an event was sent from its data,
	// to measure the delivery delay; see JSONTime.
	SentAt func(data []byte) (time.Time, bool)

	// prep is what Prepare worked out, and the URL it was worked out from.
	prep *prepared
}

// prepared is a Request made ready for the wire.
type prepared struct {
	from       string // the Request.URL this was prepared from
	addr       string // host:port to dial
	serverName string // for TLS
	secure     bool
	// head is the request line and headers, without Last-Event-ID and the
	// blank line that ends them.
	head        []byte
	lastEventID string // from a Last-Event-ID in Header
}

// Prepare checks r and works out its wire form once, so that Subscribe
// need not do it on every call. A Request that was not prepared still
// works; Subscribe then prepares a copy each time.
func (r *Request) Prepare() error {
	p, err := r.prepare()
	if err != nil {
		return err
	}
	r.prep = p
	return nil
}

// prepared returns the wire form of r, working it out if Prepare has not
// or the URL changed since. It never writes to r.
func (r *Request) prepared() (*prepared, error) {
	if r.prep != nil && r.prep.from == r.URL {
		return r.prep, nil
	}
	return r.prepare()
}

// defaultHeaders are sent unless the Request's Header has them.
var defaultHeaders = [][2]string{
	{"User-Agent", "surge"},
	{"Accept", "text/event-stream"},
	{"Cache-Control", "no-cache"},
}

func (r *Request) prepare() (*prepared, error) {
	u, err := url.Parse(r.URL)
	if err != nil {
		return nil, fmt.Errorf("subscription URL: %w", err)
	}
	p := &prepared{from: r.URL}
	port := u.Port()
	switch u.Scheme {
	case "http":
		port = orDefault(port, "80")
	case "https":
		port, p.secure = orDefault(port, "443"), true
	default:
		return nil, fmt.Errorf("subscription URL %q: scheme must be http or https", r.URL)
	}
	if u.Hostname() == "" {
		return nil, fmt.Errorf("subscription URL %q: no host", r.URL)
	}
	p.addr = net.JoinHostPort(u.Hostname(), port)
	p.serverName = u.Hostname()

	method := r.Method
	if method == "" {
		method = http.MethodGet
	}
	if !http1.ValidToken(method) {
		return nil, fmt.Errorf("%q is not an HTTP method", method)
	}
	host := u.Host
	given := map[string]bool{}
	for name, vs := range r.Header {
		canon := http.CanonicalHeaderKey(name)
		given[canon] = true
		if canon == "Host" && len(vs) > 0 {
			host = vs[0]
		}
	}
	if strings.ContainsAny(host, "\r\n\x00") {
		return nil, errors.New("the Host header holds a line break or NUL")
	}
	b := fmt.Appendf(nil, "%s %s HTTP/1.1\r\nHost: %s\r\n", method, u.RequestURI(), host)
	for _, kv := range defaultHeaders {
		if !given[kv[0]] {
			b = fmt.Appendf(b, "%s: %s\r\n", kv[0], kv[1])
		}
	}
	for _, name := range slices.Sorted(maps.Keys(r.Header)) {
		canon := http.CanonicalHeaderKey(name)
		if !http1.ValidToken(name) {
			return nil, fmt.Errorf("%q is not a header name", name)
		}
		for _, v := range r.Header[name] {
			if strings.ContainsAny(v, "\r\n\x00") {
				return nil, fmt.Errorf("header %s: the value holds a line break or NUL", canon)
			}
			switch canon {
			case "Host", "Content-Length", "Transfer-Encoding", "Connection":
				continue // the client sets them
			case "Last-Event-Id":
				p.lastEventID = v
				continue
			}
			b = fmt.Appendf(b, "%s: %s\r\n", canon, v)
		}
	}
	if strings.ContainsAny(r.LastEventID, "\r\n\x00") {
		return nil, errors.New("LastEventID holds a line break or NUL")
	}
	if len(r.Body) > 0 || method == http.MethodPost || method == http.MethodPut || method == http.MethodPatch {
		b = append(b, "Content-Length: "...)
		b = strconv.AppendInt(b, int64(len(r.Body)), 10)
		b = append(b, "\r\n"...)
	}
	p.head = b
	return p, nil
}

func orDefault(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
