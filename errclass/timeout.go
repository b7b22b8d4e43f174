package errclass

import (
	"context"
	"time"
)

// A TimeoutError is the cancellation cause of an operation whose time ran
// out (context.WithDeadlineCause). It is a net.Error whose Timeout is true,
// so Classify classes it by the phase it fired in: a connect timeout while
// dialing, a response timeout after. It matches context.DeadlineExceeded.
type TimeoutError struct {
	After time.Duration // the time the operation was given
}

func (e *TimeoutError) Error() string   { return "timed out after " + e.After.String() }
func (e *TimeoutError) Timeout() bool   { return true }
func (e *TimeoutError) Temporary() bool { return true }

// Is makes errors.Is(err, context.DeadlineExceeded) hold.
func (e *TimeoutError) Is(target error) bool { return target == context.DeadlineExceeded }
