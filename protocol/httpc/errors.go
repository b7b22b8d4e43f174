package httpc

import (
	"context"
	"errors"
	"net"
	"strings"
)

// contextCause returns why ctx ended if err is a consequence of it, and err
// otherwise. Once the request context is done, net/http reports the
// cancellation in several ways: as its cause, as context.Canceled or
// context.DeadlineExceeded (HTTP/2), as "request canceled", or as the
// error of a dial or read that was cut short. The cause is what says why:
// the timeout, or the run being interrupted (errclass.ErrInterrupted).
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
		(errors.As(err, &netErr) && netErr.Timeout()) ||
		strings.Contains(err.Error(), "request canceled") ||
		strings.Contains(err.Error(), "operation was canceled") {
		return cause
	}
	return err
}
