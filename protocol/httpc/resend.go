package httpc

import (
	"fmt"
	"io"
)

// net/http re-sends a request by itself when a reused connection fails: an
// idempotent one (GET, HEAD, OPTIONS, or with an Idempotency-Key) after it
// was written, HTTP/2 ones after a GOAWAY or REFUSED_STREAM. The sample
// would then span two requests on the wire. surge never re-sends: every
// attempt that reached the wire is one operation, so a second connection
// for a request that was already sent is refused, the dial with an error
// and a connection from the pool by failing its writes, and net/http
// returns the failure of the first attempt (a NotResentError).
//
// A retry of a request of which nothing reached the wire (its write
// failed at once) is let through: that is still one attempt.

// A NotResentError is the failure of a request whose connection failed
// after the request was sent, which net/http would have re-sent. Err is
// what the connection's read failed with, or io.ErrUnexpectedEOF; it
// decides the class (errclass.Closed for a connection the server closed).
type NotResentError struct {
	Err error
}

func (e *NotResentError) Error() string {
	return fmt.Sprintf("the connection failed after the request was sent; surge does not re-send: %v", e.Err)
}

func (e *NotResentError) Unwrap() error { return e.Err }

// retrying returns the error to fail a retry of rc's request with, if a
// connection it already got carried it; nil if this is its first
// connection or nothing of it reached the wire.
func (rc *requestCtx) retrying() error {
	if rc == nil {
		return nil
	}
	cc := rc.conn.Load()
	if cc == nil || cc.lastSent.Load() < rc.connAt.Load() {
		return nil
	}
	cause := cc.readFailure()
	if cause == nil || cause == io.EOF {
		cause = io.ErrUnexpectedEOF
	}
	return &NotResentError{Err: cause}
}
