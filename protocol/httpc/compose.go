package httpc

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/surge-load/surge/protocol/http1"
)

// compose writes the request head into h.out and returns it, with the
// body appended when it fits, and the body left to write after it. It
// reports whether the connection may serve another request afterwards.
// The head is what net/http would send, but for the User-Agent (surge,
// unless the request sets one): the request line, Host, the request's
// headers, Authorization from the URL's user info unless the request
// sets one, Content-Length for a body (and for POST, PUT and PATCH
// without one), and Connection: close without keep-alive.
func (h *h1State) compose(req *Request, t *target, method string) (head, rest []byte, keepAlive bool, err error) {
	if !http1.ValidToken(method) {
		return nil, nil, false, fmt.Errorf("%q is not an HTTP method", method)
	}
	keepAlive = !h.c.opts.NoKeepAlive
	host := t.host
	for k, vs := range req.Header {
		if len(vs) > 0 && equalFold(k, "Host") {
			host = vs[0]
		}
	}
	if !http1.ValidValue(host) {
		return nil, nil, false, fmt.Errorf("header Host: the value holds a line break or NUL")
	}
	b := append(h.out[:0], method...)
	b = append(b, ' ')
	b = append(b, t.uri...)
	b = append(b, " HTTP/1.1\r\nHost: "...)
	b = append(b, host...)
	b = append(b, "\r\n"...)
	agent, conn, auth := false, false, false
	for k, vs := range req.Header {
		switch {
		case equalFold(k, "Authorization"):
			auth = true
		case equalFold(k, "Host"), equalFold(k, "Content-Length"), equalFold(k, "Transfer-Encoding"):
			continue // the client sets them
		case equalFold(k, "User-Agent"):
			agent = true
		case equalFold(k, "Connection"):
			conn = true
			for _, v := range vs {
				if hasToken(v, "close") {
					keepAlive = false
				}
			}
		}
		if !http1.ValidToken(k) {
			return nil, nil, false, fmt.Errorf("%q is not a header name", k)
		}
		for _, v := range vs {
			if !http1.ValidValue(v) {
				return nil, nil, false, fmt.Errorf("header %s: the value holds a line break or NUL", k)
			}
			b = append(b, k...)
			b = append(b, ": "...)
			b = append(b, v...)
			b = append(b, "\r\n"...)
		}
	}
	if !agent {
		b = append(b, "User-Agent: surge\r\n"...)
	}
	if !auth && t.auth != "" {
		b = append(b, "Authorization: "...)
		b = append(b, t.auth...)
		b = append(b, "\r\n"...)
	}
	if len(req.Body) > 0 || method == http.MethodPost || method == http.MethodPut || method == http.MethodPatch {
		b = append(b, "Content-Length: "...)
		b = strconv.AppendInt(b, int64(len(req.Body)), 10)
		b = append(b, "\r\n"...)
	}
	if !keepAlive && !conn {
		b = append(b, "Connection: close\r\n"...)
	}
	b = append(b, "\r\n"...)
	rest = req.Body
	if len(b)+len(rest) <= keptBufferBytes {
		b, rest = append(b, rest...), nil
	}
	if cap(b) <= keptBufferBytes {
		h.out = b[:0]
	}
	return b, rest, keepAlive, nil
}

// equalFold reports whether header name k is name, ignoring case; name
// is canonical.
func equalFold(k, name string) bool {
	return len(k) == len(name) && (k == name || strings.EqualFold(k, name))
}

// hasToken reports whether the comma-separated list v holds token,
// ignoring case.
func hasToken(v, token string) bool {
	for part := range strings.SplitSeq(v, ",") {
		if strings.EqualFold(strings.TrimSpace(part), token) {
			return true
		}
	}
	return false
}
