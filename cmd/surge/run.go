package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"time"

	"github.com/spf13/cobra"

	"github.com/surge-load/surge"
	"github.com/surge-load/surge/collect"
	"github.com/surge-load/surge/executor"
	"github.com/surge-load/surge/internal/report"
	"github.com/surge-load/surge/result"
	"github.com/surge-load/surge/scenario"
)

// runFlags are the flags of `surge run`, as typed.
type runFlags struct {
	requestFlags
	users      int
	rate       string
	duration   time.Duration
	stages     string
	maxUsers   int
	think      string
	grace      time.Duration
	out        string
	checkpoint time.Duration // how often to write the result so far to out
	report     string        // the HTML report to write
	thresholds []string
	monitors   []string
	quiet      bool
	placementFlags
	live liveFlags
}

func newRunCmd() *cobra.Command {
	var f runFlags
	var ff fileFlags
	cmd := &cobra.Command{
		Use:   "run (FILE | --url URL (--users N | --rate R) --duration D) [flags]",
		Short: "Run a load test: a scenario file, or one URL",
		Long: `Run a load test and print a summary; --out writes the full result document.

Two load models:
  closed  --users N: N virtual users each send a request, wait for the answer,
          rest --think, and repeat. Throughput follows the server's speed.
  open    --rate R: requests arrive on a fixed schedule whatever the server
          does, served by up to --max-users users; an arrival that finds none
          free is counted as dropped. Latency counts from the scheduled time, so
          a stalled server shows in the percentiles (no coordinated omission).

--stages ramps either model: targets are users, or arrivals per second when
--rate is given (then --rate is the starting rate).

With a scenario FILE (see docs/scenarios.md), --target, --scenario and --env
apply, and --users, --rate, --duration and --think override the file:
--users and --rate set every scenario's peak, keeping its shape, and
--duration rescales the whole plan's timeline.

Exit codes: 0 passed, 1 error, 2 invalid input, 3 a threshold failed,
4 interrupted (Ctrl-C, SIGTERM or SIGHUP; the result is still written).

While the run goes on, --out is rewritten every --checkpoint (10s) with the
result so far, marked incomplete ("run.incomplete", "run.covered_s"), so a
generator that is killed (SIGKILL, the OOM killer, a crash) keeps all but
its last seconds; the final result replaces the last checkpoint.`,
		Example: `  surge run --url http://127.0.0.1:8080/ --users 50 --duration 30s
  surge run --url http://127.0.0.1:8080/api --rate 2000/s --duration 1m --max-users 500 \
      --threshold 'p95<100ms' --threshold 'errors<1%' --out result.json
  surge run --url http://127.0.0.1:8080/ --stages '30s:100,2m:100,10s:0'
  surge run --url http://127.0.0.1:8080/ --rate 0 --stages '1m:500,5m:500' --max-users 2000
  surge run --url http://127.0.0.1:8080/ --rate 200 --duration 10m --ui 127.0.0.1:8089 \
      --output influxdb=http://127.0.0.1:8086/write?db=surge
  surge run -X POST -H 'Content-Type: application/json' --body @payload.json \
      --url http://127.0.0.1:8080/api/v1/logs --users 10 --duration 1m`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			place, err := f.placementFlags.parse()
			if err != nil {
				return &codeError{code: exitInvalid, err: err}
			}
			if len(args) == 1 {
				file, err := openFile(args[0], &ff)
				if err != nil {
					return fileErrors(err)
				}
				if file.Spec.Search != nil {
					if place.collector != nil {
						return invalid("%s searches for the maximum load; --collector joins a run of a plan", args[0])
					}
					if f.live.ui != "" || len(f.live.outputs) > 0 {
						return invalid("%s searches for the maximum load; --ui and --output follow a run of one plan (drop them, or the file's search section)", args[0])
					}
					return searchFile(cmd, file, &f, &ff, cmd.Flags().Changed)
				}
				plan, err := buildFilePlan(file, &f, &ff, cmd.Flags().Changed)
				if err != nil {
					return fileErrors(err)
				}
				if err := f.live.apply(plan); err != nil {
					return err
				}
				return executeTo(cmd, plan, place, &f)
			}
			plan, err := buildRunPlan(&f, cmd.Flags().Changed)
			if err != nil {
				return &codeError{code: exitInvalid, err: err}
			}
			if err := f.live.apply(plan); err != nil {
				return err
			}
			return executeTo(cmd, plan, place, &f)
		},
	}
	fs := cmd.Flags()
	f.requestFlags.register(fs)
	ff.register(fs)
	f.requestFlags.input = &ff.inputFlags
	fs.IntVar(&f.users, "users", 0, "closed model: number of virtual users")
	fs.StringVar(&f.rate, "rate", "", "open model: arrival rate such as 2000, 2000/s or 100/1m")
	fs.DurationVar(&f.duration, "duration", 0, "how long to apply the load, such as 30s or 5m")
	fs.StringVar(&f.stages, "stages", "", "ramps as duration:target pairs, such as '30s:100,2m:100,10s:0'")
	fs.IntVar(&f.maxUsers, "max-users", 0, "open model: size of the user pool (default: the peak rate per second, at least 100)")
	fs.StringVar(&f.think, "think", "", "closed model: rest between iterations, fixed (1s) or a range (1s..3s)")
	fs.DurationVar(&f.grace, "grace", 30*time.Second, "at the end, how long requests in flight may finish before they are interrupted")
	fs.StringVar(&f.out, "out", "", "write the result document (JSON) to this file")
	fs.DurationVar(&f.checkpoint, "checkpoint", 10*time.Second, "with --out, how often to write the result so far during the run (0: only at the end)")
	fs.StringVar(&f.report, "report", "", "write the HTML report to this file")
	f.placementFlags.register(fs)
	f.live.register(fs)
	fs.StringArrayVar(&f.thresholds, "threshold", nil, "pass/fail objective such as 'p95<500ms', 'errors<1%', 'rps>100', 'GET /:p99<1s' (repeatable)")
	fs.StringArrayVar(&f.monitors, "monitor", nil, "watch a server during the run, as NAME=SPEC: api=process:nginx, api=process:1234, db=cgroup:PATH, app=container:ID, host=host, app=prometheus:URL (repeatable; docs/monitoring.md)")
	fs.BoolVarP(&f.quiet, "quiet", "q", false, "print no live progress")
	return cmd
}

// buildRunPlan turns the flags into a plan, or says what is wrong with them.
// changed reports whether a flag was given.
func buildRunPlan(f *runFlags, changed func(string) bool) (*surge.Plan, error) {
	for _, name := range fileOnly {
		if changed(name) {
			return nil, fmt.Errorf("--%s applies to a scenario file: surge run FILE", name)
		}
	}
	req, err := f.request()
	if err != nil {
		return nil, err
	}
	load, err := buildLoad(f, changed)
	if err != nil {
		return nil, err
	}
	ths, err := parseThresholds(f.thresholds)
	if err != nil {
		return nil, err
	}
	plan, err := surge.SingleURL(req, load, ths)
	if err != nil {
		return nil, err
	}
	if plan.Monitors, err = parseMonitors(f.monitors); err != nil {
		return nil, err
	}
	return plan, plan.Validate()
}

// buildLoad picks the load model from --users, --rate, --duration and --stages.
func buildLoad(f *runFlags, changed func(string) bool) (executor.Load, error) {
	closed, open := changed("users"), changed("rate")
	if closed && open {
		return nil, errors.New("choose --users (closed model) or --rate (open model), not both")
	}
	if changed("duration") && f.duration <= 0 {
		return nil, fmt.Errorf("--duration %v must be positive", f.duration)
	}
	if f.grace < 0 {
		return nil, fmt.Errorf("--grace %v must not be negative", f.grace)
	}
	var stages []executor.Stage
	switch {
	case changed("stages") && changed("duration"):
		return nil, errors.New("--stages sets the duration; drop --duration")
	case changed("stages"):
		var err error
		if stages, err = executor.ParseStages(f.stages); err != nil {
			return nil, fmt.Errorf("--stages: %w", modelError(err))
		}
	case !changed("duration"):
		return nil, errors.New("give --duration (such as --duration 30s) or --stages")
	}
	if changed("max-users") && !open {
		return nil, errors.New("--max-users sizes the open model's pool; use it with --rate")
	}
	if open {
		if changed("think") {
			return nil, errors.New("--think applies to the closed model (--users); the open model's pace is --rate")
		}
		rate, err := executor.ParseRate(f.rate)
		if err != nil {
			return nil, fmt.Errorf("--rate: %w", modelError(err))
		}
		if stages == nil {
			if rate <= 0 {
				return nil, fmt.Errorf("--rate %q must be positive", f.rate)
			}
			stages = []executor.Stage{{Duration: f.duration, Target: rate}}
		}
		pool := f.maxUsers
		if !changed("max-users") {
			pool = executor.DefaultPool(executor.Peak(rate, stages))
		}
		o := executor.Open{StartRate: rate, Stages: stages, MaxUsers: pool, Grace: f.grace}
		if err := o.Validate(); err != nil {
			return nil, modelError(err)
		}
		return o, nil
	}
	if closed && f.users < 1 {
		return nil, fmt.Errorf("--users %d must be at least 1", f.users)
	}
	if !closed && stages == nil {
		return nil, errors.New("choose a load: --users N (closed model) or --rate R (open model)")
	}
	if stages == nil {
		stages = []executor.Stage{{Duration: f.duration, Target: float64(f.users)}}
	}
	c := executor.Closed{Start: f.users, Stages: stages, Grace: f.grace}
	if f.think != "" {
		think, err := parseThink(f.think)
		if err != nil {
			return nil, err
		}
		c.Think = think.Draw
	}
	if err := c.Validate(); err != nil {
		return nil, modelError(err)
	}
	return c, nil
}

// parseThink parses --think: a duration (1s) or a range (1s..3s), as a
// scenario file's think (scenario.ParsePause, the one parser of pauses).
func parseThink(s string) (scenario.Pause, error) {
	p, err := scenario.ParsePause(s)
	if err != nil {
		return p, fmt.Errorf("--think: %w", err)
	}
	return p, nil
}

// modelError returns err, a load model's problem, as the error of a flag:
// what is wrong, without the package's name.
func modelError(err error) error { return errors.New(executor.Message(err)) }

// executeTo runs plan, placed as place says, with signal handling,
// progress and checkpoints, then shows and writes the result (see show).
func executeTo(cmd *cobra.Command, plan *surge.Plan, place placement, f *runFlags) error {
	out, reportPath := f.out, f.report
	if err := checkDestinations(destination{flag: "out", path: out}, destination{flag: "report", path: reportPath}); err != nil {
		return err
	}
	if f.checkpoint < 0 {
		return invalid("--checkpoint %v must not be negative", f.checkpoint)
	}
	ctx, opts, release := interruptible(cmd.ErrOrStderr(), f.quiet)
	defer release()
	opts.Segment, opts.StartAt = place.segment, place.startAt
	stderr := cmd.ErrOrStderr()
	failedCheckpoints := func() int { return 0 }
	if out != "" && f.checkpoint > 0 {
		opts.Checkpoint, failedCheckpoints = checkpointTo(stderr, out)
		opts.CheckpointEvery = f.checkpoint
	}
	for _, w := range plan.Preflight() {
		fmt.Fprintln(stderr, "surge: warning:", w)
	}
	if place.collector != nil && f.live.ui != "" {
		return invalid("--ui serves a run on this machine; a segment joined with --collector is followed from the collector (surge collect --ui)")
	}
	if place.collector != nil {
		return executePart(cmd, ctx, plan, opts, *place.collector, out, reportPath)
	}
	finishLive, err := f.live.serve(stderr, plan, &opts)
	if err != nil {
		return err
	}
	res, err := surge.Run(ctx, plan, opts)
	if err != nil {
		return &codeError{code: exitError, err: err}
	}
	if finishLive != nil {
		defer finishLive(res)
	}
	if n := failedCheckpoints(); n > 0 {
		res.Generator.Warnings = append(res.Generator.Warnings, fmt.Sprintf("%d checkpoints of %s could not be written during the run", n, out))
	}
	return show(cmd, res, out, reportPath)
}

// checkpointTo returns a checkpoint that writes the result so far to out,
// and the count of those that failed. A failure is said once on stderr; the
// run goes on, and the final result is written (or fails) at the end as
// usual.
func checkpointTo(stderr io.Writer, out string) (checkpoint func(*result.Result), failed func() int) {
	var n atomic.Int64
	return func(res *result.Result) {
		if err := res.WriteFile(out); err != nil && n.Add(1) == 1 {
			fmt.Fprintf(stderr, "surge: warning: checkpoint: %v (the run goes on; further failures are counted)\n", err)
		}
	}, func() int { return int(n.Load()) }
}

// executePart runs one segment of a split run that a collector coordinates
// and sends it the part. Thresholds are the collector's to judge, on the
// whole, so they do not decide this process's exit code.
func executePart(cmd *cobra.Command, ctx context.Context, plan *surge.Plan, opts surge.Options, cfg collect.RunnerConfig, out, reportPath string) error {
	cfg.Plan, cfg.Planned, cfg.Scenarios, cfg.Log = plan.Hash(), plan.Duration(), plan.EndpointScenarios(), cmd.ErrOrStderr()
	runner, err := collect.NewRunner(cfg)
	if err != nil {
		return invalid("--collector: %v", err)
	}
	opts.Coordinator, opts.Watch = runner, runner.Watch
	res, err := surge.Run(ctx, plan, opts)
	// The part goes to the collector even when this process was stopped.
	sendCtx := context.WithoutCancel(ctx)
	if err != nil {
		_ = runner.Fail(sendCtx, err)
		return &codeError{code: exitError, err: err}
	}
	if err := runner.Finish(sendCtx, res); err != nil {
		_ = show(cmd, res, out, reportPath)
		return &codeError{code: exitError, err: err}
	}
	fmt.Fprintln(cmd.OutOrStdout(), "\nThis is one segment of a split run: the collector judges the thresholds on the whole.")
	if err := show(cmd, res, out, reportPath); err != nil {
		var ce *codeError
		if errors.As(err, &ce) && ce.code == exitThresholds {
			return nil
		}
		return err
	}
	return nil
}

// show prints the summary of res, writes it to out and the HTML report to
// reportPath (each if not empty), and turns the verdict into an exit code.
func show(cmd *cobra.Command, res *result.Result, out, reportPath string) error {
	report.Summary(cmd.OutOrStdout(), res)
	if out != "" {
		if err := res.WriteFile(out); err != nil {
			return &codeError{code: exitError, err: err}
		}
		fmt.Fprintf(cmd.OutOrStdout(), "\nResult written to %s\n", out)
	}
	if reportPath != "" {
		if err := report.WriteHTML(reportPath, res); err != nil {
			return &codeError{code: exitError, err: err}
		}
		fmt.Fprintf(cmd.OutOrStdout(), "Report written to %s\n", reportPath)
	}
	return verdict(res)
}

// verdict maps a finished run to its exit code.
func verdict(res *result.Result) error {
	if res.Run.Interrupted {
		return &codeError{code: exitInterrupted, err: errors.New("the run was interrupted; the summary covers what was measured")}
	}
	if len(res.Run.Missing) > 0 {
		var segs []string
		for _, m := range res.Run.Missing {
			segs = append(segs, fmt.Sprintf("segment %d %s", m.Index, m.Reason))
		}
		return &codeError{code: exitError, err: fmt.Errorf("the result is incomplete: %s", strings.Join(segs, "; "))}
	}
	var failed []string
	for _, t := range res.Thresholds {
		if !t.OK {
			failed = append(failed, t.Expr)
		}
	}
	if len(failed) > 0 {
		return &codeError{code: exitThresholds, err: fmt.Errorf("thresholds failed: %s", strings.Join(failed, ", "))}
	}
	return nil
}
