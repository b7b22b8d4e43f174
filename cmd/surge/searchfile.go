package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/surge-load/surge/scenario"
	"github.com/surge-load/surge/scenario/yamlfile"
	"github.com/surge-load/surge/search"
)

// openFile reads and parses the scenario file at path, once for the
// command, within the bounds that the input flags set.
func openFile(path string, ff *fileFlags) (*yamlfile.File, error) {
	var opts scenario.Options
	if err := ff.inputFlags.apply(&opts); err != nil {
		return nil, err
	}
	return yamlfile.Open(path, opts)
}

// searchFile runs the breaking-point search that the scenario file asks
// for with its search section, as `surge find-max FILE` would, with the
// flags of `surge run` that apply to a search.
func searchFile(cmd *cobra.Command, file *yamlfile.File, rf *runFlags, ff *fileFlags, changed func(string) bool) error {
	path := file.Name
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
		warmup:       search.DefaultWarmup,
		budget:       search.DefaultBudget,
	}
	cfg, err := buildSearch(&f, ff, file, changed)
	if err != nil {
		return fileErrors(err)
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "surge: %s has a search section: searching for the maximum load (%s from %g)\n", path, cfg.Model, cfg.Start)
	return findMax(cmd, cfg, &f)
}
