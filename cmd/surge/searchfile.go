package main

import (
	"fmt"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/surge-load/surge/scenario"
	"github.com/surge-load/surge/scenario/yamlfile"
	"github.com/surge-load/surge/search"
)

// fileSearch returns the search section of the scenario file at path: nil
// if it has none or cannot be read, in which case compiling the file
// reports why.
func fileSearch(path string, ff *fileFlags) *scenario.Search {
	var opts scenario.Options
	if ff.inputFlags.apply(&opts) != nil {
		return nil
	}
	src, err := yamlfile.ReadFile(path, opts)
	if err != nil {
		return nil
	}
	spec, _, err := yamlfile.Parse(path, src)
	if err != nil {
		return nil
	}
	return spec.Search
}

// withFileSearch sets the flags that a scenario file's search section gives
// and the command line does not, and returns a changed func that counts
// both, so that the command line always wins over the file.
func (f *findMaxFlags) withFileSearch(s *scenario.Search, changed func(string) bool) func(string) bool {
	set := map[string]bool{}
	num := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	if !changed("users") && !changed("rate") && !changed("model") && !changed("start") {
		if s.Model == string(search.Users) {
			f.users, set["users"] = num(s.Start), true
		} else {
			f.rate, set["rate"] = num(s.Start), true
		}
	}
	if !changed("step-factor") && !changed("step-add") {
		if s.Factor != 0 {
			f.factor, set["step-factor"] = s.Factor, true
		}
		if s.Add != 0 {
			f.add, set["step-add"] = num(s.Add), true
		}
	}
	if s.Max != 0 && !changed("max") {
		f.max, set["max"] = num(s.Max), true
	}
	if s.Step != 0 && !changed("step-duration") {
		f.step, set["step-duration"] = s.Step, true
	}
	if s.Warmup != 0 && !changed("warmup") {
		f.warmup, set["warmup"] = s.Warmup, true
	}
	if s.Budget != 0 && !changed("budget") {
		f.budget, set["budget"] = s.Budget, true
	}
	return func(name string) bool { return set[name] || changed(name) }
}

// searchFile runs the breaking-point search that the scenario file at path
// asks for with its search section, as `surge find-max FILE` would, with
// the flags of `surge run` that apply to a search.
func searchFile(cmd *cobra.Command, path string, rf *runFlags, ff *fileFlags, changed func(string) bool) error {
	for _, name := range []string{"users", "rate", "duration", "think"} {
		if changed(name) {
			return invalid("%s searches for the maximum load (its search section sets the levels); use surge find-max %s --%s … to override them", path, path, name)
		}
	}
	f := findMaxFlags{
		requestFlags: rf.requestFlags,
		thresholds:   rf.thresholds,
		out:          rf.out,
		checkpoint:   rf.checkpoint,
		quiet:        rf.quiet,
		grace:        rf.grace,
		step:         search.DefaultStep,
		warmup:       defaultStepWarmup,
		budget:       search.DefaultBudget,
	}
	cfg, err := buildSearch(&f, ff, path, changed)
	if err != nil {
		return fileErrors(err)
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "surge: %s has a search section: searching for the maximum load (%s from %g)\n", path, cfg.Model, cfg.Start)
	return findMax(cmd, cfg, &f)
}
