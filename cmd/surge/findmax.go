package main

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"net/url"
	"time"

	"github.com/spf13/cobra"

	"github.com/surge-load/surge"
	"github.com/surge-load/surge/analysis"
	"github.com/surge-load/surge/executor"
	"github.com/surge-load/surge/internal/report"
	"github.com/surge-load/surge/result"
	"github.com/surge-load/surge/scenario"
	"github.com/surge-load/surge/scenario/yamlfile"
	"github.com/surge-load/surge/search"
)

// findMaxFlags are the flags of `surge find-max`, as typed.
type findMaxFlags struct {
	requestFlags
	model      string
	users      string
	rate       string
	start      string
	factor     float64
	add        string
	step       time.Duration
	warmup     time.Duration
	budget     time.Duration
	max        string
	maxUsers   int
	think      string
	grace      time.Duration
	thresholds []string
	out        string
	checkpoint time.Duration // how often to write the search so far to out during a step
	quiet      bool
	cooldown   time.Duration
	health     string
	noConfirm  bool
}

func newFindMaxCmd() *cobra.Command {
	var f findMaxFlags
	var ff fileFlags
	cmd := &cobra.Command{
		Use:   "find-max [FILE | --url URL] (--users N | --rate R) [flags]",
		Short: "Find the maximum load a URL sustains, and why the next level fails",
		Long: `Step the load up, judge every step against the objectives (--threshold,
by default p95<1000ms and errors<1%), then narrow between the last good and
the first bad level within the budget. The first --warmup of every step is
not judged. The verdict names the maximum sustainable load, with its
throughput and p95, and why the next level failed: the latency objective,
the error objective (with the dominant error), a throughput plateau (the
service is saturated and queueing), or the service stopped answering. When
the generator itself saturated, the verdict is inconclusive: it never blames
the service for the generator.

Levels are users (closed model, --users N starts at N) or arrivals per
second (open model, --rate R starts at R). With a scenario FILE, each level
is every scenario's peak (as --users and --rate of surge run FILE set it) and
the file's timeline is fitted to the step; the file's thresholds are the
objectives unless --threshold is given, and its search section, if any,
gives the levels and steps that flags do not. See docs/find-max.md.

Exit codes: 0 a verdict was reached, 1 error or inconclusive (the generator
saturated), 2 invalid input, 4 interrupted (the result is still written).

With --out, the file is rewritten after every step, and every --checkpoint
(10s) during one, with the search so far, marked incomplete
("run.incomplete", "run.covered_s"), so that a search that is killed keeps
the steps it finished; the final result replaces it.`,
		Example: `  surge find-max --url http://127.0.0.1:8080/ --rate 50 --step-duration 10s --warmup 2s --budget 3m
  surge find-max --url http://127.0.0.1:8080/api --users 10 --step-add 10 --max 200 \
      --threshold 'p95<500ms' --threshold 'errors<0.5%' --out capacity.json
  surge find-max examples/logs-endless.yaml --users 10 --step-duration 30s --warmup 5s`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var file *yamlfile.File
			if len(args) == 1 {
				var err error
				if file, err = openFile(args[0], &ff); err != nil {
					return fileErrors(err)
				}
			}
			cfg, err := buildSearch(&f, &ff, file, cmd.Flags().Changed)
			if err != nil {
				return fileErrors(err)
			}
			return findMax(cmd, cfg, &f)
		},
	}
	fs := cmd.Flags()
	f.requestFlags.register(fs)
	ff.register(fs)
	f.requestFlags.input = &ff.inputFlags
	fs.StringVar(&f.model, "model", "", "what a level counts: users (closed model) or rate (open model); --users and --rate set it")
	fs.StringVar(&f.users, "users", "", "closed model, starting at this many virtual users")
	fs.StringVar(&f.rate, "rate", "", "open model, starting at this arrival rate, such as 50 or 50/s")
	fs.StringVar(&f.start, "start", "", "the first level, with --model")
	fs.Float64Var(&f.factor, "step-factor", 0, "multiply the level by this each step (default 2)")
	fs.StringVar(&f.add, "step-add", "", "add this to the level each step, instead of --step-factor")
	fs.DurationVar(&f.step, "step-duration", search.DefaultStep, "how long each level is held")
	fs.DurationVar(&f.warmup, "warmup", search.DefaultWarmup, "the start of each step that is not judged")
	fs.DurationVar(&f.budget, "budget", search.DefaultBudget, "the most time the whole search may take")
	fs.StringVar(&f.max, "max", "", "the highest level to try (default: no limit but the budget)")
	fs.IntVar(&f.maxUsers, "max-users", 0, "open model: the user pool of each step (default: twice the rate, at least 100)")
	fs.StringVar(&f.think, "think", "", "closed model: rest between iterations, fixed (1s) or a range (1s..3s)")
	fs.DurationVar(&f.grace, "grace", 30*time.Second, "at the end of each step, how long requests in flight may finish before they are interrupted")
	fs.StringArrayVar(&f.thresholds, "threshold", nil, "objective every step must meet, such as 'p95<500ms' or 'errors<1%' (repeatable; default p95<1000ms and errors<1%)")
	fs.StringVar(&f.out, "out", "", "write the result document, holding the capacity table, to this file")
	fs.DurationVar(&f.checkpoint, "checkpoint", 10*time.Second, "with --out, how often to write the search so far during a step, besides after every step (0: only at the end)")
	fs.BoolVarP(&f.quiet, "quiet", "q", false, "print no live progress")
	fs.DurationVar(&f.cooldown, "cooldown", 0, "pause before every step after the first, so that a service that degrades under load starts each step rested")
	fs.StringVar(&f.health, "health-check", "", "before every step after the first, GET this URL (after --cooldown) and note in the step and the verdict when it does not answer 2xx")
	fs.BoolVar(&f.noConfirm, "no-confirm", false, "do not hold the maximum found once more at the end to confirm it")
	return cmd
}

// buildSearch turns the flags into a search of the URL or, if file is not
// nil, of the scenario file, or says what is wrong with them. changed
// reports whether a flag was given.
func buildSearch(f *findMaxFlags, ff *fileFlags, file *yamlfile.File, changed func(string) bool) (search.Config, error) {
	var cfg search.Config
	var req surge.Request
	var err error
	var fileSearch *scenario.Search
	if file != nil {
		fileSearch = file.Spec.Search
	} else {
		for _, name := range fileOnly {
			if changed(name) {
				return cfg, fmt.Errorf("--%s applies to a scenario file: surge find-max FILE", name)
			}
		}
		if req, err = f.request(); err != nil {
			return cfg, err
		}
	}
	cfg, err = search.ConfigFrom(fileSearch, f.overrides(changed))
	if err != nil && file == nil {
		return cfg, err
	}
	if file != nil {
		var objectives []analysis.Threshold
		build, objectives, ferr := f.fileBuilder(file, ff, cfg.Model, changed)
		if err := file.Locate(err, ferr); err != nil {
			return cfg, err // the flags' problem, or the file's, with their positions
		}
		cfg.Build, cfg.Objectives = build, objectives
	}
	if f.grace < 0 {
		return cfg, fmt.Errorf("--grace %v must not be negative", f.grace)
	}
	if f.cooldown < 0 {
		return cfg, fmt.Errorf("--cooldown %v must not be negative", f.cooldown)
	}
	cfg.Cooldown, cfg.NoConfirm = f.cooldown, f.noConfirm
	if f.health != "" {
		u, err := url.Parse(f.health)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return cfg, fmt.Errorf("--health-check %q: want an absolute http:// or https:// URL, such as http://127.0.0.1:8080/healthz", f.health)
		}
		cfg.HealthCheck = search.HealthGET(f.health, 5*time.Second)
	}
	objectives, err := parseThresholds(f.thresholds)
	if err != nil {
		return cfg, err
	}
	if len(objectives) > 0 {
		cfg.Objectives = objectives
	}
	if file == nil {
		if cfg.Build, err = f.builder(req, cfg.Model, changed); err != nil {
			return cfg, err
		}
	}
	// Build the first and the last plan now, so that a bad URL or level is
	// reported as invalid input.
	for _, level := range []float64{cfg.Start, cfg.Max} {
		if level == 0 {
			continue
		}
		plan, err := cfg.Build(level, cfg.Step)
		if err == nil {
			err = plan.Validate()
		}
		if err != nil && file == nil {
			return cfg, modelError(err)
		}
		if err != nil {
			return cfg, err // a scenario file's problems, with their positions
		}
	}
	return cfg, nil
}

// overrides are the search settings the flags that were given set.
func (f *findMaxFlags) overrides(changed func(string) bool) search.Overrides {
	var o search.Overrides
	given := func(name string, s *string) *string {
		if changed(name) {
			return s
		}
		return nil
	}
	o.Model, o.Users, o.Rate, o.Start = given("model", &f.model), given("users", &f.users), given("rate", &f.rate), given("start", &f.start)
	o.Add, o.Max = given("step-add", &f.add), given("max", &f.max)
	if changed("step-factor") {
		o.Factor = &f.factor
	}
	for _, d := range []struct {
		name string
		flag *time.Duration
		to   **time.Duration
	}{{"step-duration", &f.step, &o.Step}, {"warmup", &f.warmup, &o.Warmup}, {"budget", &f.budget, &o.Budget}} {
		if changed(d.name) {
			*d.to = d.flag
		}
	}
	return o
}

// fileBuilder returns the search's Build for the scenario file, compiled
// for every step without being read again, and the file's thresholds.
func (f *findMaxFlags) fileBuilder(file *yamlfile.File, ff *fileFlags, model search.Model, changed func(string) bool) (search.Build, []analysis.Threshold, error) {
	for _, name := range append(singleOnly, "think") {
		if changed(name) {
			return nil, nil, fmt.Errorf("--%s applies to a single-URL search; with a scenario file, set it in the file", name)
		}
	}
	opts, err := ff.options(&f.requestFlags)
	if err != nil {
		return nil, nil, err
	}
	plan, err := file.Compile(opts)
	if err != nil {
		return nil, nil, err
	}
	return search.Compiled(model, opts, file.Compile), plan.Thresholds, nil
}

// builder returns the search's Build: a single-URL plan holding a level.
func (f *findMaxFlags) builder(req surge.Request, model search.Model, changed func(string) bool) (search.Build, error) {
	if model == search.Rate && changed("think") {
		return nil, errors.New("--think applies to the closed model (--users); the open model's pace is the rate")
	}
	if model == search.Users && changed("max-users") {
		return nil, errors.New("--max-users sizes the open model's pool; use it with --rate")
	}
	if changed("max-users") && f.maxUsers < 1 {
		return nil, fmt.Errorf("--max-users %d must be at least 1", f.maxUsers)
	}
	var think func(*rand.Rand) time.Duration
	if f.think != "" {
		p, err := parseThink(f.think)
		if err != nil {
			return nil, err
		}
		think = p.Draw
	}
	grace := f.grace
	return func(level float64, d time.Duration) (*surge.Plan, error) {
		hold := []executor.Stage{{Duration: d, Target: level}}
		var load executor.Load = executor.Closed{Start: int(level), Stages: hold, Think: think, Grace: grace}
		if model == search.Rate {
			pool := f.maxUsers
			if pool == 0 {
				pool = executor.DefaultPool(2 * level) // room for a step's queueing
			}
			load = executor.Open{StartRate: level, Stages: hold, MaxUsers: pool, Grace: grace}
		}
		return surge.SingleURL(req, load, nil)
	}, nil
}

// findMax runs the search with signal handling and progress, prints the
// capacity table, writes the result and turns the verdict into an exit
// code.
func findMax(cmd *cobra.Command, cfg search.Config, f *findMaxFlags) error {
	out := f.out
	if err := checkDestinations(destination{flag: "out", path: out}); err != nil {
		return err
	}
	if f.checkpoint < 0 {
		return invalid("--checkpoint %v must not be negative", f.checkpoint)
	}
	ctx, opts, release := interruptible(cmd.ErrOrStderr(), f.quiet)
	defer release()
	stdout, stderr := cmd.OutOrStdout(), cmd.ErrOrStderr()
	top := cfg.Start
	if cfg.Max > 0 {
		top = cfg.Max
	}
	if plan, err := cfg.Build(top, cfg.Step); err == nil {
		for _, w := range plan.Preflight() {
			fmt.Fprintf(stderr, "surge: warning: at %s: %s\n", report.Level(string(cfg.Model), top), w)
		}
	}
	cfg.Options = opts
	failedCheckpoints := func() int { return 0 }
	if out != "" && f.checkpoint > 0 {
		cfg.Checkpoint, failedCheckpoints = checkpointTo(stderr, out)
		cfg.Options.CheckpointEvery = f.checkpoint
	}
	cfg.OnStep = func(st result.CapacityStep) {
		fmt.Fprintln(stdout, report.CapacityStepLine(string(cfg.Model), &st))
	}
	res, err := search.Run(ctx, cfg)
	if err != nil {
		return &codeError{code: exitError, err: err}
	}
	if n := failedCheckpoints(); n > 0 {
		res.Generator.Warnings = append(res.Generator.Warnings, fmt.Sprintf("%d checkpoints of %s could not be written during the search", n, out))
	}
	report.CapacityTable(stdout, res.Capacity)
	if out != "" {
		if err := res.WriteFile(out); err != nil {
			return &codeError{code: exitError, err: err}
		}
		fmt.Fprintf(stdout, "\nResult written to %s (surge report %s prints the summary of the step at the maximum)\n", out, out)
	}
	switch res.Capacity.Verdict.Reason {
	case result.ReasonInterrupted:
		return &codeError{code: exitInterrupted, err: errors.New("the search was interrupted; the table covers what was measured")}
	case result.ReasonGenerator:
		return &codeError{code: exitError, err: errors.New("inconclusive: the generator saturated, so no capacity of the service was measured")}
	}
	return nil
}
