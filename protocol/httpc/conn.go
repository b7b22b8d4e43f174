package httpc

import (
	"crypto/tls"
	"net"
	"sync/atomic"
	"time"

	"github.com/surge-load/surge/internal/netdial"
)

// wireBytes counts the bytes read from and written to all connections of a
// client. The HTTP/1 transport reads and writes on goroutines of its own,
// so the counts are atomic.
type wireBytes = netdial.Counter

// countingConn is a dialed TCP connection that counts the bytes crossing
// it. It sits below TLS, so the counts are what was on the wire.
//
// It embeds the net.Conn interface, not *net.TCPConn, on purpose: that
// hides ReadFrom and WriteTo, which would let io.Copy bypass the counting.
type countingConn struct {
	net.Conn
	sock  *rawSocket // the TCP socket under Conn, read and written raw; nil for others
	bytes *wireBytes
	dial  *dialRecord // how the connection was opened
	epoch time.Time   // origin of lastWrite

	// lastWrite is the stamp of the start of the latest Write. A stamp
	// taken before the write cannot come late; see exchange.timing.
	lastWrite atomic.Int64
	// lastSent is the stamp of the start of the latest Write that put
	// bytes on the wire.
	lastSent atomic.Int64

	failure atomic.Pointer[error] // the first failed read, if any
	refused atomic.Pointer[error] // set: every further write fails with it
}

func (c *countingConn) Read(p []byte) (int, error) {
	var n int
	var err error
	if c.sock != nil {
		n, err = c.sock.read(p)
	} else {
		n, err = c.Conn.Read(p)
	}
	c.bytes.Received(n)
	if err != nil {
		c.readFailed(err)
	}
	return n, err
}

// readFailed notes the first failed read. A function of its own, so that
// err is moved to the heap only when there is one.
func (c *countingConn) readFailed(err error) { c.failure.CompareAndSwap(nil, &err) }

// readFailure returns the error of the first failed read, or nil.
func (c *countingConn) readFailure() error {
	if p := c.failure.Load(); p != nil {
		return *p
	}
	return nil
}

// refuse makes every further write fail with err without writing: the
// connection can no longer carry a request.
func (c *countingConn) refuse(err error) { c.refused.CompareAndSwap(nil, &err) }

// Write counts p before writing it, and takes back what was not written
// (netdial.Counter's rule: counted afterwards, the request could be
// missing from the exchange's count). Only a failed write takes bytes
// back, which can land in a later exchange's count (see client.Do).
func (c *countingConn) Write(p []byte) (int, error) {
	if e := c.refused.Load(); e != nil {
		return 0, *e
	}
	now := stamp(c.epoch)
	c.lastWrite.Store(now)
	c.bytes.Sending(len(p))
	var n int
	var err error
	if c.sock != nil {
		n, err = c.sock.write(p)
	} else {
		n, err = c.Conn.Write(p)
	}
	c.bytes.Sent(len(p), n)
	if n > 0 {
		c.lastSent.Store(now)
	}
	return n, err
}

// asCountingConn returns the countingConn under c, which is one or a
// *tls.Conn over one; nil for any other connection.
func asCountingConn(c net.Conn) *countingConn {
	if tc, ok := c.(*tls.Conn); ok {
		c = tc.NetConn()
	}
	cc, _ := c.(*countingConn)
	return cc
}
