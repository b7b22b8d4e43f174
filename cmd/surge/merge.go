package main

import (
	"errors"

	"github.com/spf13/cobra"

	"github.com/surge-load/surge/analysis"
	"github.com/surge-load/surge/metrics"
	"github.com/surge-load/surge/result"
)

func newMergeCmd() *cobra.Command {
	var out, reportPath string
	cmd := &cobra.Command{
		Use:   "merge PART.json... [-o merged.json]",
		Short: "Merge the results of a plan split over several machines",
		Long: `Merge the partial results of the segments of one plan (surge run --segment I/N
--start-at T on each machine) into the result a single run would have written:
counts add, histograms merge exactly and percentiles are recomputed from them.
The thresholds, the generator's health and collapse detection are then judged
once, on the whole. Exit codes as surge run: 3 if a threshold failed.`,
		Example: `  # on machine i of 4, all with the same agreed start:
  surge run plan.yaml --segment i/4 --start-at 2026-11-30T10:00:00Z --out part-i.json
  # then, anywhere:
  surge merge part-0.json part-1.json part-2.json part-3.json -o merged.json`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkDestinations(destination{flag: "out", path: out}, destination{flag: "report", path: reportPath}); err != nil {
				return err
			}
			parts := make([]*result.Result, len(args))
			for i, path := range args {
				r, err := result.ReadFile(path)
				if err != nil {
					return invalid("%v", err)
				}
				parts[i] = r
			}
			res, err := analysis.Merge(parts...)
			if err != nil {
				return partsError(args, err)
			}
			if err := metrics.CheckComplete(parts); err != nil {
				return invalid("%v", err)
			}
			return show(cmd, res, out, reportPath)
		},
	}
	cmd.Flags().StringVarP(&out, "out", "o", "", "write the merged result document to this file")
	cmd.Flags().StringVar(&reportPath, "report", "", "write the HTML report of the merged result to this file")
	return cmd
}

// partsError names the file of the part a merge check refused.
func partsError(paths []string, err error) error {
	var pe *metrics.PartError
	if errors.As(err, &pe) && pe.Part < len(paths) {
		return invalid("%s (part %d) %s", paths[pe.Part], pe.Part+1, pe.Reason)
	}
	return invalid("%v", err)
}
