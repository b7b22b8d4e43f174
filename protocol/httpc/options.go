package httpc

import (
	"fmt"
	"net"
	"time"
)

// Defaults for the zero values of Options.
const (
	DefaultTimeout          = 30 * time.Second
	DefaultMaxResponseBytes = 10 << 20 // 10 MiB
)

// Options configure a client made by New. The caller validates them; New
// only fills in defaults for zero values.
type Options struct {
	// Timeout bounds a whole exchange: connecting, sending, waiting and
	// reading the body. Zero means DefaultTimeout. Request.Timeout
	// overrides it per request.
	Timeout time.Duration

	// NoKeepAlive opens a new connection for every request and closes it
	// afterwards.
	NoKeepAlive bool

	// InsecureTLS skips verification of the server's certificate chain and
	// host name.
	InsecureTLS bool

	// Resolver resolves host names. Nil means net.DefaultResolver.
	Resolver *net.Resolver

	// LocalAddrs are the source addresses new connections are spread over,
	// round-robin per connection, to get more ephemeral ports than one
	// address offers. Nil lets the operating system choose.
	LocalAddrs []net.IP

	// HTTP2 says when the client speaks HTTP/2: by default when a TLS
	// server chooses it.
	HTTP2 HTTP2

	// HTTP3 sends the requests to https URLs over QUIC with HTTP/3
	// (quic-go), a connection of the user's own per target; the server
	// must offer HTTP/3 on the URL's port over UDP. Requests to http URLs
	// keep going over TCP.
	HTTP3 bool

	// MaxResponseBytes caps the body kept for a Request with KeepBody; the
	// rest is read and discarded, and Response.Truncated is set. Zero means
	// DefaultMaxResponseBytes.
	MaxResponseBytes int64
}

// withDefaults returns o with its zero values replaced by defaults.
func (o Options) withDefaults() Options {
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.MaxResponseBytes <= 0 {
		o.MaxResponseBytes = DefaultMaxResponseBytes
	}
	return o
}

// HTTP2 says when a client speaks HTTP/2.
type HTTP2 int

const (
	// HTTP2Auto speaks HTTP/2 with a TLS server that chooses it in the
	// handshake (ALPN), HTTP/1.1 otherwise and on http URLs.
	HTTP2Auto HTTP2 = iota
	// HTTP2Off speaks HTTP/1.1 only, over TLS too: the handshake offers
	// no HTTP/2.
	HTTP2Off
	// HTTP2PriorKnowledge speaks HTTP/2 on http URLs without an upgrade
	// (h2c, RFC 9113 section 3.3), and on https URLs: the server must
	// speak it.
	HTTP2PriorKnowledge
)

// ParseHTTP2 parses the http2 setting of a scenario file: true (the
// default, HTTP/2 when a TLS server offers it), false or prior-knowledge.
func ParseHTTP2(s string) (HTTP2, error) {
	switch s {
	case "true", "auto", "":
		return HTTP2Auto, nil
	case "false":
		return HTTP2Off, nil
	case "prior-knowledge":
		return HTTP2PriorKnowledge, nil
	}
	return 0, fmt.Errorf("http2 %q is not true, false or prior-knowledge", s)
}

func (h HTTP2) String() string {
	switch h {
	case HTTP2Off:
		return "false"
	case HTTP2PriorKnowledge:
		return "prior-knowledge"
	}
	return "true"
}
