package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/spf13/cobra"

	"github.com/surge-load/surge"
	"github.com/surge-load/surge/analysis"
	"github.com/surge-load/surge/demo"
	"github.com/surge-load/surge/executor"
	"github.com/surge-load/surge/protocol/httpc"
)

// quickstartResult is where the quickstart writes its result document.
const quickstartResult = "surge-result.json"

func newQuickstartCmd() *cobra.Command {
	var quiet bool
	cmd := &cobra.Command{
		Use:   "quickstart",
		Short: "See surge at work: load the built-in demo service for about 30 seconds",
		Long: `Start the built-in demo service in this process, seed it with a tree of 2,000
folders, and run a real open-model load test against its folder listing: arrivals
ramp from 0 to 300 per second over 10 s, hold for 15 s and ramp down over 5 s.
Prints live progress and the summary, and writes ` + quickstartResult + `.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			srv, err := demo.Start(context.Background(), "127.0.0.1:0", demo.DefaultConfig())
			if err != nil {
				return &codeError{code: exitError, err: err}
			}
			defer srv.Close()
			seed, err := seedDemo(srv.URL)
			if err != nil {
				return &codeError{code: exitError, err: err}
			}
			load := executor.Open{
				StartRate: 0,
				Stages: []executor.Stage{
					{Duration: 10 * time.Second, Target: 300},
					{Duration: 15 * time.Second, Target: 300},
					{Duration: 5 * time.Second, Target: 0},
				},
				MaxUsers: 200,
				Grace:    5 * time.Second,
			}
			p95, _ := analysis.ParseThreshold("p95<100ms")
			errs, _ := analysis.ParseThreshold("errors<1%")
			url := fmt.Sprintf("%s/api/v1/folders/%d?userId=%d&cursorType=Folder&sortBy=createdAt&size=10", srv.URL, seed.RootFolderID, seed.UserID)
			plan, err := surge.SingleURL(surge.Request{Method: "GET", URL: url, HTTP: httpc.Options{Timeout: 10 * time.Second}},
				load, []analysis.Threshold{p95, errs})
			if err != nil {
				return &codeError{code: exitError, err: err}
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "surge quickstart: demo service at %s, %s\n", srv.URL, surge.DescribeLoad(load))
			runErr := execute(cmd, plan, quickstartResult, quiet)
			out := cmd.OutOrStdout()
			fmt.Fprintln(out, "\nWhat you saw: 300 requests per second arrived on a fixed schedule; latency counts from each scheduled arrival, so a slow server cannot hide behind a slow generator.")
			fmt.Fprintln(out, "Next: `surge demo` in one terminal, then `surge run --url http://127.0.0.1:8080/api/v1/logs -X POST --body '{\"lines\":[\"a\"]}' --rate 2000 --duration 30s` in another.")
			return runErr
		},
	}
	cmd.Flags().BoolVarP(&quiet, "quiet", "q", false, "print no live progress")
	return cmd
}

type seedResult struct {
	UserID       int64 `json:"userId"`
	RootFolderID int64 `json:"rootFolderId"`
}

// seedDemo creates a user with a tree of folders in the demo service.
func seedDemo(base string) (seedResult, error) {
	var s seedResult
	body, _ := json.Marshal(map[string]any{"userName": "quickstart", "folders": 2000})
	resp, err := http.Post(base+"/api/v1/seed", "application/json", bytes.NewReader(body))
	if err != nil {
		return s, fmt.Errorf("seed the demo service: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		return s, fmt.Errorf("seed the demo service: status %s", resp.Status)
	}
	if err := json.NewDecoder(resp.Body).Decode(&s); err != nil {
		return s, fmt.Errorf("seed the demo service: %w", err)
	}
	return s, nil
}
