package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"golang.org/x/term"

	"github.com/surge-load/surge"
	"github.com/surge-load/surge/internal/report"
)

// interruptible returns the options and context of a run that Ctrl-C,
// SIGTERM and SIGHUP (a closed terminal or SSH session) stop: the first
// signal cancels ctx, a Stop that lets requests in flight finish within the
// grace period; the second closes opts.Abort, which cancels them at once. Unless quiet, opts shows live
// progress on stderr. release stops listening for the signals.
func interruptible(stderr io.Writer, quiet bool) (ctx context.Context, opts surge.Options, release func()) {
	ctx, cancel := context.WithCancelCause(context.Background())
	abort := make(chan struct{})
	sigs := make(chan os.Signal, 2)
	released := make(chan struct{})
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	go func() {
		select {
		case sig := <-sigs:
			fmt.Fprintf(stderr, "\nsurge: %v: stopping; requests in flight may finish within the grace period (again to abort now)\n", sig)
			cancel(fmt.Errorf("interrupted by %v", sig))
		case <-released:
			return
		}
		select {
		case <-sigs:
			fmt.Fprintln(stderr, "surge: aborting requests in flight")
			close(abort)
		case <-released:
		}
	}()
	opts = surge.Options{Abort: abort}
	if !quiet {
		pr := &report.Progress{W: stderr}
		if f, ok := stderr.(*os.File); ok {
			pr.TTY = term.IsTerminal(int(f.Fd()))
		}
		opts.Progress = pr
	}
	return ctx, opts, func() {
		signal.Stop(sigs)
		close(released)
		cancel(nil)
	}
}
