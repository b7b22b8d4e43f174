package executor

import (
	"testing"
	"testing/synctest"
	"time"
)

// TestOpenUsesFewWarmUsers checks that a light load is served by the few
// users it needs, most recently idle first, rather than rotating through the
// whole pool (which would open one connection per pool user).
func TestOpenUsesFewWarmUsers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var j journal
		o := Open{StartRate: 200, Stages: []Stage{{Duration: time.Second, Target: 200}}, MaxUsers: 100}
		out, err := o.Run(env(j.users(sleepWork(time.Millisecond))))
		if err != nil {
			t.Fatal(err)
		}
		if out.Iterations != 200 || out.Dropped != 0 {
			t.Fatalf("%d iterations, %d dropped; want 200, 0", out.Iterations, out.Dropped)
		}
		if used := len(j.byUser()); used > 10 {
			t.Errorf("200 arrivals of 1 ms each used %d of 100 users; want the few needed", used)
		}
	})
}

// TestLatencyFrom checks which iterations count latency from their intended
// time: arrivals do, looping users do not.
func TestLatencyFrom(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		due := time.Now()
		if got := (Iteration{Intended: due, Arrival: true}).LatencyFrom(); !got.Equal(due) {
			t.Errorf("an arrival counts from %v, want its intended time", got)
		}
		if got := (Iteration{Intended: due}).LatencyFrom(); !got.IsZero() {
			t.Errorf("a looping user counts from %v, want its actual start (zero)", got)
		}
		var j journal
		o := Open{StartRate: 50, Stages: []Stage{{Duration: 200 * time.Millisecond, Target: 50}}, MaxUsers: 5}
		if _, err := o.Run(env(j.users(nil))); err != nil {
			t.Fatal(err)
		}
		for _, e := range j.sorted() {
			if !e.it.Arrival {
				t.Fatalf("open-model iteration %+v is not an arrival", e.it)
			}
		}
	})
}
