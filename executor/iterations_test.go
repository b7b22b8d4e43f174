package executor

import (
	"errors"
	"math/rand/v2"
	"testing"
	"testing/synctest"
	"time"

	"github.com/surge-load/surge/errclass"
)

func TestIterationsRunsExactlyTotal(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var j journal
		it := Iterations{Total: 101, Users: 7, MaxDuration: 10 * time.Second}
		e := env(j.users(sleepWork(time.Millisecond)))
		out, err := it.Run(e)
		if err != nil {
			t.Fatal(err)
		}
		if out.Iterations != 101 || len(j.entries) != 101 || out.Interrupted {
			t.Fatalf("outcome %+v, %d iterations", out, len(j.entries))
		}
		users := j.byUser()
		if len(users) != 7 {
			t.Errorf("%d users, want 7", len(users))
		}
		for id, es := range users {
			if !es[0].it.Intended.Equal(e.Start) {
				t.Errorf("user %d: first iteration intended %v after the start", id, es[0].it.Intended.Sub(e.Start))
			}
			for i, x := range es {
				if x.it.N != int64(i) {
					t.Errorf("user %d: iteration %d numbered %d", id, i, x.it.N)
				}
			}
		}
		// The run ends when the work does, well before MaxDuration.
		if d := out.Stopped.Sub(e.Start); d > time.Second {
			t.Errorf("stopped %v after the start", d)
		}
	})
}

func TestIterationsThinkTime(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var j journal
		it := Iterations{Total: 6, Users: 2, MaxDuration: 10 * time.Second,
			Think: func(*rand.Rand) time.Duration { return 50 * time.Millisecond }}
		e := env(j.users(nil))
		if _, err := it.Run(e); err != nil {
			t.Fatal(err)
		}
		for id, es := range j.byUser() {
			for i := 1; i < len(es); i++ {
				if gap := es[i].it.Intended.Sub(es[i-1].end); gap < 50*time.Millisecond || gap > 60*time.Millisecond {
					t.Errorf("user %d: iteration %d intended %v after the last ended, want the 50ms think time", id, i, gap)
				}
			}
		}
	})
}

func TestIterationsMaxDuration(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var j journal
		it := Iterations{Total: 1000, Users: 2, MaxDuration: 200 * time.Millisecond, Grace: 10 * time.Millisecond}
		e := env(j.users(waitWork))
		out, err := it.Run(e)
		if err != nil {
			t.Fatal(err)
		}
		if d := out.Stopped.Sub(e.Start); d < 190*time.Millisecond || d > 700*time.Millisecond {
			t.Errorf("stopped %v after the start, want 200ms", d)
		}
		if out.Interrupted || out.Iterations != 2 {
			t.Errorf("outcome %+v", out)
		}
		for _, x := range j.entries {
			if !errors.Is(x.cause, errclass.ErrInterrupted) {
				t.Errorf("cause %v, want ErrInterrupted after the grace period", x.cause)
			}
		}
	})
}

func TestIterationsStop(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var j journal
		it := Iterations{Total: 1_000_000, Users: 3, MaxDuration: time.Minute, Grace: time.Second}
		e := env(j.users(sleepWork(10 * time.Millisecond)))
		e.Stop = closeAfter(150 * time.Millisecond)
		out, err := it.Run(e)
		if err != nil {
			t.Fatal(err)
		}
		if !out.Interrupted || out.Ended.Sub(out.Stopped) > 100*time.Millisecond {
			t.Errorf("outcome %+v", out)
		}
		for _, x := range j.entries {
			if x.cause != nil {
				t.Errorf("iteration cancelled: %v", x.cause)
			}
		}
	})
}

func TestIterationsSegments(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		it := Iterations{Total: 50, Users: 5, MaxDuration: 10 * time.Second}
		total := 0
		seen := map[int]bool{}
		for i := range 3 {
			var j journal
			e := env(j.users(sleepWork(2 * time.Millisecond)))
			e.Segment = Segment{Index: i, Count: 3}
			out, err := it.Run(e)
			if err != nil {
				t.Fatal(err)
			}
			total += int(out.Iterations)
			for id := range j.byUser() {
				if id%3 != i || seen[id] {
					t.Errorf("segment %d ran user %d", i, id)
				}
				seen[id] = true
			}
		}
		if total != 50 || len(seen) != 5 {
			t.Errorf("segments ran %d iterations on %d users, want 50 on 5", total, len(seen))
		}
	})
}

func TestIterationsValidate(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		for _, it := range []Iterations{
			{Total: 0, Users: 1, MaxDuration: time.Second},
			{Total: 1, Users: 0, MaxDuration: time.Second},
			{Total: 1, Users: 1},
			{Total: 1, Users: 1, MaxDuration: time.Second, Grace: -1},
		} {
			if it.Validate() == nil {
				t.Errorf("%+v is valid", it)
			}
		}
	})
}
