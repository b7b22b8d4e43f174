package executor

import (
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

// sampler records the most users busy at once in windows of a run.
type sampler struct {
	j    *journal
	stop chan struct{}
	done chan struct{}
	mu   sync.Mutex
	obs  []obs
}

type obs struct {
	at   time.Time
	busy int
}

func sample(j *journal) *sampler {
	s := &sampler{j: j, stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(s.done)
		for {
			select {
			case <-s.stop:
				return
			case <-time.After(2 * time.Millisecond):
			}
			j.mu.Lock()
			b := j.busy
			j.mu.Unlock()
			s.mu.Lock()
			s.obs = append(s.obs, obs{time.Now(), b})
			s.mu.Unlock()
		}
	}()
	return s
}

func (s *sampler) close() { close(s.stop); <-s.done }

// max returns the most users busy in [from, to].
func (s *sampler) max(from, to time.Time) int {
	m := -1
	for _, o := range s.obs {
		if !o.at.Before(from) && !o.at.After(to) {
			m = max(m, o.busy)
		}
	}
	return m
}

func TestClosedRampUp(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var j journal
		c := Closed{Stages: []Stage{{time.Second, 10}, {300 * time.Millisecond, 10}}}
		e := env(j.users(sleepWork(5 * time.Millisecond)))
		smp := sample(&j)
		out, err := c.Run(e)
		smp.close()
		if err != nil {
			t.Fatal(err)
		}
		users := j.byUser()
		if len(users) != 10 {
			t.Fatalf("%d users, want 10", len(users))
		}
		for v := range 10 {
			es := users[v]
			// user v starts when the target passes v: at v*100ms.
			if want := e.Start.Add(time.Duration(v) * 100 * time.Millisecond); !es[0].it.Intended.Equal(want) {
				t.Errorf("user %d: first iteration intended at %v, want %v", v, es[0].it.Intended.Sub(e.Start), want.Sub(e.Start))
			}
			if last := es[len(es)-1]; last.end.Before(e.Start.Add(1250 * time.Millisecond)) {
				t.Errorf("user %d stopped at %v", v, last.end.Sub(e.Start))
			}
		}
		at := func(ms int) (time.Time, time.Time) {
			t0 := e.Start.Add(time.Duration(ms) * time.Millisecond)
			return t0, t0.Add(30 * time.Millisecond)
		}
		if n := smp.max(at(420)); n != 5 {
			t.Errorf("%d users busy halfway up the ramp, want 5", n)
		}
		if n := smp.max(at(1020)); n != 10 {
			t.Errorf("%d users busy at the end of the ramp, want 10", n)
		}
		if out.Interrupted || out.Iterations != int64(len(j.entries)) {
			t.Errorf("outcome %+v, %d iterations", out, len(j.entries))
		}
	})
}

func TestClosedRampDown(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var j journal
		c := Closed{Start: 10, Stages: []Stage{{200 * time.Millisecond, 10}, {500 * time.Millisecond, 0}, {100 * time.Millisecond, 0}}}
		e := env(j.users(sleepWork(10 * time.Millisecond)))
		if _, err := c.Run(e); err != nil {
			t.Fatal(err)
		}
		users := j.byUser()
		for v := range 10 {
			// user v stops when the target falls to v: at 200ms + (10-v)*50ms.
			stop := e.Start.Add(200*time.Millisecond + time.Duration(10-v)*50*time.Millisecond)
			last := users[v][len(users[v])-1]
			// Iterations of 10ms back to back, ending on the stop's
			// instant when it falls on one: the last one begins at the stop
			// at the latest and ends within one iteration after.
			if last.it.Intended.After(stop) {
				t.Errorf("user %d began an iteration %v after its stop", v, last.it.Intended.Sub(stop))
			}
			if d := last.end.Sub(stop); d < 0 || d > 10*time.Millisecond {
				t.Errorf("user %d ended its last iteration %v after its stop; want within one iteration", v, d)
			}
			if !users[v][0].it.Intended.Equal(e.Start) {
				t.Errorf("user %d started at %v", v, users[v][0].it.Intended.Sub(e.Start))
			}
		}
	})
}

// Users that the plan stops and starts again carry on as the same User.
func TestClosedRestart(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var j journal
		var made [4]atomic.Int32
		nu := j.users(sleepWork(10 * time.Millisecond))
		c := Closed{Stages: []Stage{
			{0, 4}, {200 * time.Millisecond, 4},
			{0, 2}, {200 * time.Millisecond, 2},
			{0, 4}, {200 * time.Millisecond, 4},
		}}
		e := env(func(id int) User { made[id].Add(1); return nu(id) })
		if _, err := c.Run(e); err != nil {
			t.Fatal(err)
		}
		for v := range made {
			if n := made[v].Load(); n != 1 {
				t.Errorf("user %d made %d times", v, n)
			}
		}
		gapFrom, gapTo := e.Start.Add(225*time.Millisecond), e.Start.Add(400*time.Millisecond)
		for v, es := range j.byUser() {
			var inGap int
			for n, x := range es {
				if x.it.N != int64(n) {
					t.Errorf("user %d: iteration %d numbered %d", v, n, x.it.N)
				}
				if x.it.Intended.After(gapFrom) && x.it.Intended.Before(gapTo) {
					inGap++
				}
			}
			if v >= 2 && inGap > 0 {
				t.Errorf("stopped user %d began %d iterations while stopped", v, inGap)
			}
			if v < 2 && inGap < 5 {
				t.Errorf("user %d began only %d iterations in the middle stage", v, inGap)
			}
			if last := es[len(es)-1].end; last.Before(e.Start.Add(550 * time.Millisecond)) {
				t.Errorf("user %d did not restart: last iteration ended at %v", v, last.Sub(e.Start))
			}
		}
	})
}

func TestClosedThinkTime(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var j journal
		c := Closed{
			Start:  3,
			Stages: []Stage{{400 * time.Millisecond, 3}},
			Think: func(r *rand.Rand) time.Duration {
				return 20*time.Millisecond + time.Duration(r.IntN(10))*time.Millisecond
			},
		}
		if _, err := c.Run(env(j.users(sleepWork(10 * time.Millisecond)))); err != nil {
			t.Fatal(err)
		}
		for v, es := range j.byUser() {
			if len(es) < 5 {
				t.Errorf("user %d ran only %d iterations", v, len(es))
			}
			for n := 1; n < len(es); n++ {
				prev, x := es[n-1], es[n]
				if think := x.it.Intended.Sub(prev.end); think < 20*time.Millisecond || think > 29*time.Millisecond || think%time.Millisecond != 0 {
					t.Errorf("user %d: iteration %d intended %v after the previous ended", v, n, think)
				}
				if x.start.Before(x.it.Intended) {
					t.Errorf("user %d: iteration %d began before its intended time", v, n)
				}
				if lag := x.start.Sub(x.it.Intended); lag != 0 { // the fake clock of synctest: no lag
					t.Errorf("user %d: iteration %d began %v late", v, n, lag)
				}
			}
		}
	})
}
