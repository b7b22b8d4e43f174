package httpc

import (
	"context"
	"errors"
	"net"
)

// contextCause returns why ctx ended if err is a consequence of it, and err
// otherwise. Once the request context is done, the transports report the
// cancellation as its cause (net/http's HTTP/1 transport, HTTP/3), as
// context.Canceled or context.DeadlineExceeded (HTTP/2, and net's
// "operation was canceled", which is context.Canceled), or as a net.Error
// timeout of a dial or read that was cut short. The cause is what says why:
// the timeout, or the run being interrupted (errclass.ErrInterrupted).
//
// net/http's unexported "request canceled" error comes only from
// Request.Cancel and Transport.CancelRequest, which this package never
// uses; an error that merely reads like it is left as it is.
func contextCause(ctx context.Context, err error) error {
	if ctx.Err() == nil {
		return err
	}
	cause := context.Cause(ctx)
	if errors.Is(err, cause) {
		return err
	}
	var netErr net.Error
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) ||
		(errors.As(err, &netErr) && netErr.Timeout()) {
		return cause
	}
	return err
}
