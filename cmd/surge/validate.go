package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/surge-load/surge/scenario"
	"github.com/surge-load/surge/scenario/yamlfile"
	"github.com/surge-load/surge/search"
)

func newValidateCmd() *cobra.Command {
	var ff fileFlags
	cmd := &cobra.Command{
		Use:   "validate FILE",
		Short: "Check a scenario file without sending a request",
		Long: `Check a scenario file as surge run does before any traffic: its keys and
types, durations, expressions and the names they use, weights, load models,
thresholds and the search section; data files are read. Every problem is reported with its
file:line:col and a short fix.

Exit codes: 0 valid, 2 invalid.`,
		Example: `  surge validate examples/folders-test1.yaml
  surge validate --env TOKEN=x test.yaml`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			env, err := parseEnv(ff.env)
			if err != nil {
				return invalid("%v", err)
			}
			opts := scenario.Options{Target: ff.target, Scenarios: ff.scenarios, Env: env}
			if err := ff.inputFlags.apply(&opts); err != nil {
				return invalid("%v", err)
			}
			file, err := yamlfile.Open(args[0], opts)
			if err != nil {
				return fileErrors(err)
			}
			plan, err := file.Compile(opts)
			if file.Spec.Search != nil {
				_, serr := search.ConfigFrom(file.Spec.Search, search.Overrides{})
				err = file.Locate(err, serr)
			}
			if err != nil {
				return fileErrors(err)
			}
			rows := len(plan.Endpoints())
			fmt.Fprintf(cmd.OutOrStdout(), "%s: valid: %d scenario(s), %d statistics row(s), planned to last %v\n",
				args[0], len(plan.Scenarios), rows, plan.Duration())
			for _, s := range plan.Scenarios {
				fmt.Fprintf(cmd.OutOrStdout(), "  %s: %s\n", s.Name, s.Describe)
			}
			return nil
		},
	}
	ff.register(cmd.Flags())
	return cmd
}
