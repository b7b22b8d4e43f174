package executor

import (
	"time"
)

// Open is the open load model: arrivals at a rate that starts at StartRate
// and follows Stages, whose targets are arrivals per second (see Schedule).
// Each arrival starts one iteration on a free user of a pool of MaxUsers
// users created before the start; an arrival that finds every user busy is
// dropped and counted with metrics.Shard.Dropped, never queued, so the
// offered load does not bend to the server's speed.
//
// A segment of a split plan takes every Count-th arrival of the one global
// schedule and a pool of ceil(MaxUsers/Count) users, whose global ids are
// j*Count+Index for j from 0.
type Open struct {
	StartRate float64 // arrivals per second at the start
	Stages    []Stage
	MaxUsers  int // the size of the user pool
	// Grace is how long iterations in flight at the end may take to finish
	// before they are interrupted.
	Grace time.Duration
}

// Validate reports whether o is a well-formed plan.
func (o Open) Validate() error {
	_, err := o.schedule()
	return err
}

// schedule validates o and returns its schedule.
func (o Open) schedule() (*Schedule, error) {
	if o.MaxUsers < 1 {
		return nil, errorf("MaxUsers %d is less than 1", o.MaxUsers)
	}
	if o.Grace < 0 {
		return nil, errorf("grace %v is negative", o.Grace)
	}
	return NewSchedule(o.StartRate, o.Stages)
}

// Duration returns the total length of the stages.
func (o Open) Duration() time.Duration {
	return totalDuration(o.Stages)
}

// Pool returns the number of users segment s creates: ceil(MaxUsers/Count).
func (o Open) Pool(s Segment) int {
	n := s.count()
	return (o.MaxUsers + n - 1) / n
}

// Run runs the plan; see Load.
//
// A single goroutine dispatches the arrivals. It sleeps until the next one
// is due; whenever it is behind, it hands out every arrival already due,
// each with its own intended time, without sleeping, and records its
// lateness with Shard.Lag.
func (o Open) Run(env Env) (Outcome, error) {
	sched, err := o.schedule()
	if err != nil {
		return Outcome{}, err
	}
	return runPool(env, o.Pool, o.warmUsers(env.Segment), o.Duration(), o.Grace, func(r *run, pool *idlePool) bool {
		interrupted := r.dispatch(sched, pool)
		if interrupted && r.pending != nil {
			st := &steering{level: o.rateAt(time.Since(r.start)), max: maxOpenRate, unit: o.LevelUnit()}
			return r.steer(st, o.Duration(), func(rate float64, end time.Time) bool { return r.arriveAt(pool, rate, end) })
		}
		return interrupted
	})
}

// rateAt is the planned arrival rate at offset d into the plan.
func (o Open) rateAt(d time.Duration) float64 {
	a := o.StartRate
	for _, st := range o.Stages {
		if d < st.Duration {
			return a + (st.Target-a)*float64(d)/float64(st.Duration)
		}
		d -= st.Duration
		a = st.Target
	}
	return a
}

// warmWindow is how much of the first stage's arrivals the warm users
// could take with none of them back: a fast server's concurrency is a
// fraction of it, and a stall of the generator or the server shorter than
// it needs no new connection. A user's first connection costs about three
// requests' CPU; opened in a catch-up after a stall, they made the next
// stall longer, until the whole pool was busy and arrivals were dropped.
const warmWindow = 20 * time.Millisecond

// warmUsers is how many users of segment s get ready before the start: as
// many as arrivals in warmWindow at the first stage's rate (or the
// starting rate, if higher), and at least one, without opening the whole
// pool's connections for a pool sized for a slow server.
func (o Open) warmUsers(s Segment) int {
	rate := o.StartRate
	if len(o.Stages) > 0 {
		rate = max(rate, o.Stages[0].Target)
	}
	return min(o.Pool(s), 1+int(rate*warmWindow.Seconds())/s.count())
}

// dispatch hands the segment's arrivals to free users until the end of the
// stages. It reports whether Stop or Abort cut it short.
func (r *run) dispatch(s *Schedule, pool *idlePool) (interrupted bool) {
	sh := r.rec.Dispatcher()
	step := int64(r.seg.count())
	for k := int64(r.seg.Index); k < s.Len(); {
		due := r.at(s.At(k))
		now := time.Now()
		if now.Before(due) {
			if !r.sleepUntil(due) {
				return true
			}
			continue
		}
		if r.stopAsked() {
			return true
		}
		r.catchUp(pool, now.Sub(due))
		r.handOut(pool, sh, due)
		k += step
	}
	return !r.sleepUntil(r.at(s.Duration()))
}
