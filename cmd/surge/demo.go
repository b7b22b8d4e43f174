package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/surge-load/surge/demo"
)

func newDemoCmd() *cobra.Command {
	var addr string
	cfg := demo.DefaultConfig()
	cmd := &cobra.Command{
		Use:   "demo [--addr 127.0.0.1:8080] [knobs]",
		Short: "Start the built-in demo service to load-test",
		Long: `Start the built-in demo service: a folder tree API (users, folders, moves with
a per-tree lock), a log ingestion API with a bounded buffer, Server-Sent Events,
and Prometheus metrics at /metrics. Knobs add realistic failure: latency, stalls,
a failure rate, an in-flight limit that gives a known capacity, CPU cost.`,
		Example: `  surge demo
  surge demo --addr 127.0.0.1:9090 --max-inflight 8 --latency 20ms
  surge demo --stall 500ms/5s --fail-rate 0.01`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := cfg.Validate(); err != nil {
				return invalid("%v", err)
			}
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			srv, err := demo.Start(ctx, addr, cfg)
			if err != nil {
				return &codeError{code: exitError, err: err}
			}
			fmt.Fprintf(cmd.OutOrStdout(), "surge demo service listening on %s (Ctrl-C to stop); see %s/ for its endpoints\n", srv.URL, srv.URL)
			<-ctx.Done()
			return srv.Close()
		},
	}
	cmd.Flags().StringVar(&addr, "addr", "127.0.0.1:8080", "address to listen on")
	demo.RegisterFlags(cmd.Flags(), &cfg)
	return cmd
}
