package httpc

import (
	"context"
	"crypto/tls"
	"errors"
	"net"
	"net/http"
	"net/http/httptrace"
	"time"

	"github.com/quic-go/quic-go"
	"github.com/quic-go/quic-go/http3"
)

// h3State is the HTTP/3 client of one virtual user (Options.HTTP3): a QUIC
// connection of its own per https target, over a UDP socket of its own
// whose datagrams count as the wire bytes. Requests go straight to the
// connection's http3.ClientConn, never through http3.Transport's retry of
// rejected requests: one attempt on the wire is one exchange.
//
// QUIC has no TCP connect: the UDP socket is the connect step (about
// nothing), and the QUIC handshake, which is the TLS 1.3 handshake, the
// TLS step.
type h3State struct {
	c     *client
	tr    *http3.Transport // its settings, for NewClientConn
	conns map[string]*h3conn
}

type h3conn struct {
	pc     net.PacketConn
	qt     *quic.Transport
	q      *quic.Conn
	cc     *http3.ClientConn
	marker *countingConn // carries the dial record to the exchange
}

func newH3(c *client) *h3State {
	return &h3State{c: c, tr: &http3.Transport{}, conns: map[string]*h3conn{}}
}

// RoundTrip implements http.RoundTripper for roundTrip: req's context is
// the requestCtx of the exchange, with its trace.
func (h *h3State) RoundTrip(req *http.Request) (*http.Response, error) {
	key := req.URL.Host
	if req.URL.Port() == "" {
		key = net.JoinHostPort(req.URL.Hostname(), "443")
	}
	hc := h.conns[key]
	if hc != nil && hc.q.Context().Err() != nil {
		hc.close()
		delete(h.conns, key)
		hc = nil
	}
	if hc == nil {
		var err error
		if hc, err = h.dial(req.Context(), req.URL.Hostname(), key); err != nil {
			return nil, err
		}
		h.conns[key] = hc
	}
	if trace := httptrace.ContextClientTrace(req.Context()); trace != nil && trace.GotConn != nil {
		trace.GotConn(httptrace.GotConnInfo{Conn: hc.marker, Reused: hc.marker.dial.owner != requestOf(req.Context())})
	}
	// The request's write starts now: when quic-go reports it written
	// only after the response's first byte, the send ends here (see
	// exchange.timing), not at the first byte, which left no wait.
	hc.marker.lastWrite.Store(stamp(hc.marker.epoch))
	resp, err := hc.cc.RoundTrip(req)
	if err != nil && hc.q.Context().Err() != nil {
		hc.close()
		delete(h.conns, key)
	}
	return resp, err
}

func requestOf(ctx context.Context) *requestCtx {
	rc, _ := ctx.Value(requestKey{}).(*requestCtx)
	return rc
}

// dial opens a QUIC connection to addr, recording its steps for the
// request of ctx.
func (h *h3State) dial(ctx context.Context, serverName, addr string) (*h3conn, error) {
	c := h.c
	rec := &dialRecord{owner: requestOf(ctx)}
	if rec.owner != nil {
		rec.owner.lastDial.Store(rec)
	}
	rec.dnsStart.Store(stamp(c.epoch))
	ua, err := resolveUDP(ctx, c.opts.Resolver, addr)
	rec.dnsDone.Store(stamp(c.epoch))
	if err != nil {
		return nil, err
	}
	rec.connStart.Store(stamp(c.epoch))
	udp, err := net.ListenUDP("udp", nil)
	if err != nil {
		rec.connFailed.Store(stamp(c.epoch))
		return nil, err
	}
	rec.connOK.Store(stamp(c.epoch))
	pc := &countingPacketConn{udp: udp, bytes: &c.bytes}
	qt := &quic.Transport{Conn: pc}
	cfg := c.d.tls.Clone()
	cfg.ServerName = serverName
	cfg.NextProtos = []string{http3.NextProtoH3}
	rec.tlsStart.Store(stamp(c.epoch))
	q, err := qt.Dial(ctx, ua, cfg, &quic.Config{})
	rec.tlsDone.Store(stamp(c.epoch))
	if err != nil {
		_ = qt.Close()
		_ = udp.Close()
		var te *tls.CertificateVerificationError
		if errors.As(err, &te) {
			return nil, te
		}
		return nil, err
	}
	return &h3conn{pc: pc, qt: qt, q: q, cc: h.tr.NewClientConn(q), marker: &countingConn{bytes: &c.bytes, dial: rec, epoch: c.epoch}}, nil
}

func resolveUDP(ctx context.Context, r *net.Resolver, addr string) (*net.UDPAddr, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	if r == nil {
		r = net.DefaultResolver
	}
	ips, err := r.LookupNetIP(ctx, "ip", host)
	if err != nil {
		return nil, err
	}
	p, err := net.LookupPort("udp", port)
	if err != nil {
		return nil, err
	}
	return &net.UDPAddr{IP: ips[0].AsSlice(), Port: p}, nil
}

func (hc *h3conn) close() {
	_ = hc.q.CloseWithError(0, "")
	_ = hc.qt.Close()
	_ = hc.pc.Close()
}

// closeAll closes every connection.
func (h *h3State) closeAll() {
	for k, hc := range h.conns {
		hc.close()
		delete(h.conns, k)
	}
}

// countingPacketConn counts the bytes of the datagrams of a UDP socket. It
// has only the methods of a net.PacketConn (and the buffer sizes), so that
// quic-go reads and writes through ReadFrom and WriteTo, which count,
// rather than through the *net.UDPConn's batch methods.
type countingPacketConn struct {
	udp   *net.UDPConn
	bytes *wireBytes
}

func (c *countingPacketConn) LocalAddr() net.Addr                { return c.udp.LocalAddr() }
func (c *countingPacketConn) Close() error                       { return c.udp.Close() }
func (c *countingPacketConn) SetDeadline(t time.Time) error      { return c.udp.SetDeadline(t) }
func (c *countingPacketConn) SetReadDeadline(t time.Time) error  { return c.udp.SetReadDeadline(t) }
func (c *countingPacketConn) SetWriteDeadline(t time.Time) error { return c.udp.SetWriteDeadline(t) }
func (c *countingPacketConn) SetReadBuffer(n int) error          { return c.udp.SetReadBuffer(n) }
func (c *countingPacketConn) SetWriteBuffer(n int) error         { return c.udp.SetWriteBuffer(n) }

func (c *countingPacketConn) ReadFrom(p []byte) (int, net.Addr, error) {
	n, a, err := c.udp.ReadFrom(p)
	c.bytes.Received(n)
	return n, a, err
}

func (c *countingPacketConn) WriteTo(p []byte, addr net.Addr) (int, error) {
	c.bytes.Sending(len(p))
	n, err := c.udp.WriteTo(p, addr)
	c.bytes.Sent(len(p), n)
	return n, err
}
