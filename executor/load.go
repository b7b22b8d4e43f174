package executor

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/surge-load/surge/errclass"
	"github.com/surge-load/surge/metrics"
)

// An Iteration is one pass of a virtual user through its journey.
type Iteration struct {
	User int   // the virtual user's global id
	N    int64 // the user's iteration count, from 0
	// Intended is when the iteration was meant to start: the arrival time
	// in the open and burst models; the user's scheduled start or the end
	// of its think time in the closed and iterations models.
	Intended time.Time
	// Arrival is true when the iteration answers an arrival (open and
	// burst models): then its latency counts from Intended; see
	// LatencyFrom.
	Arrival bool
}

// LatencyFrom is when the journey's first operation counts its latency
// from (metrics.Sample.Intended). For an arrival it is the intended time,
// so that a stalled server cannot hide behind a generator that waited for
// it (coordinated omission). For a user that loops (closed and iterations
// models) it is zero, meaning the actual start: the user's own lateness
// after its think time is the generator's, recorded as scheduling lag, and
// never counted as the server's latency.
func (it Iteration) LatencyFrom() time.Time {
	if it.Arrival {
		return it.Intended
	}
	return time.Time{}
}

// A User is a virtual user.
type User interface {
	// Iterate makes one pass through the journey. When the run ends ctx is
	// cancelled with cause errclass.ErrInterrupted; Iterate must then
	// return promptly, since Run waits for it.
	Iterate(ctx context.Context, it Iteration)
}

// A Closer is a User that holds resources, such as its connections, to
// release when it stops. Every model calls Close once the user's loop has
// ended, after its last iteration; a user that starts again (a closed-model
// ramp up after a ramp down) must still work after Close.
type Closer interface {
	Close()
}

// A Warmer is a User that can get ready before the load starts, such as by
// opening the connection its first iteration will use, so that the first
// arrivals of the open model are not a storm of new connections. Warm is
// called on the user's own goroutine before the clock starts; its failures
// are its own business (the first iteration meets them).
type Warmer interface {
	Warm(ctx context.Context)
}

// closeUser releases u's resources, if it holds any.
func closeUser(u User) {
	if c, ok := u.(Closer); ok {
		c.Close()
	}
}

// NewUser makes the virtual user with the given global id. It is called once
// per user, possibly from several goroutines at once.
type NewUser func(id int) User

// A Load is a load model: Closed, Open, Iterations or Burst. What a model
// means for the plan around it is asked of the model, never found by its
// type: its description (String), the users it needs (PeakUsers) and the
// changes it allows (Looping, TimeScalable, UserScalable, RateScalable).
type Load interface {
	// String says in words what load the model applies, for people:
	// "open model: 100/s for 30s, up to 100 users".
	String() string
	// PeakUsers returns the most virtual users the model runs at once,
	// which is also the most connections it opens to a target.
	PeakUsers() int
	// Validate reports whether the model is well formed.
	Validate() error
	// Duration returns the planned length of the run, from the start to
	// the end of the last stage, without the grace period.
	Duration() time.Duration
	// Run runs the model and returns when every user has returned. It
	// fails only if the model or env is invalid.
	Run(env Env) (Outcome, error)
}

// Env is what a load model runs with.
type Env struct {
	// Start is the agreed start; the plan counts from it, and Run waits
	// for it if it is in the future. Zero means as soon as Run is ready.
	Start time.Time
	// Stop, once closed, stops new work; work in flight may finish within
	// the model's grace period.
	Stop <-chan struct{}
	// Abort, once closed, stops new work as Stop does and cancels work in
	// flight at once, grace or not.
	Abort <-chan struct{}
	// Segment is the share of the plan to run; the zero value is all of it.
	Segment Segment
	// NewUser makes the virtual users.
	NewUser NewUser
	// Rec receives the users and busy gauges, the generator's lateness
	// (Shard.Lag) and dropped arrivals (Shard.Dropped). Nil discards them.
	Rec *metrics.Recorder
	// Steer, if not nil, carries changes to a Steerable model while it
	// runs; other models never read it.
	Steer <-chan Change
	// Dropped, if not nil, counts this model's dropped arrivals as they
	// happen, for watchers of a run that has several models.
	Dropped *atomic.Int64
	// Ready, if not nil, lets the caller choose the start once the model
	// is ready for it: the model sends on Ready once what it makes
	// before the clock is made (the open and burst models' pools, their
	// warm users' connections), then takes its start from Begin instead
	// of Start. A start chosen before a pool of a thousand users was
	// made found the first arrivals already late, handed out at once to
	// more users than the pool had. Every model of this package honours
	// it; a Load of another package that does not must be run without.
	Ready chan<- struct{}
	Begin <-chan time.Time
}

// Outcome describes how a run went.
type Outcome struct {
	Started time.Time // the start of the plan: Env.Start, or when Run began
	// Stopped is when new work stopped: the planned end of the stages
	// (exactly, however late the scheduler noticed it), or when Stop or
	// Abort was closed.
	Stopped     time.Time
	Ended       time.Time // when all work in flight had returned
	Interrupted bool      // Stop or Abort came before the end of the stages
	Iterations  int64     // iterations started
	Dropped     int64     // arrivals that found no free user (open model)
}

// A run holds what both models share while running.
type run struct {
	env    Env
	seg    Segment
	rec    *metrics.Recorder
	start  time.Time
	ctx    context.Context // the iterations' context
	cancel context.CancelCauseFunc
	// stopped is closed when new work stops: at the planned end, on Stop
	// or on Abort; signalStopped ends the context WhenStopped waits on at
	// the same time.
	stopped       chan struct{}
	signalStopped context.CancelFunc
	users         sync.WaitGroup // one per user goroutine
	ended         chan struct{}  // closed when the run has ended (Outcome.Ended)
	timer         *time.Timer    // for the scheduling goroutine only

	pending *Change // a change sleepUntil received; see Steerable
	// catchUp's state: whether the dispatcher is behind, how many users
	// were busy when it fell behind, and whether it stopped waiting for
	// them until it has caught up.
	catchingUp, gaveUp bool
	busyBehind         int
	iterations         atomic.Int64
	dropped            *atomic.Int64
	out                Outcome
}

func newRun(env Env) (*run, error) {
	if env.NewUser == nil {
		return nil, errorf("Env.NewUser is nil")
	}
	if err := env.Segment.Validate(); err != nil {
		return nil, err
	}
	r := &run{
		env:     env,
		seg:     env.Segment,
		rec:     env.Rec,
		start:   env.Start,
		stopped: make(chan struct{}),
		ended:   make(chan struct{}),
		timer:   time.NewTimer(time.Hour),
	}
	r.timer.Stop()
	if r.dropped = env.Dropped; r.dropped == nil {
		r.dropped = new(atomic.Int64)
	}
	if r.rec == nil {
		r.rec = metrics.NewRecorder(1)
	}
	if r.start.IsZero() {
		r.start = time.Now()
	}
	r.ctx, r.cancel = context.WithCancelCause(context.Background())
	var stopped context.Context
	stopped, r.signalStopped = context.WithCancel(context.Background())
	r.ctx = context.WithValue(r.ctx, stoppedKey{}, stopped)
	if env.Abort != nil {
		go func() {
			select {
			case <-env.Abort:
				r.cancel(errclass.ErrInterrupted)
			case <-r.ended:
			}
		}()
	}
	r.out.Started = r.start
	return r, nil
}

// await tells Env.Ready that the model is ready and takes the start from
// Env.Begin; without Ready it returns at once. It returns false if Stop
// or Abort came first.
func (r *run) await() bool {
	if r.env.Ready == nil {
		return true
	}
	r.env.Ready <- struct{}{}
	select {
	case t := <-r.env.Begin:
		r.start, r.out.Started = t, t
		return true
	case <-r.env.Stop:
	case <-r.env.Abort:
	}
	return false
}

// at returns the absolute time of offset d into the plan.
func (r *run) at(d time.Duration) time.Time { return r.start.Add(d) }

// stopAsked reports whether Stop or Abort has been closed.
func (r *run) stopAsked() bool {
	select {
	case <-r.env.Stop:
		return true
	case <-r.env.Abort:
		return true
	default:
		return false
	}
}

// sleepUntil waits until t. It returns false, early, if Stop or Abort is
// closed first, or a Change arrives on Env.Steer (then r.pending holds
// it). Only the scheduling goroutine may call it.
func (r *run) sleepUntil(t time.Time) bool {
	d := time.Until(t)
	if d <= 0 {
		select {
		case c := <-r.env.Steer:
			r.pending = &c
			return false
		default:
		}
		return !r.stopAsked()
	}
	r.timer.Reset(d)
	select {
	case <-r.timer.C:
		return true
	case <-r.env.Stop:
	case <-r.env.Abort:
	case c := <-r.env.Steer:
		r.pending = &c
	}
	r.timer.Stop()
	return false
}

// stop stops new work: it records when, and closes stopped. planned is the
// plan's length; a plan that ran to its end stopped at it.
func (r *run) stop(interrupted bool, planned time.Duration) {
	r.out.Stopped = time.Now()
	if !interrupted && planned > 0 {
		// The plan ran to its end: the load period is the planned one,
		// however late the scheduler woke to notice it.
		r.out.Stopped = r.at(planned)
	}
	r.out.Interrupted = interrupted
	close(r.stopped)
	r.signalStopped()
}

// wait gives the users grace to finish, then cancels their context with
// cause errclass.ErrInterrupted, and returns the outcome once all returned.
func (r *run) wait(grace time.Duration) Outcome {
	all := make(chan struct{})
	go func() {
		r.users.Wait()
		close(all)
	}()
	t := time.NewTimer(grace)
	select {
	case <-all:
	case <-t.C:
		r.cancel(errclass.ErrInterrupted)
		<-all
	}
	t.Stop()
	r.cancel(errclass.ErrInterrupted) // nothing uses it now; release it
	close(r.ended)
	r.out.Ended = time.Now()
	r.out.Iterations = r.iterations.Load()
	r.out.Dropped = r.dropped.Load()
	return r.out
}

// iterate runs one iteration of u, keeping the busy gauge.
func (r *run) iterate(u User, it Iteration) {
	r.rec.AddBusy(1)
	defer r.rec.AddBusy(-1)
	u.Iterate(r.ctx, it)
}
