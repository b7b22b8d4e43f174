package executor

import (
	"math"
	"math/rand/v2"
	"sync"
	"time"
)

// Closed is the closed load model: virtual users that each loop over the
// journey, resting Think between iterations. The number of users starts at
// Start and follows Stages, whose targets are numbers of users.
//
// Users are numbered globally in start order. User v is live while the
// interpolated target exceeds v: on a ramp up it starts when the target
// passes v, on a ramp down it stops after its current iteration when the
// target falls to v, so the newest users stop first. A user that becomes
// live again later resumes as the same User. A segment of a split plan runs
// the users v with v%Count == Index, so the segments together always have
// the unsplit number of users.
type Closed struct {
	Start  int // users at the start
	Stages []Stage
	// Think returns the pause after each iteration; nil means none. r is
	// the user's own generator, seeded from its id, so runs repeat.
	Think func(r *rand.Rand) time.Duration
	// Grace is how long iterations in flight at the end may take to finish
	// before they are interrupted.
	Grace time.Duration
}

// maxClosedUsers bounds the targets of the closed model.
const maxClosedUsers = 10_000_000

// Validate reports whether c is a well-formed plan.
func (c Closed) Validate() error {
	if c.Start < 0 {
		return errorf("start of %d users is negative", c.Start)
	}
	if c.Start > maxClosedUsers {
		return errorf("start of %d users is more than %d", c.Start, maxClosedUsers)
	}
	if c.Grace < 0 {
		return errorf("grace %v is negative", c.Grace)
	}
	_, err := validateStages(c.Stages, maxClosedUsers, "users")
	return err
}

// Duration returns the total length of the stages.
func (c Closed) Duration() time.Duration {
	return totalDuration(c.Stages)
}

// Run runs the plan; see Load.
//
// A single goroutine starts and stops the users at their planned times;
// each user runs in its own goroutine. Every iteration's Intended time is
// its planned start: the user's start, or the end of its think time, so
// think time never counts as latency. How late a user or an iteration
// actually started is recorded with Shard.Lag.
func (c Closed) Run(env Env) (Outcome, error) {
	if err := c.Validate(); err != nil {
		return Outcome{}, err
	}
	r, err := newRun(env)
	if err != nil {
		return Outcome{}, err
	}
	cr := &closedRun{run: r, think: c.Think}
	interrupted := !r.await() || !r.sleepUntil(r.start) || cr.ramp(c)
	if interrupted && r.pending != nil {
		st := &steering{level: float64(cr.liveLevel()), max: maxClosedUsers, unit: c.LevelUnit()}
		interrupted = r.steer(st, c.Duration(), func(level float64, end time.Time) bool {
			cr.setUsers(int(math.Round(level)))
			return cr.sleepUntil(end)
		})
	}
	r.stop(interrupted, c.Duration())
	return r.wait(c.Grace), nil
}

// A closedRun is a running closed model.
type closedRun struct {
	*run
	think func(*rand.Rand) time.Duration
	slots []*slot // the segment's users, by v/Count
}

// A slot is one virtual user of the closed model.
type slot struct {
	id   int
	user User       // made by the slot's first goroutine
	rng  *rand.Rand // for think times
	n    int64      // iterations so far

	mu      sync.Mutex
	live    bool          // the plan wants the user running
	running bool          // a goroutine runs the user
	quit    chan struct{} // closed when live turns false
}

// ramp starts and stops the segment's users as the plan says. It reports
// whether Stop or Abort cut it short.
func (cr *closedRun) ramp(c Closed) (interrupted bool) {
	seg := cr.seg
	step := seg.count()
	for v := seg.first(0); v < c.Start; v += step {
		cr.startUser(v, cr.start)
	}
	var at time.Duration
	a := float64(c.Start)
	for _, st := range c.Stages {
		b := st.Target
		frac := func(x float64) time.Time {
			return cr.at(at + time.Duration(math.Round(x*float64(st.Duration))))
		}
		switch {
		case b > a: // user v starts when the target passes v
			for v := seg.first(ceil(a)); v < ceil(b); v += step {
				due := frac((float64(v) - a) / (b - a))
				if !cr.sleepUntil(due) {
					return true
				}
				cr.startUser(v, due)
			}
		case b < a: // user v stops when the target falls to v
			for v := seg.last(ceil(a) - 1); v >= ceil(b); v -= step {
				if !cr.sleepUntil(frac((a - float64(v)) / (a - b))) {
					return true
				}
				cr.stopUser(v)
			}
		}
		at += st.Duration
		a = b
	}
	return !cr.sleepUntil(cr.at(at))
}

// liveLevel is the number of users the plan has live now: users are
// numbered in start order, so it is the highest live user's id plus one.
func (cr *closedRun) liveLevel() int {
	n := 0
	for _, s := range cr.slots {
		if s == nil {
			continue
		}
		s.mu.Lock()
		if s.live {
			n = max(n, s.id+1)
		}
		s.mu.Unlock()
	}
	return n
}

// setUsers makes users 0 to n-1 of the segment live and stops the rest
// after their iteration.
func (cr *closedRun) setUsers(n int) {
	now := time.Now()
	for v := cr.seg.first(0); v < n; v += cr.seg.count() {
		cr.startUser(v, now)
	}
	for _, s := range cr.slots {
		if s != nil && s.id >= n {
			cr.stopUser(s.id)
		}
	}
}

func ceil(x float64) int { return int(math.Ceil(x)) }

// startUser makes user v live, due to start its first iteration at due.
func (cr *closedRun) startUser(v int, due time.Time) {
	i := v / cr.seg.count()
	for len(cr.slots) <= i {
		cr.slots = append(cr.slots, nil)
	}
	s := cr.slots[i]
	if s == nil {
		s = &slot{id: v, rng: rand.New(rand.NewPCG(uint64(v), 0x5375726765))}
		cr.slots[i] = s
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.live {
		return
	}
	s.live = true
	s.quit = make(chan struct{})
	if s.running { // still finishing its last iteration: it carries on
		return
	}
	s.running = true
	cr.users.Add(1)
	go cr.loop(s, due)
}

// stopUser tells user v to stop after its current iteration.
func (cr *closedRun) stopUser(v int) {
	s := cr.slots[v/cr.seg.count()]
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.live {
		s.live = false
		close(s.quit)
	}
}

// proceed reports whether s should start another iteration, and returns the
// channel that tells it to stop. If not, the goroutine must close the user
// and then retire.
func (cr *closedRun) proceed(s *slot) (quit <-chan struct{}, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	select {
	case <-cr.stopped:
		return nil, false
	default:
	}
	if !s.live {
		return nil, false
	}
	return s.quit, true
}

// retire ends the goroutine of s, whose user it has closed, unless the
// plan made s live again meanwhile: then it reports true and the goroutine
// carries on with the same user. Until retire, s counts as running, so
// startUser never starts a second goroutine on a user still being closed.
func (cr *closedRun) retire(s *slot) (again bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	select {
	case <-cr.stopped:
	default:
		if s.live {
			return true
		}
	}
	s.running = false
	return false
}

// loop runs user s, whose next iteration is due at due, until the plan or
// the end of the run stops it.
func (cr *closedRun) loop(s *slot, due time.Time) {
	defer cr.users.Done()
	if s.user == nil {
		s.user = cr.env.NewUser(s.id)
	}
	cr.rec.AddUsers(1)
	defer cr.rec.AddUsers(-1)
	sh := cr.rec.Shard(s.id)
	var timer *time.Timer
	scheduled := true // due was planned, not just now
	for {
		quit, ok := cr.proceed(s)
		if !ok {
			closeUser(s.user)
			if cr.retire(s) {
				due, scheduled = time.Now(), false
				continue
			}
			return
		}
		if scheduled {
			sh.Lag(max(time.Since(due), 0))
		}
		cr.iterations.Add(1)
		cr.iterate(s.user, Iteration{User: s.id, N: s.n, Intended: due})
		s.n++
		var d time.Duration
		if cr.think != nil {
			d = cr.think(s.rng)
		}
		due, scheduled = time.Now(), false
		if d <= 0 {
			continue
		}
		due, scheduled = due.Add(d), true
		if timer == nil {
			timer = time.NewTimer(d)
			defer timer.Stop()
		} else {
			timer.Reset(d)
		}
		cr.rest(s, timer, quit)
	}
}

// rest waits for timer, the end of a think time, or until new work stops
// or the user is stopped (and not restarted in the meantime); the loop's
// next proceed tells which.
func (cr *closedRun) rest(s *slot, timer *time.Timer, quit <-chan struct{}) {
	for {
		select {
		case <-timer.C:
			return
		case <-cr.stopped:
		case <-quit:
		}
		var ok bool
		if quit, ok = cr.proceed(s); !ok {
			return
		}
	}
}
