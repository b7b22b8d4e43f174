package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/surge-load/surge/internal/report"
	"github.com/surge-load/surge/result"
)

func newCompareCmd() *cobra.Command {
	var htmlPath string
	var failOn []string
	var md bool
	cmd := &cobra.Command{
		Use:   "compare BASE.json NEW.json [MORE.json ...] [-o compare.html] [--fail-on EXPR]",
		Short: "Compare runs: throughput, latency and errors side by side, with the change and whether it is noise",
		Long: `Compare two or more result documents. For the whole run and each endpoint, a
table shows every run's throughput (rps), latency percentiles (p50, p90, p95,
p99, max) and error rate, and each run's change from the run before it, in
percent (error rates in percentage points). A change is marked better or worse
only when it exceeds the noise of both runs, estimated from their per-second
variation (three standard errors); a smaller change is marked ~ (not
significant). Each run is named by its file name.

--fail-on (repeatable) fails the comparison for CI, with exit code 3, when the
last run regressed past a bound against the run before it, beyond the noise:
  [ENDPOINT:]METRIC>+N%   the metric rose by more than N percent (p95>+10%)
  [ENDPOINT:]METRIC<-N%   the metric fell by more than N percent (rps<-5%)
  errors>+Npp             the error rate rose by more than N percentage points
METRIC is rps, p50, p90, p95, p99, max or errors.

-o writes the comparison as a self-contained HTML page with the runs' charts
overlaid; --md prints the tables as Markdown.`,
		Example: `  surge compare base.json new.json
  surge compare base.json new.json -o compare.html
  surge compare base.json new.json --fail-on 'p95>+10%' --fail-on 'rps<-5%' --fail-on 'errors>+0.5pp'
  surge compare pool10.json pool20.json bulk1000.json bulk2000.json flushfix.json`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) < 2 {
				return invalid("compare needs two or more result files, such as surge compare base.json new.json")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkDestinations(destination{flag: "output", path: htmlPath}); err != nil {
				return err
			}
			bounds := make([]report.FailOn, 0, len(failOn))
			for _, expr := range failOn {
				f, err := report.ParseFailOn(expr)
				if err != nil {
					return invalid("%v", err)
				}
				bounds = append(bounds, f)
			}
			runs, err := readRuns(args)
			if err != nil {
				return err
			}
			c, err := report.Compare(runs)
			if err != nil {
				return invalid("%v", err)
			}
			var checks []report.FailOnResult
			var failed []string
			for i := range bounds {
				res, err := bounds[i].Check(c)
				if err != nil {
					return invalid("%v", err)
				}
				checks = append(checks, res)
				if res.Failed {
					failed = append(failed, res.Message)
				}
			}
			out := cmd.OutOrStdout()
			if md {
				report.CompareMarkdown(out, c)
			} else {
				report.CompareTable(out, c)
			}
			if len(checks) > 0 {
				fmt.Fprintln(out)
				for _, ch := range checks {
					mark := "ok  "
					if ch.Failed {
						mark = "FAIL"
					}
					fmt.Fprintf(out, "%s  %s\n", mark, ch.Message)
				}
			}
			if htmlPath != "" {
				if err := report.WriteCompareHTML(htmlPath, c, checks); err != nil {
					return &codeError{code: exitError, err: err}
				}
				fmt.Fprintf(out, "\nComparison written to %s\n", htmlPath)
			}
			if len(failed) > 0 {
				return &codeError{code: exitThresholds, err: fmt.Errorf("regression past --fail-on: %s", strings.Join(failed, "; "))}
			}
			return nil
		},
	}
	fs := cmd.Flags()
	fs.StringVarP(&htmlPath, "output", "o", "", "write the comparison as an HTML page to this file")
	fs.StringArrayVar(&failOn, "fail-on", nil, "exit 3 when the last run regressed past a bound, such as 'p95>+10%', 'rps<-5%', 'errors>+0.5pp' (repeatable)")
	fs.BoolVar(&md, "md", false, "print the tables as Markdown")
	return cmd
}

// readRuns reads the result files, each named by its file name; a name
// seen before gets its position appended.
func readRuns(paths []string) ([]report.Labeled, error) {
	runs := make([]report.Labeled, 0, len(paths))
	seen := map[string]bool{}
	for i, p := range paths {
		res, err := result.ReadFile(p)
		if err != nil {
			return nil, invalid("%v", err)
		}
		label := report.LabelOf(p)
		if seen[label] {
			label = fmt.Sprintf("%s#%d", label, i+1)
		}
		seen[label] = true
		runs = append(runs, report.Labeled{Label: label, File: p, Result: res})
	}
	return runs, nil
}
