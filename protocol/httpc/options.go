package httpc

import (
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
