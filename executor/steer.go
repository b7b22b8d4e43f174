package executor

import (
	"errors"
	"fmt"
	"math"
	"time"
)

// A Change alters a running load model from the moment it arrives (see
// Steerable). The rest of the plan is replaced: after a change the model
// holds its new level until the plan's planned end, or until the next
// change or Stop.
type Change struct {
	Op ChangeOp
	// Level is the new number of users (closed model) or arrivals per
	// second (open model), for SetLevel.
	Level float64
	// Done, if not nil, receives nil once the model has applied the change,
	// or why it could not. It must have room for one value.
	Done chan<- error
}

// The operations of a Change.
type ChangeOp int

const (
	// SetLevel sets the users or the arrival rate from now on.
	SetLevel ChangeOp = iota + 1
	// Hold starts no new work until Resume: the closed model's users stop
	// after their iteration, the open model plans no arrivals.
	Hold
	// Resume goes back to the level in force before Hold.
	Resume
)

func (op ChangeOp) String() string {
	switch op {
	case SetLevel:
		return "load"
	case Hold:
		return "hold"
	case Resume:
		return "resume"
	}
	return fmt.Sprintf("ChangeOp(%d)", int(op))
}

// Steerable is a load model that accepts Changes while it runs, through
// Env.Steer: the closed and the open model.
type Steerable interface {
	Load
	// LevelUnit names what a Change's Level counts: "users" or
	// "arrivals/s".
	LevelUnit() string
}

// LevelUnit implements Steerable.
func (Closed) LevelUnit() string { return "users" }

// LevelUnit implements Steerable.
func (Open) LevelUnit() string { return "arrivals/s" }

// errHeld is the answer to Resume when nothing is held.
var errNotHeld = errors.New("the load is not on hold")

// reply answers a change.
func (c *Change) reply(err error) {
	if c.Done != nil {
		c.Done <- err
	}
}

// checkLevel validates a new level.
func checkLevel(level, maxLevel float64, unit string) error {
	if math.IsNaN(level) || level < 0 || level > maxLevel {
		return fmt.Errorf("a level of %v %s is out of range: give 0 to %v", level, unit, maxLevel)
	}
	return nil
}

// maxOpenRate bounds the open model's steered rate, arrivals per second.
const maxOpenRate = 10_000_000

// steering is the level of a steered model.
type steering struct {
	level, before float64 // the level, and the one before Hold
	held          bool
	max           float64
	unit          string
}

// apply applies c and answers it.
func (s *steering) apply(c Change) {
	switch c.Op {
	case SetLevel:
		if err := checkLevel(c.Level, s.max, s.unit); err != nil {
			c.reply(err)
			return
		}
		s.level, s.held = c.Level, false
	case Hold:
		if !s.held {
			s.before, s.held = s.level, true
		}
	case Resume:
		if !s.held {
			c.reply(errNotHeld)
			return
		}
		s.level, s.held = s.before, false
	default:
		c.reply(fmt.Errorf("unknown change %v", c.Op))
		return
	}
	c.reply(nil)
}

// now is the level in force: zero while held.
func (s *steering) now() float64 {
	if s.held {
		return 0
	}
	return s.level
}

// steer applies r.pending and every change after it, running each level
// with hold until the planned end, Stop, or the next change. It reports
// whether Stop or Abort cut the run short.
func (r *run) steer(st *steering, planned time.Duration, hold func(level float64, end time.Time) bool) (interrupted bool) {
	end := r.at(planned)
	for {
		c := *r.pending
		r.pending = nil
		st.apply(c)
		if hold(st.now(), end) {
			return false
		}
		if r.pending == nil {
			return true
		}
	}
}

// arriveAt dispatches arrivals at a constant rate from now until end. It
// reports whether it reached end; if not, Stop, Abort or a change (in
// r.pending) came first.
func (r *run) arriveAt(pool *idlePool, rate float64, end time.Time) bool {
	if rate <= 0 {
		return r.sleepUntil(end)
	}
	sh := r.rec.Dispatcher()
	t0 := time.Now()
	for k := int64(r.seg.Index); ; k += int64(r.seg.count()) {
		due := t0.Add(time.Duration(float64(k) / rate * float64(time.Second)))
		if !due.Before(end) {
			return r.sleepUntil(end)
		}
		now := time.Now()
		if now.Before(due) {
			if !r.sleepUntil(due) {
				return false
			}
			now = time.Now()
		}
		if r.stopAsked() {
			return false
		}
		r.catchUp(pool, now.Sub(due))
		r.handOut(pool, sh, due)
	}
}
