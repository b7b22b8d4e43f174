package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/surge-load/surge/internal/report"
	"github.com/surge-load/surge/result"
)

func newReportCmd() *cobra.Command {
	var htmlPath, csvDir string
	var md bool
	cmd := &cobra.Command{
		Use:   "report RESULT.json [-o report.html] [--csv DIR] [--md]",
		Short: "Print the summary of a result document, or write its HTML report, CSV or Markdown",
		Long: `Print the end-of-test summary of a result document written by surge run --out.
The summary is rebuilt from the document alone, so it is the same as the one
printed at the end of the run, on any machine, at any later time.

-o writes a self-contained HTML report (the verdict, charts over time, the
endpoint, stream, timing and error tables, and a find-max result's capacity
curve) that opens offline; -o - writes it to standard output. --csv writes
endpoints.csv, series.csv and errors.csv into a directory, endpoint-series.csv
for a result with per-endpoint points, and capacity.csv for the result of
surge find-max. --md prints a Markdown summary for a pull
request or a blog post. All of them show the same numbers as the summary.`,
		Example: `  surge report result.json
  surge report result.json -o report.html
  surge report result.json --csv results/
  surge report result.json --md >> summary.md`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkDestinations(destination{flag: "output", path: htmlPath}, destination{flag: "csv", path: csvDir, dir: true}); err != nil {
				return err
			}
			res, err := result.ReadFile(args[0])
			if err != nil {
				return invalid("%v", err)
			}
			stdout := cmd.OutOrStdout()
			// Say what was written where it does not mix with content.
			status := stdout
			if md || htmlPath == "-" {
				status = cmd.ErrOrStderr()
			}
			switch {
			case md:
				report.Markdown(stdout, res)
			case htmlPath == "" && csvDir == "":
				report.Summary(stdout, res)
			}
			if htmlPath != "" {
				if err := writeHTMLReport(stdout, status, htmlPath, res); err != nil {
					return err
				}
			}
			if csvDir != "" {
				paths, err := report.WriteCSV(csvDir, res)
				if err != nil {
					return &codeError{code: exitError, err: err}
				}
				for _, p := range paths {
					fmt.Fprintf(status, "CSV written to %s\n", p)
				}
			}
			return nil
		},
	}
	fs := cmd.Flags()
	fs.StringVarP(&htmlPath, "output", "o", "", "write the HTML report to this file (- for standard output)")
	fs.StringVar(&csvDir, "csv", "", "write endpoints.csv, series.csv, errors.csv (endpoint-series.csv for per-endpoint points, capacity.csv for find-max) into this directory")
	fs.BoolVar(&md, "md", false, "print a Markdown summary instead of the terminal summary")
	return cmd
}

// writeHTMLReport writes the HTML report of res to path, or to stdout if
// path is "-", and says so on status.
func writeHTMLReport(stdout, status io.Writer, path string, res *result.Result) error {
	if path == "-" {
		if err := report.HTML(stdout, res); err != nil {
			return &codeError{code: exitError, err: err}
		}
		return nil
	}
	if err := report.WriteHTML(path, res); err != nil {
		return &codeError{code: exitError, err: err}
	}
	fmt.Fprintf(status, "Report written to %s\n", path)
	return nil
}
