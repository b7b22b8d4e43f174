package main

import (
	"github.com/spf13/cobra"

	"github.com/surge-load/surge/metrics"
	"github.com/surge-load/surge/report"
)

func newReportCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "report RESULT.json",
		Short: "Print the summary of a result document again",
		Long: `Print the end-of-test summary of a result document written by surge run --out.
The summary is rebuilt from the document alone, so it is the same as the one
printed at the end of the run, on any machine, at any later time.`,
		Example: "  surge report result.json",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			res, err := metrics.ReadFile(args[0])
			if err != nil {
				return invalid("%v", err)
			}
			report.Summary(cmd.OutOrStdout(), res)
			return nil
		},
	}
}
