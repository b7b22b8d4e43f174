package main

import (
	"fmt"
	"os"
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
		Use:   "compare BASE.json NEW.json [MORE.json ...] | A1.json [A2.json ...] -- B1.json [B2.json ...] [-o compare.html] [--fail-on EXPR]",
		Short: "Compare runs: throughput, latency and errors side by side, with the change and whether it is noise",
		Long: `Compare two or more result documents. For the whole run and each endpoint, a
table shows every run's throughput (rps), latency percentiles (p50, p90, p95,
p99, max) and error rate, and each run's change from the run before it, in
percent (error rates in percentage points). A change is marked better or worse
only when it exceeds the noise of both runs, estimated from their seconds
(three standard errors; percentiles by a bootstrap over the seconds); a
smaller change is marked ~ (not significant), and so is a latency change that
the generator's own scheduling lag explains. Each run is named by its file
name.

With --, the files before it are several runs of one system and the files
after it several runs of another (A1 A2 A3 -- B1 B2; more -- make more
sides, each against the one before): each side's metric is the mean of its
runs, and its noise the spread between them (at least the runs' own), so
drift from run to run that no single run shows is counted. Without --,
every file is a run of its own and more than two make a sequence.

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
  surge compare pool10.json pool20.json bulk1000.json bulk2000.json flushfix.json
  surge compare base-1.json base-2.json base-3.json -- new-1.json new-2.json`,
		Args: func(cmd *cobra.Command, args []string) error {
			if cmd.ArgsLenAtDash() < 0 && len(args) < 2 {
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
			sides, err := compareSides(args, cmd.ArgsLenAtDash())
			if err != nil {
				return err
			}
			runs, err := readRuns(sides)
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

// compareSides groups the files of surge compare: each file a run of its
// own without --, or the files between -- as the runs of one side (dash is
// where cobra saw the first --, negative if it saw none; later ones arrive
// as arguments).
func compareSides(args []string, dash int) ([][]string, error) {
	if dash < 0 {
		sides := make([][]string, len(args))
		for i, a := range args {
			sides[i] = []string{a}
		}
		return sides, nil
	}
	sides := [][]string{args[:dash:dash], nil}
	for _, a := range args[dash:] {
		if strings.HasPrefix(a, "-") && a != "--" {
			if _, err := os.Stat(a); err != nil {
				return nil, invalid("compare: %s after --: everything after -- is a result file; give options before it, as in surge compare --md a1.json a2.json -- b1.json b2.json", a)
			}
		}
		if a == "--" {
			sides = append(sides, nil)
			continue
		}
		sides[len(sides)-1] = append(sides[len(sides)-1], a)
	}
	for i, s := range sides {
		if len(s) == 0 {
			return nil, invalid("compare: side %d of -- has no result files: give each side one or more, such as surge compare a1.json a2.json -- b1.json b2.json", i+1)
		}
	}
	return sides, nil
}

// readRuns reads the result files of each side, each run named by its file
// name (a name seen before gets its position appended) and a side of
// several runs by its first and last ("a1 … a3").
func readRuns(sides [][]string) ([]report.Labeled, error) {
	runs := make([]report.Labeled, 0, len(sides))
	seen := map[string]bool{}
	pos := 0
	read := func(p string) (report.Labeled, error) {
		pos++
		res, err := result.ReadFile(p)
		if err != nil {
			return report.Labeled{}, invalid("%v", err)
		}
		label := report.LabelOf(p)
		if seen[label] {
			label = fmt.Sprintf("%s#%d", label, pos)
		}
		seen[label] = true
		return report.Labeled{Label: label, File: p, Result: res}, nil
	}
	for _, side := range sides {
		first, err := read(side[0])
		if err != nil {
			return nil, err
		}
		for _, p := range side[1:] {
			rep, err := read(p)
			if err != nil {
				return nil, err
			}
			first.Repeats = append(first.Repeats, rep)
		}
		if n := len(first.Repeats); n > 0 {
			first.Label = fmt.Sprintf("%s … %s (%d runs)", first.Label, first.Repeats[n-1].Label, n+1)
		}
		runs = append(runs, first)
	}
	return runs, nil
}
