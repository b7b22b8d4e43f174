package executor

import (
	"context"
	"time"
)

// Pause waits for d, or until ctx is done if that comes first. Journeys use
// it for think time and other deliberate waits. It reports whether it waited
// the full d and, if so, how much longer than d the wait took: the
// scheduler's lateness, which callers may record with metrics.Shard.Lag.
// A d of zero or less returns at once.
func Pause(ctx context.Context, d time.Duration) (late time.Duration, ok bool) {
	if d <= 0 {
		return 0, ctx.Err() == nil
	}
	due := time.Now().Add(d)
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return max(time.Since(due), 0), true
	case <-ctx.Done():
		return 0, false
	}
}
