package executor

import (
	"context"
	"testing"
	"testing/synctest"
	"time"
)

func TestPause(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		late, ok := Pause(context.Background(), 20*time.Millisecond)
		took := time.Since(start)
		if !ok || took < 20*time.Millisecond || late < 0 || late > took-20*time.Millisecond {
			t.Errorf("Pause(20ms) = %v, %v after %v", late, ok, took)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
		defer cancel()
		start = time.Now()
		if late, ok := Pause(ctx, time.Minute); ok || late != 0 {
			t.Errorf("cancelled Pause = %v, %v", late, ok)
		}
		if took := time.Since(start); took > time.Second {
			t.Errorf("cancelled Pause took %v", took)
		}
		if _, ok := Pause(ctx, 0); ok {
			t.Error("Pause(0) on a done context reported ok")
		}
		if _, ok := Pause(context.Background(), -time.Second); !ok {
			t.Error("Pause(-1s) reported not ok")
		}
	})
}

// TestWhenStopped checks that work waiting for the end of the run hears of
// it when new work stops, not after the grace period.
func TestWhenStopped(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var j journal
		heard := make(chan time.Duration, 10)
		c := Closed{Start: 2, Stages: []Stage{{Duration: 200 * time.Millisecond, Target: 2}}, Grace: 5 * time.Second}
		e := env(nil)
		e.NewUser = j.users(func(ctx context.Context, it Iteration) {
			done := make(chan struct{})
			stop := WhenStopped(ctx, func() { close(done) })
			defer stop()
			select {
			case <-done:
				heard <- time.Since(e.Start)
			case <-ctx.Done():
			}
		})
		began := time.Now()
		out, err := c.Run(e)
		if err != nil {
			t.Fatal(err)
		}
		if d := time.Since(began); d > 2*time.Second {
			t.Errorf("the run took %v: holders waited for the grace period", d)
		}
		if len(heard) != 2 || out.Interrupted {
			t.Errorf("%d of 2 users heard the stop; outcome %+v", len(heard), out)
		}
		if stop := WhenStopped(context.Background(), func() {}); stop() {
			t.Error("WhenStopped outside an iteration arranged something")
		}
	})
}
