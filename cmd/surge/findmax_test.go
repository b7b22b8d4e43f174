package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/surge-load/surge/demo"
	"github.com/surge-load/surge/result"
)

func TestFindMaxBadInput(t *testing.T) {
	u := "http://127.0.0.1:1/"
	cases := []struct {
		args []string
		msg  string
	}{
		{[]string{"--rate", "10"}, "--url is required"},
		{[]string{"--url", u}, "choose a load"},
		{[]string{"--url", u, "--users", "5", "--rate", "10"}, "not both"},
		{[]string{"--url", u, "--users", "1.5"}, "whole number of users"},
		{[]string{"--url", u, "--users", "0"}, "must be positive"},
		{[]string{"--url", u, "--rate", "fast"}, "--rate"},
		{[]string{"--url", u, "--rate", "10", "--start", "5"}, "drop --start"},
		{[]string{"--url", u, "--model", "bursts", "--start", "3"}, "want users or rate"},
		{[]string{"--url", u, "--model", "users"}, "needs --start"},
		{[]string{"--url", u, "--model", "rate", "--users", "3"}, "not --model rate"},
		{[]string{"--url", u, "--rate", "10", "--step-factor", "1"}, "more than 1"},
		{[]string{"--url", u, "--rate", "10", "--step-factor", "2", "--step-add", "5"}, "not both"},
		{[]string{"--url", u, "--rate", "10", "--step-add", "0"}, "must be positive"},
		{[]string{"--url", u, "--rate", "10", "--step-duration", "5s", "--warmup", "5s"}, "shorter than --step-duration"},
		{[]string{"--url", u, "--rate", "10", "--budget", "1s"}, "shorter than one step"},
		{[]string{"--url", u, "--rate", "10", "--max", "5"}, "below the first level"},
		{[]string{"--url", u, "--rate", "10", "--think", "1s"}, "--think applies"},
		{[]string{"--url", u, "--users", "5", "--max-users", "10"}, "use it with --rate"},
		{[]string{"--url", u, "--users", "5", "--threshold", "p95<100"}, "unit"},
		{[]string{"--url", u, "--users", "5", "--local-addrs", "127.0.0.4-127.0.0.1"}, "runs downwards"},
		{[]string{"--url", u, "--users", "5", "--local-addrs", "192.0.2.1"}, "not an address of this host"},
		{[]string{"--url", "ftp://x/", "--users", "5"}, "absolute http://"},
	}
	for _, c := range cases {
		stdout, stderr, code := runSurge(t, append([]string{"find-max"}, c.args...)...)
		if code != exitInvalid || !strings.Contains(stderr, c.msg) || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
			t.Errorf("surge find-max %s: exit %d, stderr %q; want exit 2 and one line with %q", strings.Join(c.args, " "), code, stderr, c.msg)
		}
		if stdout != "" {
			t.Errorf("surge find-max %s: printed to stdout: %q", strings.Join(c.args, " "), stdout)
		}
	}
	_, stderr, code := runSurge(t, "run", "--url", u, "--users", "5", "--duration", "1s", "--local-addrs", "127.0.0.1,,")
	if code != exitInvalid || !strings.Contains(stderr, "--local-addrs: item 2") {
		t.Errorf("surge run --local-addrs 127.0.0.1,,: exit %d, stderr %q; want exit 2", code, stderr)
	}
}

// TestFindMaxPrintsAndWritesCapacity searches the demo service up to a
// maximum it sustains: every step is printed as it ends, the capacity table
// and verdict at the end, and the result document holds them, which
// `surge report` prints again.
func TestFindMaxPrintsAndWritesCapacity(t *testing.T) {
	srv, err := demo.Start(context.Background(), "127.0.0.1:0", demo.Config{Latency: demo.Latency{Mean: 5 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	out := filepath.Join(t.TempDir(), "capacity.json")
	stdout, stderr, code := runSurge(t, "find-max", "--url", srv.URL+"/healthz", "--rate", "20", "--max", "40",
		"--step-duration", "2s", "--warmup", "500ms", "--out", out, "-q")
	if code == exitError && strings.Contains(stderr, "inconclusive") {
		t.Skipf("the machine is too busy for the generator:\n%s", stdout)
	}
	if code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	for _, want := range []string{"step         20/s", "step         40/s", "Capacity (open model, arrivals per second; objectives p95<1000ms, errors<1%",
		"  20/s  ", "Verdict (no breaking point found): maximum sustainable load 40/s", "every level up to the maximum met the objectives"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
	res, err := result.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	c := res.Capacity
	if c == nil || len(c.Steps) != 3 || c.Steps[2].Phase != "confirm" || c.Verdict.Confirmed == nil || c.Verdict.Reason != result.ReasonMaxReached || c.Verdict.MaxLevel != 40 || c.Model != "rate" {
		t.Fatalf("capacity %+v", c)
	}
	if !strings.Contains(res.Run.Load, "find-max step at 40/s") {
		t.Errorf("run.load %q", res.Run.Load)
	}
	again, _, code := runSurge(t, "report", out)
	if code != exitOK || !strings.Contains(again, "Capacity (open model") || !strings.Contains(again, "maximum sustainable load 40/s") {
		t.Errorf("surge report: exit %d\n%s", code, again)
	}
}

// TestFindMaxScenarioFile searches a scenario file: the level is every
// scenario's users, and the file's thresholds are the objectives.
func TestFindMaxScenarioFile(t *testing.T) {
	srv, err := demo.Start(context.Background(), "127.0.0.1:0", demo.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	stdout, stderr, code := runSurge(t, "find-max", "../../examples/logs-endless.yaml", "--target", srv.URL,
		"--users", "1", "--max", "1", "--step-duration", "2s", "--warmup", "500ms", "-q")
	if code == exitError && strings.Contains(stderr, "inconclusive") {
		t.Skipf("the machine is too busy for the generator:\n%s", stdout)
	}
	if code != exitOK || !strings.Contains(stdout, "Capacity (closed model, users; objectives errors<1%;") || !strings.Contains(stdout, "step       1 user") {
		t.Errorf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	_, stderr, code = runSurge(t, "find-max", "../../examples/logs-endless.yaml", "--url", srv.URL, "--users", "1")
	if code != exitInvalid || !strings.Contains(stderr, "--url applies to a single-URL search") {
		t.Errorf("--url with a file: exit %d, stderr %q", code, stderr)
	}
}
