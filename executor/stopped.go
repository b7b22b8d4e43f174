package executor

import "context"

// stoppedKey carries, in an iteration's context, a context that is done
// once the load model stops starting new work.
type stoppedKey struct{}

// WhenStopped arranges for f to run, in its own goroutine, once the load
// model running the iteration of ctx stops starting new work: at the end of
// its stages, or on Stop or Abort. Work with no end of its own, such as a stream held
// open "until the run ends", ends then, as planned, instead of waiting for
// the grace period and being interrupted. It costs no goroutine while it
// waits. The returned stop cancels the arrangement, as context.AfterFunc's
// does; outside an iteration it does nothing.
func WhenStopped(ctx context.Context, f func()) (stop func() bool) {
	stopped, ok := ctx.Value(stoppedKey{}).(context.Context)
	if !ok {
		return func() bool { return false }
	}
	return context.AfterFunc(stopped, f)
}
