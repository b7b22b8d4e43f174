package httpc

import (
	"context"
	"crypto/tls"
	"errors"
	"os"
	"syscall"
	"time"
)

// checkIdleAfter is how long a connection must have been idle before it
// is checked for a close by the server: servers close idle connections
// after seconds, and the check costs a system call, which a closed loop
// that reuses its connection at once should not pay per request.
const checkIdleAfter = time.Millisecond

// idle returns the open connection to key if it is still usable, and
// closes it if it is not: the server may have closed it while it was
// idle, which a background reader would have seen. Using it would fail a
// request the server never saw.
func (h *h1State) idle(key string, now int64) *h1conn {
	for _, hc := range h.conns {
		if hc.key != key {
			continue
		}
		if now-hc.idleSince < int64(checkIdleAfter) || h.alive(hc) {
			return hc
		}
		h.drop(hc)
		return nil
	}
	return nil
}

// alive peeks at an idle connection's socket without blocking: nothing to
// read means it is open; the end of the stream means the server closed
// it; bytes on a plain connection are a response no one asked for. On a
// TLS connection bytes can be a session ticket: they are read, briefly,
// through TLS.
func (h *h1State) alive(hc *h1conn) bool {
	if hc.raw == nil {
		return true
	}
	h.peekN, h.peekErr = 0, nil
	if err := hc.raw.Read(h.peekFn); err != nil {
		return false
	}
	switch {
	case h.peekErr == syscall.EAGAIN:
		return true
	case h.peekErr != nil || h.peekN == 0:
		return false
	case !hc.tls:
		return false
	}
	_ = hc.conn.SetReadDeadline(time.Now().Add(time.Millisecond))
	n, err := hc.conn.Read(h.peekBuf[:])
	return n == 0 && errors.Is(err, os.ErrDeadlineExceeded)
}

// drop closes a connection and forgets it.
func (h *h1State) drop(hc *h1conn) {
	hc.conn.Close()
	for i, o := range h.conns {
		if o == hc {
			h.conns = append(h.conns[:i], h.conns[i+1:]...)
			break
		}
	}
}

// closeAll closes every connection.
func (h *h1State) closeAll() {
	for _, hc := range h.conns {
		hc.conn.Close()
	}
	h.conns = h.conns[:0]
	if h.unwatch != nil {
		h.unwatch()
		h.watchedDone, h.unwatch = nil, nil
	}
}

// dial opens a connection to t for the exchange in flight, recording its
// steps in h.rc. An https connection whose handshake chose HTTP/2 is
// handed to net/http (errHTTP2), which serves t from then on.
func (h *h1State) dial(ctx context.Context, t *target, deadline time.Time, timeout time.Duration) (*h1conn, error) {
	c := h.c
	dctx, cancel := context.WithDeadlineCause(ctx, deadline, c.timeoutCause(timeout))
	defer cancel()
	rec := &dialRecord{owner: &h.rc}
	h.rc.lastDial.Store(rec)
	cc, err := c.d.dialRecorded(dctx, "tcp", t.addr, rec)
	if err != nil {
		return nil, contextCause(dctx, err)
	}
	hc := &h1conn{key: t.key, conn: cc, cc: cc, dial: rec}
	if sc, ok := cc.Conn.(syscall.Conn); ok {
		hc.raw, _ = sc.SyscallConn()
	}
	if t.secure {
		cfg := c.d.tls.Clone()
		cfg.ServerName = t.serverName
		tc := tls.Client(cc, cfg)
		rec.tlsStart.Store(stamp(c.epoch))
		err := tc.HandshakeContext(dctx)
		rec.tlsDone.Store(stamp(c.epoch))
		if err != nil {
			cc.Close()
			return nil, contextCause(dctx, err)
		}
		if tc.ConnectionState().NegotiatedProtocol == "h2" {
			h.h2[t.key] = true
			c.d.adopt.Store(&adoptee{addr: t.addr, conn: tc, cc: cc})
			return nil, errHTTP2
		}
		hc.conn, hc.tls = tc, true
	}
	h.conns = append(h.conns, hc)
	return hc, nil
}
