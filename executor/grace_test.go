package executor

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/surge-load/surge/errclass"
)

// waitWork is a journey whose first iteration runs until ctx ends.
func waitWork(ctx context.Context, it Iteration) {
	if it.N == 0 {
		<-ctx.Done()
	}
}

func TestGraceInterrupts(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var j journal
		c := Closed{Start: 1, Stages: []Stage{{200 * time.Millisecond, 1}}, Grace: 200 * time.Millisecond}
		e := env(j.users(waitWork))
		out, err := c.Run(e)
		if err != nil {
			t.Fatal(err)
		}
		if len(j.entries) != 1 {
			t.Fatalf("%d iterations", len(j.entries))
		}
		x := j.entries[0]
		if !errors.Is(x.cause, errclass.ErrInterrupted) {
			t.Errorf("cause %v, want ErrInterrupted", x.cause)
		}
		if took := x.end.Sub(e.Start); took < 400*time.Millisecond || took > time.Second {
			t.Errorf("interrupted %v after the start, want 400ms", took)
		}
		if out.Interrupted || out.Ended.Sub(out.Stopped) < 200*time.Millisecond {
			t.Errorf("outcome %+v", out)
		}
	})
}

func TestGraceLetsFinish(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var j journal
		c := Closed{Start: 1, Stages: []Stage{{200 * time.Millisecond, 1}}, Grace: 500 * time.Millisecond}
		e := env(j.users(func(ctx context.Context, it Iteration) { time.Sleep(300 * time.Millisecond) }))
		out, err := c.Run(e)
		if err != nil {
			t.Fatal(err)
		}
		if len(j.entries) != 1 || j.entries[0].cause != nil {
			t.Fatalf("iterations %+v", j.entries)
		}
		if took := out.Ended.Sub(e.Start); took < 300*time.Millisecond || took > 900*time.Millisecond {
			t.Errorf("ended %v after the start, want 300ms", took)
		}
	})
}

func TestStopEarly(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		for _, load := range []Load{
			Closed{Start: 5, Stages: []Stage{{10 * time.Second, 5}}, Grace: time.Second},
			Open{StartRate: 100, Stages: []Stage{{10 * time.Second, 100}}, MaxUsers: 10, Grace: time.Second},
		} {
			var j journal
			e := env(j.users(sleepWork(20 * time.Millisecond)))
			e.Stop = closeAfter(220 * time.Millisecond)
			out, err := load.Run(e)
			if err != nil {
				t.Fatal(err)
			}
			if !out.Interrupted {
				t.Errorf("%T: not interrupted", load)
			}
			if d := out.Stopped.Sub(e.Start); d < 190*time.Millisecond || d > 700*time.Millisecond {
				t.Errorf("%T: stopped %v after the start, want 200ms", load, d)
			}
			if d := out.Ended.Sub(out.Stopped); d > 400*time.Millisecond {
				t.Errorf("%T: ended %v after the stop", load, d)
			}
			for _, x := range j.entries {
				if x.cause != nil {
					t.Errorf("%T: iteration cancelled: %v", load, x.cause)
				}
				if x.it.Intended.After(out.Stopped) {
					t.Errorf("%T: iteration began after the stop", load)
				}
			}
		}
	})
}

// Stop begins the grace period; Abort, later, ends it at once.
func TestAbort(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		for _, load := range []Load{
			Closed{Start: 2, Stages: []Stage{{10 * time.Second, 2}}, Grace: 10 * time.Second},
			Open{StartRate: 20, Stages: []Stage{{10 * time.Second, 20}}, MaxUsers: 3, Grace: 10 * time.Second},
		} {
			for _, stop := range []bool{true, false} {
				var j journal
				e := env(j.users(waitWork))
				if stop {
					e.Stop = closeAfter(120 * time.Millisecond)
				}
				e.Abort = closeAfter(270 * time.Millisecond)
				out, err := load.Run(e)
				if err != nil {
					t.Fatal(err)
				}
				if !out.Interrupted || len(j.entries) == 0 {
					t.Errorf("%T: outcome %+v, %d iterations", load, out, len(j.entries))
				}
				if d := out.Ended.Sub(e.Start); d < 240*time.Millisecond || d > 800*time.Millisecond {
					t.Errorf("%T, stop %v: ended %v after the start, want 250ms", load, stop, d)
				}
				for _, x := range j.entries {
					if x.it.N == 0 && !errors.Is(x.cause, errclass.ErrInterrupted) {
						t.Errorf("%T: cause %v, want ErrInterrupted", load, x.cause)
					}
				}
			}
		}
	})
}

// Stop before the start runs nothing.
func TestStopBeforeStart(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var j journal
		e := env(j.users(nil))
		e.Start = time.Now().Add(time.Hour)
		e.Stop = closeAfter(10 * time.Millisecond)
		out, err := Closed{Start: 3, Stages: []Stage{{time.Second, 3}}}.Run(e)
		if err != nil {
			t.Fatal(err)
		}
		if !out.Interrupted || out.Iterations != 0 || len(j.entries) != 0 {
			t.Errorf("outcome %+v", out)
		}
	})
}
