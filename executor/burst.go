package executor

import (
	"fmt"
	"time"
)

// Burst is a recurring burst: at the start and then every Every until
// Length, Size arrivals at once, such as "every 10m, 100 at once". Each
// arrival starts one iteration on a free user of a pool of Size users
// created before the start, and its Intended time is the time of its burst,
// so latency counts from the burst however long the generator takes to hand
// the arrivals out. As in the open model, an arrival that finds every user
// busy (still serving an earlier burst) is dropped and counted with
// metrics.Shard.Dropped, never queued.
//
// Arrivals are numbered globally: arrival j of burst b is b*Size+j. A
// segment of a split plan takes the arrivals k with k%Count == Index and a
// pool of ceil(Size/Count) users, whose global ids are i*Count+Index.
type Burst struct {
	Every  time.Duration // the period of the bursts
	Size   int           // arrivals per burst
	Length time.Duration // no burst starts at or after Length
	// Grace is how long iterations in flight at the end may take to finish
	// before they are interrupted.
	Grace time.Duration
}

// maxBurst bounds Burst.Size.
const maxBurst = 1_000_000

// Validate reports whether b is a well-formed plan.
func (b Burst) Validate() error {
	switch {
	case b.Every <= 0:
		return errorf("burst period %v is not positive", b.Every)
	case b.Size < 1 || b.Size > maxBurst:
		return errorf("burst size %d is not between 1 and %d", b.Size, maxBurst)
	case b.Length <= 0:
		return errorf("length %v is not positive", b.Length)
	case b.Grace < 0:
		return errorf("grace %v is negative", b.Grace)
	}
	return nil
}

// Duration returns Length, the length of the run.
func (b Burst) Duration() time.Duration { return b.Length }

// Bursts returns how many bursts the plan has.
func (b Burst) Bursts() int64 {
	if b.Every <= 0 || b.Length <= 0 {
		return 0
	}
	return int64((b.Length-1)/b.Every) + 1
}

// Pool returns the number of users segment s creates: ceil(Size/Count).
func (b Burst) Pool(s Segment) int {
	n := s.count()
	return (b.Size + n - 1) / n
}

// String says in words what load b applies.
func (b Burst) String() string {
	return fmt.Sprintf("bursts of %d every %v for %v", b.Size, Round(b.Every), Round(b.Length))
}

// Run runs the plan; see Load.
//
// The pool is the open model's: idle users wait on a stack, each arrival
// goes to the most recently idle one, and an arrival that finds none is
// dropped. Every user is idle before the start, so the whole first burst
// finds the pool ready even when it is due at once.
func (b Burst) Run(env Env) (Outcome, error) {
	if err := b.Validate(); err != nil {
		return Outcome{}, err
	}
	return runPool(env, b.Pool, 0, b.Length, b.Grace, func(r *run, pool *idlePool) bool {
		return r.dispatchBursts(b, pool)
	})
}

// dispatchBursts hands out the segment's arrivals burst by burst until the
// end. It reports whether Stop or Abort cut it short.
func (r *run) dispatchBursts(b Burst, pool *idlePool) (interrupted bool) {
	sh := r.rec.Dispatcher()
	n := r.seg.count()
	for burst := range int(b.Bursts()) {
		due := r.at(time.Duration(burst) * b.Every)
		if !r.sleepUntil(due) {
			return true
		}
		for k := r.seg.first(burst * b.Size); k < (burst+1)*b.Size; k += n {
			if r.stopAsked() {
				return true
			}
			r.handOut(pool, sh, due)
		}
	}
	return !r.sleepUntil(r.at(b.Length))
}
