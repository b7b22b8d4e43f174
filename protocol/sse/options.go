package sse

import (
	"net"
	"time"
)

// Defaults for the zero values of Options and Request.
const (
	// DefaultTimeout bounds connecting and waiting for the response
	// headers.
	DefaultTimeout = 30 * time.Second
	// DefaultBufferBytes is the read buffer of an open stream: the main
	// part of a stream's memory.
	DefaultBufferBytes = 2048
	// DefaultRetry is the reconnection time until the server sets one
	// with a "retry" field.
	DefaultRetry = 3 * time.Second

	minBufferBytes = 256
	maxHeaderBytes = 64 << 10 // the longest response header read
)

// Options configure a Client.
type Options struct {
	// Timeout bounds connecting, sending the request and receiving the
	// response headers; zero means DefaultTimeout. Request.Timeout
	// overrides it.
	Timeout time.Duration
	// InsecureTLS skips verification of the server's certificate.
	InsecureTLS bool
	// Resolver resolves host names; nil means net.DefaultResolver.
	Resolver *net.Resolver
	// LocalAddrs are the source addresses new connections are spread over,
	// round-robin, to get more ephemeral ports than one address offers
	// (see httpc.ParseLocalAddrs). Nil lets the operating system choose.
	LocalAddrs []net.IP
	// BufferBytes is the size of the read buffer of each open stream;
	// zero means DefaultBufferBytes. Response headers longer than it are
	// read into a temporary larger buffer.
	BufferBytes int
	// MaxEventBytes bounds a line and an event's data; zero means
	// DefaultMaxEventBytes. A longer one ends the stream with EndError.
	MaxEventBytes int
}

func (o Options) withDefaults() Options {
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.BufferBytes <= 0 {
		o.BufferBytes = DefaultBufferBytes
	}
	o.BufferBytes = max(o.BufferBytes, minBufferBytes)
	if o.MaxEventBytes <= 0 {
		o.MaxEventBytes = DefaultMaxEventBytes
	}
	return o
}
