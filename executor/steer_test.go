package executor

import (
	"context"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

// send sends c on ch and waits for its answer.
func send(t *testing.T, ch chan<- Change, c Change) error {
	t.Helper()
	done := make(chan error, 1)
	c.Done = done
	ch <- c
	select {
	case err := <-done:
		return err
	case <-time.After(10 * time.Second):
		t.Fatal("the change was not answered")
		return nil
	}
}

// TestOpenHoldResumeSetLevel holds an open model: no arrival starts while
// held; after Resume and a new level arrivals start again; the run still
// ends at its planned end, not interrupted.
func TestOpenHoldResumeSetLevel(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var j journal
		var started atomic.Int64 // iterations ended, seen by the test
		steer := make(chan Change)
		o := Open{StartRate: 200, Stages: []Stage{{Duration: 1500 * time.Millisecond, Target: 200}}, MaxUsers: 20}
		e := env(j.users(nil))
		e.Steer = steer
		type result struct {
			out Outcome
			err error
		}
		res := make(chan result, 1)
		go func() { out, err := o.Run(e); res <- result{out, err} }()
		for started.Load() == 0 {
			time.Sleep(5 * time.Millisecond)
			j.mu.Lock()
			started.Store(int64(len(j.entries)))
			j.mu.Unlock()
		}
		if err := send(t, steer, Change{Op: Hold}); err != nil {
			t.Fatal(err)
		}
		held := time.Now()
		time.Sleep(200 * time.Millisecond)
		resumed := time.Now()
		if err := send(t, steer, Change{Op: Resume}); err != nil {
			t.Fatal(err)
		}
		if err := send(t, steer, Change{Op: Resume}); err == nil {
			t.Error("a second Resume was accepted")
		}
		if err := send(t, steer, Change{Op: SetLevel, Level: -1}); err == nil {
			t.Error("a negative rate was accepted")
		}
		if err := send(t, steer, Change{Op: SetLevel, Level: 50}); err != nil {
			t.Fatal(err)
		}
		r := <-res
		if r.err != nil {
			t.Fatal(r.err)
		}
		if r.out.Interrupted {
			t.Error("a steered run that reached its planned end counts as interrupted")
		}
		var during, after int
		for _, en := range j.sorted() {
			switch {
			case en.it.Intended.After(held) && en.it.Intended.Before(resumed):
				during++
			case en.it.Intended.After(resumed):
				after++
			}
		}
		if during != 0 {
			t.Errorf("%d arrivals planned while held", during)
		}
		if after == 0 {
			t.Error("no arrivals after Resume")
		}
		if r.out.Iterations >= 300 {
			t.Errorf("%d iterations: the hold did not hold", r.out.Iterations)
		}
	})
}

// TestClosedSetLevel raises a closed model from 2 to 5 users while it
// runs: users 2, 3 and 4 start; then 1 user: users 1 to 4 stop.
func TestClosedSetLevel(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var j journal
		steer := make(chan Change)
		c := Closed{Start: 2, Stages: []Stage{{Duration: time.Second, Target: 2}}}
		e := env(j.users(sleepWork(5 * time.Millisecond)))
		e.Steer = steer
		res := make(chan Outcome, 1)
		go func() { out, _ := c.Run(e); res <- out }()
		time.Sleep(100 * time.Millisecond)
		if err := send(t, steer, Change{Op: SetLevel, Level: 5}); err != nil {
			t.Fatal(err)
		}
		time.Sleep(200 * time.Millisecond)
		if err := send(t, steer, Change{Op: SetLevel, Level: 1}); err != nil {
			t.Fatal(err)
		}
		changed := time.Now()
		out := <-res
		if out.Interrupted {
			t.Error("interrupted")
		}
		users := j.byUser()
		for v := range 5 {
			if len(users[v]) == 0 {
				t.Errorf("user %d never ran", v)
			}
		}
		for v := 1; v < 5; v++ {
			last := users[v][len(users[v])-1]
			if last.start.After(changed.Add(300 * time.Millisecond)) {
				t.Errorf("user %d began an iteration %v after the level fell to 1", v, last.start.Sub(changed))
			}
		}
		if len(users) != 5 {
			t.Errorf("%d users ran, want 5", len(users))
		}
	})
}

// closingUser is a user whose Close takes a while, and which notes an
// iteration that runs while it is being closed: the same user used by two
// goroutines at once.
type closingUser struct {
	id                   int
	closing              atomic.Bool
	iterations, overlaps *atomic.Int64
	closes               *atomic.Int64
	lastStart            *atomic.Int64 // unix ns of user 1's last iteration
}

func (u *closingUser) Iterate(ctx context.Context, it Iteration) {
	if u.closing.Load() {
		u.overlaps.Add(1)
	}
	if u.id == 1 {
		u.lastStart.Store(time.Now().UnixNano())
	}
	u.iterations.Add(1)
	time.Sleep(5 * time.Millisecond)
}

func (u *closingUser) Close() {
	u.closing.Store(true)
	time.Sleep(50 * time.Millisecond)
	u.closes.Add(1)
	u.closing.Store(false)
}

// TestClosedRestartWaitsForClose lowers the level and raises it again while
// the stopped user is still being closed: no second goroutine may start on
// that user; the one closing it carries on once it has closed it.
func TestClosedRestartWaitsForClose(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var iterations, overlaps, closes, lastStart atomic.Int64
		steer := make(chan Change)
		c := Closed{Start: 2, Stages: []Stage{{Duration: time.Second, Target: 2}}}
		e := env(func(id int) User {
			return &closingUser{id: id, iterations: &iterations, overlaps: &overlaps, closes: &closes, lastStart: &lastStart}
		})
		e.Steer = steer
		res := make(chan Outcome, 1)
		go func() { out, _ := c.Run(e); res <- out }()
		time.Sleep(100 * time.Millisecond)
		if err := send(t, steer, Change{Op: SetLevel, Level: 1}); err != nil {
			t.Fatal(err)
		}
		time.Sleep(20 * time.Millisecond) // user 1 ends its iteration and is closing
		if closes.Load() != 0 {
			t.Fatal("the close ended before the level rose again; the test needs it in progress")
		}
		if err := send(t, steer, Change{Op: SetLevel, Level: 2}); err != nil {
			t.Fatal(err)
		}
		raised := time.Now()
		<-res
		if n := overlaps.Load(); n != 0 {
			t.Errorf("%d iterations ran on a user while it was being closed", n)
		}
		if !time.Unix(0, lastStart.Load()).After(raised) {
			t.Error("user 1 did not run again after the level rose back to 2")
		}
		if closes.Load() < 2 {
			t.Errorf("%d closes; want user 1's at the stop and both users' at the end", closes.Load())
		}
	})
}
