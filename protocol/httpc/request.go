package httpc

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// A Request describes one HTTP request of a plan step. It is built once and
// used for many exchanges, by many virtual users at once: Do only reads it.
// Call Prepare before sharing it, and do not modify it afterwards.
type Request struct {
	Method string      // "" means GET
	URL    string      // absolute http or https URL
	Header http.Header // sent as is; a "Host" entry overrides the URL's host
	Body   []byte      // sent with a Content-Length; nil for none

	// KeepBody keeps the response body in Response.Body, up to
	// Options.MaxResponseBytes, for checks and captures. Otherwise the body
	// is read and discarded: it is always read to the end, so that the
	// timing includes it and the connection can be reused.
	KeepBody bool

	// NoHeader leaves Response.Header nil, which saves building it.
	NoHeader bool

	// Timeout overrides Options.Timeout for this request when not zero.
	Timeout time.Duration

	// What Prepare worked out of the URL.
	prep *target
}

// A target is where a request goes, worked out of its URL.
type target struct {
	from       string   // the URL this was worked out from
	url        *url.URL // parsed
	key        string   // scheme://host:port: the connections that can serve it
	addr       string   // host:port to dial
	serverName string   // for TLS
	host       string   // the Host header, unless the request sets one
	uri        string   // the request target of the request line
	secure     bool
	// auth is the Authorization header the URL's user info asks for
	// ("Basic …"), as a browser and net/http's Client send it; "" without
	// user info. A request's own Authorization header wins.
	auth string
}

// A Response is what Do returns of an HTTP response. On a failure it holds
// as much as had arrived: the zero Response if no status line did.
type Response struct {
	Status int         // HTTP status code; 0 if none arrived
	Proto  string      // "HTTP/1.1" or "HTTP/2.0"
	Header http.Header // response header; nil if none arrived, or with Request.NoHeader
	// Interim counts the informational (1xx) responses before the final
	// one, such as 100 Continue or 103 Early Hints.
	Interim int

	// Body is the response body when the Request had KeepBody, nil
	// otherwise. Truncated reports that the body was longer than
	// Options.MaxResponseBytes and Body holds only its beginning.
	Body      []byte
	Truncated bool

	snippet []byte // the start of an error response's body, for StatusError
}

// Prepare checks r and parses its URL once, so that Do need not parse it on
// every call. A Request that was not prepared still works; Do then parses
// its URL each time.
func (r *Request) Prepare() error {
	t, err := newTarget(r.URL)
	if err != nil {
		return err
	}
	r.prep = t
	return nil
}

// target returns where r goes, working it out if Prepare has not, or if
// URL changed since. It never writes to r, which other users may be
// reading.
func (r *Request) target() (*target, error) {
	if r.prep != nil && r.prep.from == r.URL {
		return r.prep, nil
	}
	return newTarget(r.URL)
}

func newTarget(s string) (*target, error) {
	u, err := url.Parse(s)
	if err != nil {
		if ue, ok := errors.AsType[*url.Error](err); ok {
			err = ue.Err
		}
		return nil, urlErrorf(s, ": %v", err)
	}
	port := u.Port()
	switch u.Scheme {
	case "http":
		if port == "" {
			port = "80"
		}
	case "https":
		if port == "" {
			port = "443"
		}
	default:
		return nil, urlErrorf(s, ": scheme must be http or https")
	}
	if u.Host == "" || u.Hostname() == "" {
		return nil, urlErrorf(s, ": no host")
	}
	if strings.ContainsAny(u.Host, "\r\n\x00 ") {
		return nil, urlErrorf(s, ": the host holds a space, line break or NUL")
	}
	if err := checkURL(s, u); err != nil {
		return nil, err
	}
	addr := net.JoinHostPort(u.Hostname(), port)
	var auth string
	if u.User != nil {
		pass, _ := u.User.Password()
		auth = "Basic " + base64.StdEncoding.EncodeToString([]byte(u.User.Username()+":"+pass))
	}
	return &target{
		from:       s,
		url:        u,
		key:        u.Scheme + "://" + addr,
		addr:       addr,
		serverName: u.Hostname(),
		host:       u.Host,
		uri:        u.RequestURI(),
		secure:     u.Scheme == "https",
		auth:       auth,
	}, nil
}

// noHeader stands in for a nil Request.Header: net/http rejects nil.
var noHeader = http.Header{}

// httpRequest builds the net/http request for one exchange of r.
func (r *Request) httpRequest(ctx context.Context, u *url.URL, auth string) *http.Request {
	h := r.Header
	if h == nil {
		h = noHeader
	}
	if auth != "" && h.Get("Authorization") == "" {
		h = h.Clone()
		h.Set("Authorization", auth)
	}
	hr := &http.Request{
		Method: r.Method,
		URL:    u,
		Header: h,
		Host:   u.Host,
	}
	if host := h["Host"]; len(host) > 0 {
		hr.Host = host[0]
	}
	if hr.Method == "" {
		hr.Method = http.MethodGet
	}
	if len(r.Body) > 0 {
		// A fresh reader per exchange: the transport may still be writing
		// the body of one exchange after its response arrived.
		body := r.Body
		hr.Body = io.NopCloser(bytes.NewReader(body))
		hr.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
		hr.ContentLength = int64(len(body))
	}
	return hr.WithContext(ctx)
}
