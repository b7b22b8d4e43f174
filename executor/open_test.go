package executor

import (
	"testing"
	"testing/synctest"
	"time"
)

// checkArrivals checks that the journal holds exactly the arrivals k of s
// with k%step == first, each with its intended time.
func checkArrivals(t *testing.T, j *journal, s *Schedule, start time.Time, first, step int64) {
	t.Helper()
	es := j.sorted()
	i := 0
	for k := first; k < s.Len(); k += step {
		if i >= len(es) {
			t.Fatalf("%d iterations, want more", len(es))
		}
		if got, want := es[i].it.Intended, start.Add(s.At(k)); !got.Equal(want) {
			t.Fatalf("iteration %d intended at %v, want %v", i, got.Sub(start), want.Sub(start))
		}
		if es[i].start.Before(es[i].it.Intended) {
			t.Fatalf("iteration %d started %v before its intended time", i, es[i].it.Intended.Sub(es[i].start))
		}
		i++
	}
	if i != len(es) {
		t.Fatalf("%d iterations, want %d", len(es), i)
	}
}

func TestOpenFastUsers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var j journal
		o := Open{StartRate: 500, Stages: []Stage{{300 * time.Millisecond, 1500}, {200 * time.Millisecond, 1500}}, MaxUsers: 200}
		s, _ := NewSchedule(o.StartRate, o.Stages)
		e := env(j.users(nil))
		out, err := o.Run(e)
		if err != nil {
			t.Fatal(err)
		}
		if s.Len() != 600 || out.Iterations != 600 || out.Dropped != 0 {
			t.Errorf("%d arrivals: %d iterations, %d dropped", s.Len(), out.Iterations, out.Dropped)
		}
		checkArrivals(t, &j, s, e.Start, 0, 1)
		if out.Interrupted || !out.Started.Equal(e.Start) || out.Stopped.Before(e.Start.Add(o.Duration())) || out.Ended.Before(out.Stopped) {
			t.Errorf("outcome %+v", out)
		}
		if n := len(j.byUser()); n > o.MaxUsers {
			t.Errorf("%d users", n)
		}
	})
}

// A dispatcher that starts late hands out every arrival already due at once,
// each with its own intended time.
func TestOpenCatchesUp(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var j journal
		o := Open{StartRate: 1000, Stages: []Stage{{300 * time.Millisecond, 1000}}, MaxUsers: 1000}
		s, _ := NewSchedule(o.StartRate, o.Stages)
		e := env(j.users(nil))
		e.Start = time.Now().Add(-100 * time.Millisecond)
		out, err := o.Run(e)
		if err != nil {
			t.Fatal(err)
		}
		if out.Iterations != 300 || out.Dropped != 0 {
			t.Errorf("%d iterations, %d dropped", out.Iterations, out.Dropped)
		}
		checkArrivals(t, &j, s, e.Start, 0, 1)
	})
}

func TestOpenDropsWhenBusy(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var j journal
		o := Open{StartRate: 200, Stages: []Stage{{500 * time.Millisecond, 200}}, MaxUsers: 4}
		out, err := o.Run(env(j.users(sleepWork(60 * time.Millisecond))))
		if err != nil {
			t.Fatal(err)
		}
		if out.Iterations+out.Dropped != 100 || out.Dropped < 50 || out.Iterations < 4 {
			t.Errorf("100 arrivals: %d iterations, %d dropped", out.Iterations, out.Dropped)
		}
		if int64(len(j.entries)) != out.Iterations {
			t.Errorf("%d iterations ran, outcome says %d", len(j.entries), out.Iterations)
		}
		if j.maxBusy > 4 {
			t.Errorf("%d users busy at once", j.maxBusy)
		}
		for id, es := range j.byUser() {
			if id < 0 || id >= 4 {
				t.Errorf("user id %d", id)
			}
			for n, e := range es {
				if e.it.N != int64(n) {
					t.Errorf("user %d: iteration %d numbered %d", id, n, e.it.N)
				}
				if n > 0 && e.start.Before(es[n-1].end) {
					t.Errorf("user %d: iterations overlap", id)
				}
			}
		}
	})
}

func TestOpenStop(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var j journal
		o := Open{StartRate: 100, Stages: []Stage{{10 * time.Second, 100}}, MaxUsers: 10}
		e := env(j.users(sleepWork(5 * time.Millisecond)))
		e.Stop = closeAfter(220 * time.Millisecond) // 200ms after the start
		out, err := o.Run(e)
		if err != nil {
			t.Fatal(err)
		}
		if !out.Interrupted || out.Iterations < 10 || out.Iterations > 25 {
			t.Errorf("outcome %+v", out)
		}
		if d := out.Ended.Sub(e.Start); d > time.Second {
			t.Errorf("ran %v after the start", d)
		}
	})
}

// A dispatcher that finds itself behind (its process did not run for a
// while) catches up with about the users the load had, not one user per
// arrival due: handed out in one go, 1,200 arrivals due at once took every
// user of a 1,000-user pool before any could come back, and 200 were
// dropped although each took only 50 µs.
func TestOpenCatchUpReusesUsers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var j journal
		o := Open{StartRate: 40000, Stages: []Stage{{Duration: 100 * time.Millisecond, Target: 40000}}, MaxUsers: 1000}
		e := env(j.users(sleepWork(50 * time.Microsecond)))
		e.Start = time.Now().Add(-30 * time.Millisecond) // 1,200 arrivals due at once
		out, err := o.Run(e)
		if err != nil {
			t.Fatal(err)
		}
		if out.Dropped != 0 || out.Iterations != 4000 {
			t.Errorf("outcome %+v; want 4,000 iterations, none dropped", out)
		}
		// Within catchUpLag of its schedule the dispatcher hands out what
		// is due at once: at 40,000/s, 80 arrivals.
		if most := catchUpUsers + 80; j.maxBusy > most {
			t.Errorf("%d users busy at once in the catch-up; want at most %d", j.maxBusy, most)
		}
	})
}

// A catch-up does not wait for users the server holds: when none comes
// back within catchUpWait, arrivals that find every user busy are dropped
// as ever, and the run ends on time.
func TestOpenCatchUpDoesNotWaitForTheServer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var j journal
		o := Open{StartRate: 1000, Stages: []Stage{{Duration: 200 * time.Millisecond, Target: 1000}}, MaxUsers: 50, Grace: time.Second}
		e := env(j.users(sleepWork(time.Second)))
		e.Start = time.Now().Add(-30 * time.Millisecond)
		t0 := time.Now()
		out, err := o.Run(e)
		if err != nil {
			t.Fatal(err)
		}
		if out.Iterations != 50 || out.Dropped != 150 {
			t.Errorf("outcome %+v; want 50 iterations (the pool) and 150 dropped", out)
		}
		if d := out.Stopped.Sub(t0); d > 200*time.Millisecond {
			t.Errorf("stopped %v after the call; want by the planned end", d)
		}
	})
}
