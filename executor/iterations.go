package executor

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"
)

// Iterations is a fixed number of iterations shared by a group of virtual
// users: each of Users users loops over the journey, taking the next of the
// Total iterations, resting Think between its iterations, until every
// iteration has been taken or MaxDuration has passed. The run ends when the
// last iteration returns.
//
// A segment of a split plan runs the users v with v%Count == Index and the
// iterations k with k%Count == Index, so the segments together run exactly
// Total iterations.
type Iterations struct {
	Total int // iterations in all
	Users int // virtual users sharing them
	// MaxDuration bounds the run: no iteration starts after it.
	MaxDuration time.Duration
	// Think returns the pause after each iteration; nil means none. r is
	// the user's own generator, seeded from its id, so runs repeat.
	Think func(r *rand.Rand) time.Duration
	// Grace is how long iterations in flight at MaxDuration may take to
	// finish before they are interrupted.
	Grace time.Duration
}

// maxIterations bounds Iterations.Total.
const maxIterations = 1 << 40

// Validate reports whether it is a well-formed plan.
func (it Iterations) Validate() error {
	switch {
	case it.Total < 1 || it.Total > maxIterations:
		return errorf("%d iterations is not between 1 and %d", it.Total, int64(maxIterations))
	case it.Users < 1 || it.Users > maxClosedUsers:
		return errorf("%d users is not between 1 and %d", it.Users, maxClosedUsers)
	case it.MaxDuration <= 0:
		return errorf("max duration %v is not positive", it.MaxDuration)
	case it.Grace < 0:
		return errorf("grace %v is negative", it.Grace)
	}
	return nil
}

// Duration returns MaxDuration, the longest the run may last.
func (it Iterations) Duration() time.Duration { return it.MaxDuration }

// String says in words what load it applies.
func (it Iterations) String() string {
	return fmt.Sprintf("%d iterations shared by %d users, within %v", it.Total, it.Users, Round(it.MaxDuration))
}

// Run runs the plan; see Load.
//
// Every user starts at the start. Each iteration's Intended time is the
// start for a user's first iteration and the end of its think time after
// that, as in the closed model; how late it actually started is recorded
// with Shard.Lag.
func (it Iterations) Run(env Env) (Outcome, error) {
	if err := it.Validate(); err != nil {
		return Outcome{}, err
	}
	r, err := newRun(env)
	if err != nil {
		return Outcome{}, err
	}
	n := r.seg.count()
	// The segment's iterations are k = c*n + Index for c = 0, 1, ...
	share := int64(0)
	if it.Total > r.seg.Index {
		share = int64((it.Total-r.seg.Index-1)/n + 1)
	}
	ir := &iterRun{run: r, think: it.Think, share: share}
	var all sync.WaitGroup
	if !r.await() || !r.sleepUntil(r.start) {
		r.stop(true, 0)
		return r.wait(it.Grace), nil
	}
	for v := r.seg.first(0); v < it.Users; v += n {
		r.users.Add(1)
		all.Add(1)
		go func() {
			defer all.Done()
			ir.loop(v)
		}()
	}
	finished := make(chan struct{})
	go func() { all.Wait(); close(finished) }()

	deadline := time.NewTimer(time.Until(r.at(it.MaxDuration)))
	defer deadline.Stop()
	interrupted := false
	select {
	case <-finished:
	case <-deadline.C:
	case <-env.Stop:
		interrupted = true
	case <-env.Abort:
		interrupted = true
	}
	r.stop(interrupted, 0)
	return r.wait(it.Grace), nil
}

// An iterRun is a running Iterations model.
type iterRun struct {
	*run
	think func(*rand.Rand) time.Duration
	share int64        // iterations of the segment
	taken atomic.Int64 // iterations of the segment taken so far
}

// take claims the next iteration. It reports false when none is left or
// new work has stopped.
func (ir *iterRun) take() bool {
	select {
	case <-ir.stopped:
		return false
	default:
	}
	return ir.taken.Add(1) <= ir.share
}

// loop runs user v until no iteration is left or new work stops.
func (ir *iterRun) loop(v int) {
	defer ir.users.Done()
	u := ir.env.NewUser(v)
	defer closeUser(u)
	ir.rec.AddUsers(1)
	defer ir.rec.AddUsers(-1)
	sh := ir.rec.Shard(v)
	rng := rand.New(rand.NewPCG(uint64(v), 0x5375726765))
	var timer *time.Timer
	due, scheduled := ir.start, true // due was planned, not just now
	for n := int64(0); ir.take(); n++ {
		if scheduled {
			sh.Lag(max(time.Since(due), 0))
		}
		ir.iterations.Add(1)
		ir.iterate(u, Iteration{User: v, N: n, Intended: due})
		var d time.Duration
		if ir.think != nil {
			d = ir.think(rng)
		}
		due, scheduled = time.Now().Add(d), d > 0
		if d <= 0 {
			continue
		}
		if timer == nil {
			timer = time.NewTimer(d)
			defer timer.Stop()
		} else {
			timer.Reset(d)
		}
		select {
		case <-timer.C:
		case <-ir.stopped:
			return
		}
	}
}
