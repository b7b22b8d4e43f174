package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/pflag"

	"github.com/surge-load/surge"
	"github.com/surge-load/surge/executor"
	"github.com/surge-load/surge/scenario"
	"github.com/surge-load/surge/scenario/yamlfile"
)

// fileFlags are the flags of `surge run FILE` that only a scenario file
// takes.
type fileFlags struct {
	target    string
	scenarios []string
	env       []string
	seed      uint64
	inputFlags
}

// register defines the scenario file flags on fs.
func (f *fileFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&f.target, "target", "", "scenario file: the base URL, replacing the file's target")
	fs.StringArrayVar(&f.scenarios, "scenario", nil, "scenario file: run only this scenario (repeatable)")
	fs.StringArrayVar(&f.env, "env", nil, "scenario file: a value for env() in the file, as NAME=VALUE (repeatable)")
	fs.Uint64Var(&f.seed, "seed", 0, "scenario file: seed of every random draw (pick, randInt, normal, zipf, ..., tasks, sleeps), to repeat a run's values exactly; 0 picks one, recorded in the result's plan.seed")
	f.inputFlags.register(fs)
}

// fileOnly are the flags of a run that only a scenario file takes.
var fileOnly = []string{"target", "scenario", "env", "seed"}

// singleOnly are the flags of a single-URL run that a scenario file sets
// itself.
var singleOnly = []string{"url", "method", "header", "body", "timeout", "stages", "max-users", "grace"}

// buildFilePlan compiles the scenario file with the overrides of the
// flags.
func buildFilePlan(file *yamlfile.File, f *runFlags, ff *fileFlags, changed func(string) bool) (*surge.Plan, error) {
	for _, name := range singleOnly {
		if changed(name) {
			return nil, fmt.Errorf("--%s applies to a single-URL run; with a scenario file, set it in the file", name)
		}
	}
	opts, err := ff.options(&f.requestFlags)
	if err != nil {
		return nil, err
	}
	if changed("users") {
		if f.users < 1 {
			return nil, fmt.Errorf("--users %d must be at least 1", f.users)
		}
		opts.Users = f.users
	}
	if changed("rate") {
		r, err := executor.ParseRate(f.rate)
		if err != nil || r <= 0 {
			return nil, fmt.Errorf("--rate %q must be a positive rate such as 100/s", f.rate)
		}
		opts.Rate = r
	}
	if changed("duration") {
		if f.duration <= 0 {
			return nil, fmt.Errorf("--duration %v must be positive", f.duration)
		}
		opts.Duration = f.duration
	}
	if changed("think") {
		p, err := parseThink(f.think)
		if err != nil {
			return nil, err
		}
		opts.Think = &p
	}
	if opts.Monitors, err = parseMonitors(f.monitors); err != nil {
		return nil, err
	}
	plan, err := file.Compile(opts)
	if err != nil {
		return nil, err
	}
	ths, err := parseThresholds(f.thresholds)
	if err != nil {
		return nil, err
	}
	plan.Thresholds = append(plan.Thresholds, ths...)
	return plan, plan.Validate()
}

// parseEnv parses NAME=VALUE pairs.
func parseEnv(pairs []string) (map[string]string, error) {
	env := map[string]string{}
	for _, p := range pairs {
		k, v, ok := strings.Cut(p, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("--env %q: want NAME=VALUE", p)
		}
		env[k] = v
	}
	return env, nil
}

// fileErrors turns the problems of a scenario file into the error of an
// invalid input: each problem on a line of its own, then their count.
func fileErrors(err error) error {
	var es scenario.Errors
	if !errors.As(err, &es) {
		return &codeError{code: exitInvalid, err: err}
	}
	n := "1 problem"
	if len(es) != 1 {
		n = fmt.Sprintf("%d problems", len(es))
	}
	if len(es) == scenario.MaxErrors {
		n = fmt.Sprintf("the first %d problems", len(es))
	}
	return &codeError{code: exitInvalid, err: fmt.Errorf("%w\n%s", es, n)}
}

// options returns the compile options of a scenario file that the file
// flags and the request flags rf set.
func (ff *fileFlags) options(rf *requestFlags) (scenario.Options, error) {
	env, err := parseEnv(ff.env)
	if err != nil {
		return scenario.Options{}, err
	}
	http, err := rf.httpOptions()
	if err != nil {
		return scenario.Options{}, err
	}
	opts := scenario.Options{Target: ff.target, Scenarios: ff.scenarios, Env: env, Seed: ff.seed, HTTP: http}
	return opts, ff.inputFlags.apply(&opts)
}
