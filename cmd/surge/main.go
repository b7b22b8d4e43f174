// Command surge runs load tests. Every subcommand is a thin layer over the
// surge library: it turns flags into library calls and results into output.
package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"
)

// Exit codes, documented in README.md; CI scripts rely on them.
const (
	exitOK          = 0
	exitError       = 1 // the run could not happen or its output could not be written
	exitInvalid     = 2 // invalid input: flags, files, URLs
	exitThresholds  = 3 // the run completed and a threshold failed
	exitInterrupted = 4 // the run was stopped before its plan ended (Ctrl-C, SIGTERM, SIGHUP)
)

// A codeError carries an exit code up to main.
type codeError struct {
	code int
	err  error
}

func (e *codeError) Error() string { return e.err.Error() }
func (e *codeError) Unwrap() error { return e.err }

// invalid marks err as bad input.
func invalid(format string, args ...any) error {
	return &codeError{code: exitInvalid, err: fmt.Errorf(format, args...)}
}

func main() {
	root := newRootCmd()
	err := root.Execute()
	if err == nil {
		os.Exit(exitOK)
	}
	var ce *codeError
	if errors.As(err, &ce) {
		if ce.err != nil && ce.err.Error() != "" {
			fmt.Fprintln(os.Stderr, "surge:", ce.err)
		}
		os.Exit(ce.code)
	}
	// Errors cobra raises itself are about flags and arguments.
	fmt.Fprintln(os.Stderr, "surge:", err)
	os.Exit(exitInvalid)
}

func newRootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:   "surge",
		Short: "surge runs load tests and tells you what broke and why",
		Long: `surge runs user journeys against a service at a planned load, measures every
operation honestly (latency from the intended start, so a stalled server is not
hidden), classifies every failure by cause, and writes one result document that
reports, comparisons and thresholds are built from.`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error {
		return invalid("%v (see --help)", err)
	})
	root.AddCommand(newRunCmd(), newCollectCmd(), newK8sCmd(), newMergeCmd(), newReportCmd(), newCompareCmd(), newFindMaxCmd(), newValidateCmd(), newQuickstartCmd(), newDemoCmd(), newVersionCmd())
	root.AddCommand(newImportCmd())
	return root
}
