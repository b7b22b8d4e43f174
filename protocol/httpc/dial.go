package httpc

import (
	"context"
	"crypto/tls"
	"net"
	"net/http/httptrace"
	"sync/atomic"
	"time"

	"github.com/surge-load/surge/internal/netdial"
)

// dialer opens the connections of one client: TCP from one of the local
// addresses in turn, TLS on top for https, each wrapped to count its bytes
// and recording its timing into the request it was opened for.
//
// net/http dials on a goroutine of its own with a context detached from the
// request's cancellation, so that an abandoned dial can still serve a later
// request. The dialer instead dials under the context of the request that
// asked for the connection: a dial ends with its request, so no connection
// attempt outlives the request that measured it, and none consumes ports
// and file descriptors unseen.
type dialer struct {
	epoch time.Time
	bytes *wireBytes
	tcp   []net.Dialer // one per local address
	tls   *tls.Config

	// adopt is a TLS connection the HTTP/1.1 client dialed and whose
	// handshake chose HTTP/2, waiting for net/http's next dial to take it.
	adopt atomic.Pointer[adoptee]
}

// An adoptee is a connection handed to net/http.
type adoptee struct {
	addr string
	conn *tls.Conn
	cc   *countingConn
}

func newDialer(opts Options, epoch time.Time, bytes *wireBytes) *dialer {
	d := &dialer{
		epoch: epoch,
		bytes: bytes,
		tls: &tls.Config{
			InsecureSkipVerify: opts.InsecureTLS,
			NextProtos:         []string{"h2", "http/1.1"},
		},
	}
	switch opts.HTTP2 {
	case HTTP2Off:
		d.tls.NextProtos = []string{"http/1.1"}
	case HTTP2PriorKnowledge:
		d.tls.NextProtos = []string{"h2"}
	}
	if len(opts.LocalAddrs) == 0 {
		d.tcp = []net.Dialer{{Resolver: opts.Resolver}}
	}
	for _, ip := range opts.LocalAddrs {
		d.tcp = append(d.tcp, net.Dialer{Resolver: opts.Resolver, LocalAddr: &net.TCPAddr{IP: ip}})
	}
	return d
}

// dialTCP is the http.Transport's DialContext: it opens plain connections.
func (d *dialer) dialTCP(ctx context.Context, network, addr string) (net.Conn, error) {
	conn, _, err := d.dial(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	return conn, nil
}

// dialTLS is the http.Transport's DialTLSContext: it opens connections for
// https and performs the TLS handshake, offering HTTP/2. net/http switches
// to HTTP/2 when the handshake negotiated it.
func (d *dialer) dialTLS(ctx context.Context, network, addr string) (net.Conn, error) {
	if a := d.adopt.Swap(nil); a != nil {
		if a.addr == addr {
			// Dialed for the request in flight: it made the connection.
			if rc, _ := ctx.Value(requestKey{}).(*requestCtx); rc != nil {
				a.cc.dial.owner = rc
				rc.lastDial.Store(a.cc.dial)
			}
			return a.conn, nil
		}
		a.conn.Close()
	}
	conn, ctx, err := d.dial(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		conn.Close()
		return nil, err
	}
	cfg := d.tls.Clone()
	cfg.ServerName = host
	tc := tls.Client(conn, cfg)
	conn.dial.tlsStart.Store(stamp(d.epoch))
	err = tc.HandshakeContext(ctx)
	conn.dial.tlsDone.Store(stamp(d.epoch))
	if err != nil {
		conn.Close()
		return nil, err
	}
	return tc, nil
}

// dial opens a counting TCP connection to addr. It returns the context the
// dial ran under, which further handshakes should use.
func (d *dialer) dial(ctx context.Context, network, addr string) (*countingConn, context.Context, error) {
	rec := &dialRecord{}
	if rc, _ := ctx.Value(requestKey{}).(*requestCtx); rc != nil {
		if err := rc.retrying(); err != nil {
			return nil, ctx, err
		}
		rec.owner = rc
		rc.lastDial.Store(rec)
		ctx = rc
	}
	conn, err := d.dialRecorded(ctx, network, addr, rec)
	return conn, ctx, err
}

// dialRecorded opens a counting TCP connection to addr, recording the
// stamps of its steps in rec.
func (d *dialer) dialRecorded(ctx context.Context, network, addr string, rec *dialRecord) (*countingConn, error) {
	ctx = httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{
		DNSStart: func(httptrace.DNSStartInfo) { rec.dnsStart.Store(stamp(d.epoch)) },
		DNSDone:  func(httptrace.DNSDoneInfo) { rec.dnsDone.Store(stamp(d.epoch)) },
		ConnectStart: func(string, string) {
			rec.connStart.CompareAndSwap(0, stamp(d.epoch))
		},
		ConnectDone: func(_, _ string, err error) {
			if err == nil {
				rec.connOK.Store(stamp(d.epoch))
			} else {
				rec.connFailed.Store(stamp(d.epoch))
			}
		},
	})
	conn, err := d.tcpDialer().DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	return &countingConn{Conn: conn, sock: newRawSocket(conn), bytes: d.bytes, dial: rec, epoch: d.epoch}, nil
}

// tcpDialer returns the dialer for the next connection: the local
// addresses take turns across all clients, of every protocol, so that the
// connections of all virtual users together spread over them even when each
// user opens only one.
func (d *dialer) tcpDialer() *net.Dialer {
	if len(d.tcp) == 1 {
		return &d.tcp[0]
	}
	return &d.tcp[netdial.NextLocal(len(d.tcp))]
}
