// Package netdial opens the connections of surge's long-lived protocol
// clients (server-sent events, WebSocket): TCP from the configured source
// addresses in turn, TLS on top for secure URLs, with the name lookup,
// TCP handshake and TLS handshake timed separately and the bytes counted
// on the wire, below TLS.
//
// It mirrors the dialing of protocol/httpc: a dial runs under the context
// of the operation it serves, source addresses are taken round-robin per
// connection across all clients, and failures are reported with the
// errclass.Phase they happened in so that errclass.Classify tells a
// connect timeout from a response timeout.
package netdial

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"net/netip"
	"sync/atomic"
	"time"

	"github.com/surge-load/surge/errclass"
)

// Options configure a Dialer.
type Options struct {
	// Resolver resolves host names; nil means net.DefaultResolver.
	Resolver *net.Resolver
	// LocalAddrs are the source addresses connections are spread over,
	// one after the other, to get more ephemeral ports than one address
	// offers. Nil lets the operating system choose.
	LocalAddrs []net.IP
	// InsecureTLS skips verification of the server's certificate.
	InsecureTLS bool
	// NextProtos are the ALPN protocols offered in the TLS handshake.
	NextProtos []string
}

// A Dialer opens connections. It is safe for concurrent use and meant to
// be shared by all virtual users of a protocol client.
type Dialer struct {
	resolver *net.Resolver
	tcp      []net.Dialer // one per source address
	tls      *tls.Config
}

// nextLocal picks the source address of the next connection; it is shared
// by all dialers so that the connections of all users together take turns.
var nextLocal atomic.Uint32

// NextLocal returns which of n source addresses the next connection of any
// of surge's clients (HTTP, SSE, WebSocket) is to come from, so that all
// their connections together take turns over the addresses.
func NextLocal(n int) int { return int((nextLocal.Add(1) - 1) % uint32(n)) }

// New returns a Dialer configured by o.
func New(o Options) *Dialer {
	d := &Dialer{
		resolver: o.Resolver,
		tls:      &tls.Config{InsecureSkipVerify: o.InsecureTLS, NextProtos: o.NextProtos},
	}
	if d.resolver == nil {
		d.resolver = net.DefaultResolver
	}
	if len(o.LocalAddrs) == 0 {
		d.tcp = []net.Dialer{{}}
	}
	for _, ip := range o.LocalAddrs {
		d.tcp = append(d.tcp, net.Dialer{LocalAddr: &net.TCPAddr{IP: ip}})
	}
	return d
}

// HTTP1 returns a Dialer for a client that speaks HTTP/1.1 only (server-sent
// events, WebSocket): its TLS handshakes offer http/1.1 alone.
func HTTP1(resolver *net.Resolver, localAddrs []net.IP, insecureTLS bool) *Dialer {
	return New(Options{Resolver: resolver, LocalAddrs: localAddrs, InsecureTLS: insecureTLS, NextProtos: []string{"http/1.1"}})
}

// Timing is how long the steps of a dial took; a step that did not happen
// (no lookup for an IP address, no TLS for plain TCP) is zero.
type Timing struct {
	DNS, Connect, TLS time.Duration
}

// Counter counts the bytes that crossed the connections it was given to.
// Its methods are the counting rule of every counting connection (this
// package's, httpc's TCP and UDP ones, grpcc's): Received after a read;
// Sending before a write and Sent after it.
type Counter struct {
	In, Out atomic.Int64
}

// Received counts n bytes read.
func (c *Counter) Received(n int) { c.In.Add(int64(n)) }

// Sending counts size bytes about to be written. Counting after the write
// would be too late: the peer can receive the bytes and answer, and the
// answer be read and the exchange be over, before the writing goroutine
// returns from Write.
func (c *Counter) Sending(size int) { c.Out.Add(int64(size)) }

// Sent takes back what was not written of the size bytes counted by
// Sending, of which n were written.
func (c *Counter) Sent(size, n int) {
	if n < size {
		c.Out.Add(int64(n - size))
	}
}

// Counting returns conn counting what is read and written on it in n.
func Counting(conn net.Conn, n *Counter) net.Conn { return &countingConn{Conn: conn, n: n} }

// countingConn counts what is read and written on a TCP connection. It
// embeds the net.Conn interface, not *net.TCPConn, so that io.Copy cannot
// bypass the counting through ReadFrom or WriteTo.
type countingConn struct {
	net.Conn
	n *Counter
}

func (c *countingConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.n.Received(n)
	return n, err
}

func (c *countingConn) Write(p []byte) (int, error) {
	c.n.Sending(len(p))
	n, err := c.Conn.Write(p)
	c.n.Sent(len(p), n)
	return n, err
}

// Dial connects to addr ("host:port") under ctx, over TLS if secure, with
// serverName as the TLS server name (the host if empty). Bytes crossing
// the connection are counted in cnt; the duration of each step is written
// to t. On failure it returns the phase the dial was in, for
// errclass.Classify, and an error that says what failed.
func (d *Dialer) Dial(ctx context.Context, addr string, secure bool, serverName string, cnt *Counter, t *Timing) (net.Conn, errclass.Phase, error) {
	*t = Timing{}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, errclass.PhaseUnknown, fmt.Errorf("address %q: %w", addr, err)
	}
	tcp := d.next()
	var conn net.Conn
	if _, perr := netip.ParseAddr(host); perr == nil {
		start := time.Now()
		conn, err = tcp.DialContext(ctx, "tcp", addr)
		t.Connect = time.Since(start)
	} else {
		start := time.Now()
		ips, lerr := d.resolver.LookupNetIP(ctx, "ip", host)
		t.DNS = time.Since(start)
		if lerr != nil {
			return nil, errclass.PhaseDNS, fmt.Errorf("resolving %s: %w", host, lerr)
		}
		start = time.Now()
		for _, ip := range ips {
			conn, err = tcp.DialContext(ctx, "tcp", net.JoinHostPort(ip.Unmap().String(), port))
			if err == nil {
				break
			}
		}
		t.Connect = time.Since(start)
	}
	if err != nil {
		return nil, errclass.PhaseConnect, fmt.Errorf("connecting to %s: %w", addr, err)
	}
	cc := &countingConn{Conn: conn, n: cnt}
	if !secure {
		return cc, errclass.PhaseUnknown, nil
	}
	cfg := d.tls.Clone()
	cfg.ServerName = serverName
	if cfg.ServerName == "" {
		cfg.ServerName = host
	}
	tc := tls.Client(cc, cfg)
	start := time.Now()
	err = tc.HandshakeContext(ctx)
	t.TLS = time.Since(start)
	if err != nil {
		cc.Close()
		return nil, errclass.PhaseTLS, fmt.Errorf("TLS handshake with %s: %w", addr, err)
	}
	return tc, errclass.PhaseUnknown, nil
}

// next returns the TCP dialer of the next connection.
func (d *Dialer) next() *net.Dialer {
	if len(d.tcp) == 1 {
		return &d.tcp[0]
	}
	return &d.tcp[NextLocal(len(d.tcp))]
}
