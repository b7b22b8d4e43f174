package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/surge-load/surge/demo"
	"github.com/surge-load/surge/examples"
	"github.com/surge-load/surge/scenario"
	"github.com/surge-load/surge/scenario/yamlfile"
)

// The quickstart runs this example, writes these files in a folder of their
// own that ignores itself (so a clone's git status stays clean), and lasts
// this long.
const (
	quickstartExample  = "folders-test1.yaml"
	quickstartDir      = "surge-out"
	quickstartResult   = quickstartDir + "/surge-result.json"
	quickstartReport   = quickstartDir + "/surge-report.html"
	quickstartUsers    = 40
	quickstartDuration = 30 * time.Second
)

func newQuickstartCmd() *cobra.Command {
	var quiet bool
	var duration time.Duration
	cmd := &cobra.Command{
		Use:   "quickstart",
		Short: "See surge at work: load the built-in demo service for about 30 seconds",
		Long: `Start the built-in demo service in this process and run the folder-service
scenario of examples/` + quickstartExample + ` against it: virtual users ramp up
to a few dozen, each creating, listing and moving folders by weight with think
time between tasks. Prints live progress and the summary, and writes
` + quickstartResult + ` and ` + quickstartReport + ` (the folder ignores itself
in git: it holds a .gitignore of "*").`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if duration <= 0 {
				return invalid("--duration %v must be positive", duration)
			}
			if err := outputDir(quickstartDir); err != nil {
				return &codeError{code: exitError, err: err}
			}
			srv, err := demo.Start(context.Background(), "127.0.0.1:0", demo.DefaultConfig())
			if err != nil {
				return &codeError{code: exitError, err: err}
			}
			defer srv.Close()
			src, err := examples.Files.ReadFile(quickstartExample)
			if err != nil {
				return &codeError{code: exitError, err: err}
			}
			think := scenario.Pause{Min: 200 * time.Millisecond, Max: 600 * time.Millisecond}
			plan, err := yamlfile.Compile("examples/"+quickstartExample, src, scenario.Options{
				Target: srv.URL, Users: quickstartUsers, Duration: duration, Think: &think,
			})
			if err != nil {
				return &codeError{code: exitError, err: err}
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "surge quickstart: demo service at %s; running examples/%s with up to %d users for %v\n",
				srv.URL, quickstartExample, quickstartUsers, duration)
			runErr := executeTo(cmd, plan, placement{}, &runFlags{out: quickstartResult, report: quickstartReport, quiet: quiet, checkpoint: 10 * time.Second})
			out := cmd.OutOrStdout()
			fmt.Fprintf(out, "\nWhat you saw: %d virtual users created, listed and moved folders in the demo service, by weight 6:2:2 with think time; every request is in the table above, failures by cause.\n", quickstartUsers)
			fmt.Fprintln(out, "The 400 errors are by design: a folder cannot move into its own subtree, nor the root, and no folder may pass the maximum depth; the goals leave moves out and allow a few creates.")
			surgeCmd := invocation()
			fmt.Fprintf(out, "Next: open %s in a browser, then try `%s demo` in one terminal and `%s run examples/%s --users 100 --ui 127.0.0.1:8089` in another.\n",
				quickstartReport, surgeCmd, surgeCmd, quickstartExample)
			var ce *codeError
			if errors.As(runErr, &ce) && ce.code == exitThresholds {
				// A failed objective is part of the demonstration, not a failure of it.
				fmt.Fprintf(out, "(The scenario's thresholds failed: %v. With a real service that would be exit code 3.)\n", ce.err)
				return nil
			}
			return runErr
		},
	}
	cmd.Flags().BoolVarP(&quiet, "quiet", "q", false, "print no live progress")
	cmd.Flags().DurationVar(&duration, "duration", quickstartDuration, "how long to run")
	return cmd
}

// outputDir makes dir, holding a .gitignore that ignores everything in it.
func outputDir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	ignore := filepath.Join(dir, ".gitignore")
	if _, err := os.Stat(ignore); err == nil {
		return nil
	}
	return os.WriteFile(ignore, []byte("# written by surge quickstart: everything here is output\n*\n"), 0o644)
}

// invocation is how the user started surge: "go run ./cmd/surge" when it
// runs from go run's build cache, "surge" otherwise.
func invocation() string {
	exe, err := os.Executable()
	if err == nil && strings.Contains(filepath.ToSlash(exe), "/go-build") {
		return "go run ./cmd/surge"
	}
	return "surge"
}
