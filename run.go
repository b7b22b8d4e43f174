package surge

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/surge-load/surge/analysis"
	"github.com/surge-load/surge/executor"
	"github.com/surge-load/surge/health"
	"github.com/surge-load/surge/livemetrics"
	"github.com/surge-load/surge/metrics"
	"github.com/surge-load/surge/monitor"
	"github.com/surge-load/surge/result"
)

// Version is surge's version, recorded in every result.
var Version = "0.1.0-dev"

// Options control a run from outside the plan.
type Options struct {
	// Abort, once closed, aborts the run: operations in flight are
	// cancelled at once. Cancelling Run's context is a Stop: no new work,
	// and work in flight gets the grace period (docs/architecture.md,
	// "Stopping").
	Abort <-chan struct{}
	// Progress, if not nil, receives the run's live figures once a second
	// while the load runs, and Done when it has ended.
	Progress Progress
	// StartAt is the agreed start of the run (for segments started on
	// several machines); zero means now.
	StartAt time.Time
	Segment executor.Segment
	// Checkpoint, if not nil, receives a result of the run so far about
	// every CheckpointEvery (10 seconds if zero) while the run goes on,
	// marked incomplete (result.Run.Incomplete) with the time it covers,
	// so that a generator killed mid-run keeps all but its last seconds.
	// It is called from a goroutine of its own, one call at a time; a slow
	// Checkpoint delays the next checkpoint, never the load. Run returns
	// only after the last call has returned.
	Checkpoint      func(*result.Result)
	CheckpointEvery time.Duration
	// Coordinator, if not nil, places the run in a split run coordinated
	// by another process: it decides which segment runs the setup, fixes
	// the common start (StartAt is then ignored) and receives the series
	// as it happens.
	Coordinator Coordinator
	// Metrics, if not nil, receives every second of the run, for a
	// /metrics endpoint (package livemetrics).
	Metrics *livemetrics.Set
	// OnTick, if not nil, receives every second of the run as the
	// recorder folds it (metrics.Recorder.OnTick): it must not block.
	OnTick func(*metrics.Tick)
	// Watch, if not nil, receives the run so far, judged as the final
	// result is, after every second of the run (the live page). It runs on
	// a goroutine of its own; while it is busy, seconds are skipped, and
	// the load never waits for it.
	Watch func(*result.Result)
	// Control, if not nil, steers the run from other goroutines: stop,
	// abort, and changes of load, recorded in the result's timeline.
	Control *Controller
}

// A Progress shows a run while it goes, such as a status line on a
// terminal. Its calls come from a goroutine of Run's own, one at a time; a
// slow Progress delays its next call, never the load.
type Progress interface {
	// Live receives the last ten seconds of the run; planned is the
	// plan's duration.
	Live(l metrics.Live, planned time.Duration)
	// Done is called once, when the load has ended.
	Done()
}

// A Coordinator joins a run to the other segments of a split run (package
// collect's Runner is one). Run calls Join, then runs the plan's setup if
// told to, then Start; from the start on, Tick receives every interval.
type Coordinator interface {
	// Join registers the run and waits until the split run may begin. It
	// reports whether this process runs the plan's setup for every segment.
	Join(ctx context.Context) (runSetup bool, err error)
	// Start hands over the outcome of the setup run here (captured values,
	// or the error that stopped it), or nothing when it ran elsewhere, and
	// waits for the common start. It returns the start and the values
	// captured by the setup, wherever it ran.
	Start(ctx context.Context, captured json.RawMessage, setupErr error) (start time.Time, shared json.RawMessage, err error)
	// Tick receives each interval of the run as soon as it ends, with the
	// arrivals dropped so far by each scenario (running totals). It
	// runs on the recorder's collector goroutine and must not block.
	Tick(t *metrics.Tick, droppedByScenario map[string]int64)
}

// defaultCheckpointEvery is how often Run checkpoints when
// Options.CheckpointEvery is zero.
const defaultCheckpointEvery = 10 * time.Second

// startMargin is how far ahead of the moment every model is ready a run
// of its own starts: time for its recorder, outputs and monitors to begin.
const startMargin = 10 * time.Millisecond

// Run carries out the plan and returns its result, with thresholds judged.
// A run that a Stop (ctx) or Abort cut short still returns everything it
// measured, with Run.Interrupted set. The error is non-nil only if the run could not
// happen at all.
func Run(ctx context.Context, p *Plan, opts Options) (*result.Result, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	warnings := p.Preflight()

	rec := metrics.NewRecorder(0)
	start, err := begin(ctx, p, opts, rec)
	if err != nil {
		return nil, err
	}
	factories := make([]executor.NewUser, len(p.Scenarios))
	for i, s := range p.Scenarios {
		factories[i] = s.Users(rec)
	}
	w := newWatchers(p, &opts)

	outcomes := make([]executor.Outcome, len(p.Scenarios))
	errs := make([]error, len(p.Scenarios))
	var wg sync.WaitGroup
	// launch runs the scenarios; with begins, each model makes its users
	// first, says so on its ready channel and waits for its start.
	launch := func(start time.Time, stopCh, abort <-chan struct{}, steer []chan executor.Change, ready []chan struct{}, begins []chan time.Time) {
		for i, s := range p.Scenarios {
			env := executor.Env{
				Start:   start.Add(s.StartAfter),
				Stop:    stopCh,
				Abort:   abort,
				Segment: opts.Segment,
				NewUser: factories[i],
				Rec:     rec,
				Dropped: w.droppedOf(i),
				Steer:   steerOf(steer, i),
			}
			if begins != nil {
				env.Start, env.Ready, env.Begin = time.Time{}, ready[i], begins[i]
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				outcomes[i], errs[i] = s.Load.Run(env)
				if ready != nil {
					select { // a model that failed before it was ready
					case ready[i] <- struct{}{}:
					default:
					}
				}
			}()
		}
	}
	// A run of its own (no coordinator, no agreed start, no live
	// control) starts once every model has made its users: a start taken
	// before the open model's pool was made and warmed found its first
	// arrivals late by as long as that took, handed out at once to more
	// users than the pool had (dropped), and the first second's latency
	// was the making's.
	var early struct {
		stopCh  chan struct{}
		abort   <-chan struct{}
		begins  []chan time.Time
		started bool
	}
	if opts.Coordinator == nil && opts.StartAt.IsZero() && opts.Control == nil {
		early.stopCh = make(chan struct{})
		release := context.AfterFunc(ctx, func() { close(early.stopCh) })
		defer release()
		early.abort = opts.Abort
		if early.abort == nil {
			early.abort = make(chan struct{})
		}
		ready := make([]chan struct{}, len(p.Scenarios))
		early.begins = make([]chan time.Time, len(p.Scenarios))
		for i := range ready {
			ready[i], early.begins[i] = make(chan struct{}, 1), make(chan time.Time, 1)
		}
		launch(time.Time{}, early.stopCh, early.abort, nil, ready, early.begins)
		for _, c := range ready {
			<-c
		}
		// The start leaves the recorder, the outputs and the monitors
		// the moment they take to begin below.
		start, early.started = time.Now().Add(startMargin), true
	}
	if p.Warmup > 0 {
		rec.SetWarmup(start.Add(p.Warmup))
	}
	probe := health.NewProbe()
	if w != nil {
		w.begin(rec, start)
	}
	rec.Begin(start, probe)
	var watch *monitor.Sampling
	if len(p.Monitors) > 0 && opts.Segment.Index == 0 {
		watch = monitor.Start(p.Monitors, start)
	}

	var steer []chan executor.Change
	abort := opts.Abort
	if opts.Control != nil {
		var cancel context.CancelCauseFunc
		ctx, cancel = context.WithCancelCause(ctx)
		defer cancel(nil)
		var cabort <-chan struct{}
		cabort, steer = opts.Control.attach(p, start, cancel)
		abort = either(abort, cabort)
	}
	stopCh := early.stopCh
	if !early.started {
		stopCh = make(chan struct{})
		release := context.AfterFunc(ctx, func() { close(stopCh) })
		defer release()
	}
	if abort == nil {
		abort = make(chan struct{})
	}
	if early.started {
		abort = early.abort
	}

	var progressDone func()
	if opts.Progress != nil {
		progressDone = showProgress(opts.Progress, rec.Live, p.Duration())
	}

	id := runID(start)
	stopCheckpoints := p.checkpoints(rec, id, start, probe, warnings, opts)
	if w != nil && opts.Watch != nil {
		w.watching(opts.Watch, func() *result.Result {
			res := rec.Checkpoint()
			if watch != nil {
				res.Monitor = watch.Snapshot()
				res.Monitor.Segment = opts.Segment.Index
			}
			p.complete(res, id, start.Add(time.Duration(res.Run.CoveredS*float64(time.Second))), probe, warnings, opts)
			if opts.Control != nil {
				res.Timeline = opts.Control.Events()
			}
			return res
		})
	}

	if early.started {
		for i, s := range p.Scenarios {
			early.begins[i] <- start.Add(s.StartAfter)
		}
	} else {
		launch(start, stopCh, abort, steer, nil, nil)
	}
	wg.Wait()
	stopCheckpoints()
	end := time.Now()
	rec.Finish(end)
	var watched *result.Monitor
	if watch != nil {
		watched = watch.Stop()
		watched.Segment = opts.Segment.Index
	}
	if progressDone != nil {
		progressDone()
	}
	var outputs []result.OutputStats
	if w != nil {
		outputs = w.finish()
	}
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("scenario %q: %w", p.Scenarios[i].Name, err)
		}
	}

	stopped := start
	interrupted := false
	for _, o := range outcomes {
		if o.Stopped.After(stopped) {
			stopped = o.Stopped
		}
		interrupted = interrupted || o.Interrupted
	}
	res := rec.Result(stopped.Sub(start))
	res.Monitor = watched
	res.Run.Interrupted = interrupted
	if interrupted {
		res.Run.StopReason = "stopped before the plan's end"
		if context.Cause(ctx) != nil {
			res.Run.StopReason = context.Cause(ctx).Error()
		}
	}
	res.Outputs = outputs
	if opts.Control != nil {
		res.Timeline = opts.Control.detach()
	}
	p.complete(res, id, end, probe, warnings, opts)
	return res, nil
}

// steerOf is scenario i's steering channel, if any.
func steerOf(steer []chan executor.Change, i int) <-chan executor.Change {
	if i < len(steer) && steer[i] != nil {
		return steer[i]
	}
	return nil
}

// either returns a channel closed when a or b is; nil channels never are.
func either(a, b <-chan struct{}) <-chan struct{} {
	if a == nil {
		return b
	}
	c := make(chan struct{})
	go func() {
		select {
		case <-a:
		case <-b:
		}
		close(c)
	}()
	return c
}

// complete fills in what the recorder does not know of a result (the tool,
// the run's metadata, the plan), judges it (the generator's health,
// collapse and the thresholds), and sanitizes it: no secret or raw control
// character reaches an output.
func (p *Plan) complete(res *result.Result, id string, end time.Time, probe *health.Probe, warnings []string, opts Options) {
	res.Tool = result.Tool{Name: "surge", Version: Version}
	res.Run.ID = id
	res.Run.Host, _ = os.Hostname()
	res.Run.End = end
	res.Run.Target = p.Target
	res.Run.Load = describe(p)
	res.Run.Segment = result.Segment{Index: opts.Segment.Index, Count: max(opts.Segment.Count, 1)}
	res.Run.PlanHash = p.Hash()
	if p.Spec != nil {
		if b, err := json.Marshal(p.Spec); err == nil {
			res.Plan = b
		}
	}
	res.Generator.Cores = probe.Cores()
	res.Generator.Warnings = append([]string{}, warnings...)
	analysis.Judge(res, p.Thresholds)
	res.Sanitize()
}

// checkpoints hands opts.Checkpoint a result of the run so far at every
// checkpoint interval, until stop is called; stop returns after the last
// call has returned.
func (p *Plan) checkpoints(rec *metrics.Recorder, id string, start time.Time, probe *health.Probe, warnings []string, opts Options) (stop func()) {
	if opts.Checkpoint == nil {
		return func() {}
	}
	every := opts.CheckpointEvery
	if every <= 0 {
		every = defaultCheckpointEvery
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
			}
			res := rec.Checkpoint()
			res.Run.StopReason = fmt.Sprintf("checkpoint: the run was still going; this covers its first %.0fs", res.Run.CoveredS)
			p.complete(res, id, start.Add(time.Duration(res.Run.CoveredS*float64(time.Second))), probe, warnings, opts)
			opts.Checkpoint(res)
		}
	}()
	return func() { close(done); wg.Wait() }
}

// begin runs the plan's setup, or adopts the values a setup run elsewhere
// captured, and returns the start of the load.
func begin(ctx context.Context, p *Plan, opts Options, rec *metrics.Recorder) (time.Time, error) {
	c := opts.Coordinator
	if c == nil {
		if p.Setup != nil {
			if _, err := p.Setup(ctx, rec); err != nil {
				return time.Time{}, fmt.Errorf("setup: %w", err)
			}
		}
		if opts.StartAt.IsZero() {
			return time.Now(), nil
		}
		return opts.StartAt, nil
	}
	runSetup, err := c.Join(ctx)
	if err != nil {
		return time.Time{}, err
	}
	var captured json.RawMessage
	var setupErr error
	// A plan without Adopt cannot take values captured elsewhere: each
	// segment runs its setup itself.
	if (runSetup || p.Adopt == nil) && p.Setup != nil {
		if captured, setupErr = p.Setup(ctx, rec); setupErr != nil {
			setupErr = fmt.Errorf("setup: %w", setupErr)
		}
	}
	if !runSetup {
		captured = nil
	}
	start, shared, err := c.Start(ctx, captured, setupErr)
	if setupErr != nil {
		return time.Time{}, setupErr
	}
	if err != nil {
		return time.Time{}, err
	}
	if !runSetup && p.Adopt != nil {
		if err := p.Adopt(shared); err != nil {
			return time.Time{}, fmt.Errorf("adopt the setup's values: %w", err)
		}
	}
	return start, nil
}

func describe(p *Plan) string {
	parts := make([]string, 0, len(p.Scenarios))
	for _, s := range p.Scenarios {
		d := s.Describe
		if len(p.Scenarios) > 1 {
			d = s.Name + ": " + d
		}
		parts = append(parts, d)
	}
	return strings.Join(parts, "; ")
}

// runID makes an identifier that sorts by start time and is unique across
// machines.
func runID(start time.Time) string {
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	return start.UTC().Format("20060102T150405Z") + "-" + hex.EncodeToString(b)
}
