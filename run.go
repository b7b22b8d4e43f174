package surge

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/surge-load/surge/analysis"
	"github.com/surge-load/surge/executor"
	"github.com/surge-load/surge/health"
	"github.com/surge-load/surge/metrics"
	"github.com/surge-load/surge/report"
)

// Version is surge's version, recorded in every result.
var Version = "0.1.0-dev"

// Options control a run from outside the plan.
type Options struct {
	// Abort, once closed, cancels operations in flight at once. Cancelling
	// Run's context is the gentle stop: no new work, in-flight work gets
	// the grace period.
	Abort <-chan struct{}
	// Progress, if not nil, receives live progress; TTY says whether it is
	// a terminal that can redraw a line.
	Progress io.Writer
	TTY      bool
	// StartAt is the agreed start of the run (for segments started on
	// several machines); zero means now.
	StartAt time.Time
	Segment executor.Segment
}

// Run carries out the plan and returns its result, with thresholds judged.
// A run stopped early by ctx or Abort still returns everything it measured,
// with Run.Interrupted set. The error is non-nil only if the run could not
// happen at all.
func Run(ctx context.Context, p *Plan, opts Options) (*metrics.Result, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	warnings := p.Preflight()

	rec := metrics.NewRecorder(0)
	if p.Setup != nil {
		if err := p.Setup(ctx, rec); err != nil {
			return nil, fmt.Errorf("setup: %w", err)
		}
	}
	factories := make([]executor.NewUser, len(p.Scenarios))
	for i, s := range p.Scenarios {
		factories[i] = s.Users(rec)
	}
	start := opts.StartAt
	if start.IsZero() {
		start = time.Now()
	}
	if p.Warmup > 0 {
		rec.SetWarmup(start.Add(p.Warmup))
	}
	probe := health.NewProbe()
	rec.Begin(start, probe)

	stopCh := make(chan struct{})
	release := context.AfterFunc(ctx, func() { close(stopCh) })
	defer release()
	abort := opts.Abort
	if abort == nil {
		abort = make(chan struct{})
	}

	var progressDone func()
	if opts.Progress != nil {
		pctx, cancel := context.WithCancel(context.Background())
		pr := &report.Progress{W: opts.Progress, TTY: opts.TTY, Total: p.Duration(), Live: rec.Live}
		var wg sync.WaitGroup
		wg.Add(1)
		go func() { defer wg.Done(); pr.Run(pctx) }()
		progressDone = func() { cancel(); wg.Wait() }
	}

	outcomes := make([]executor.Outcome, len(p.Scenarios))
	errs := make([]error, len(p.Scenarios))
	var wg sync.WaitGroup
	for i, s := range p.Scenarios {
		wg.Add(1)
		go func() {
			defer wg.Done()
			outcomes[i], errs[i] = s.Load.Run(executor.Env{
				Start:   start.Add(s.StartAfter),
				Stop:    stopCh,
				Abort:   abort,
				Segment: opts.Segment,
				NewUser: factories[i],
				Rec:     rec,
			})
		}()
	}
	wg.Wait()
	end := time.Now()
	rec.Finish(end)
	if progressDone != nil {
		progressDone()
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
	res.Tool = metrics.Tool{Name: "surge", Version: Version}
	res.Run.ID = runID(start)
	res.Run.Host, _ = os.Hostname()
	res.Run.Start, res.Run.End = start, end
	res.Run.Target = p.Target
	res.Run.Load = describe(p)
	res.Run.Segment = metrics.Segment{Index: opts.Segment.Index, Count: max(opts.Segment.Count, 1)}
	res.Run.Interrupted = interrupted
	if interrupted {
		res.Run.StopReason = "stopped before the plan's end"
		if context.Cause(ctx) != nil {
			res.Run.StopReason = context.Cause(ctx).Error()
		}
	}
	if p.Spec != nil {
		if b, err := json.Marshal(p.Spec); err == nil {
			res.Plan = b
		}
	}
	res.Generator.Cores = probe.Cores()
	res.Generator.Warnings = warnings
	analysis.JudgeGenerator(res)
	res.Collapse = analysis.DetectCollapse(res)
	analysis.Evaluate(res, p.Thresholds)
	return res, nil
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
