package demo

import (
	"context"
	"errors"
	"time"
)

// errLockWaitTimeout is the error, and 503 message, of a tree lock wait
// that ran out, worded like MySQL's ER_LOCK_WAIT_TIMEOUT.
var errLockWaitTimeout = errors.New("lock wait timeout exceeded")

// treeLock is a mutex with a bounded wait, standing in for the row locks a
// database takes on a folder tree. A channel of one slot makes the wait
// cancellable and tells the race detector about the ordering.
type treeLock struct{ ch chan struct{} }

func newTreeLock() treeLock { return treeLock{ch: make(chan struct{}, 1)} }

// lock takes the lock, waiting at most wait (not at all if wait is
// negative). It reports whether it had to wait and, on failure,
// errLockWaitTimeout or the context's error.
func (l treeLock) lock(ctx context.Context, wait time.Duration) (waited bool, err error) {
	select {
	case l.ch <- struct{}{}:
		return false, nil
	default:
	}
	if wait < 0 {
		return true, errLockWaitTimeout
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case l.ch <- struct{}{}:
		return true, nil
	case <-t.C:
		return true, errLockWaitTimeout
	case <-ctx.Done():
		return true, ctx.Err()
	}
}

// unlock releases the lock taken by lock.
func (l treeLock) unlock() { <-l.ch }
