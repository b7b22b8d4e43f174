package main

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/surge-load/surge/result"
)

// startRun starts surge run against url in its own process, writing to out
// with a checkpoint every 300 ms, and waits for the first checkpoint that
// covers at least coverS seconds.
func startRun(t *testing.T, url, out string, coverS float64) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(surgeBin, "run", "--url", url, "--users", "2", "--think", "5ms", "--duration", "60s",
		"--checkpoint", "300ms", "--out", out, "-q")
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &bytes.Buffer{}, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	deadline := time.Now().Add(30 * time.Second)
	for {
		if r, err := result.ReadFile(out); err == nil && r.Run.CoveredS >= coverS {
			return cmd, &stderr
		}
		if time.Now().After(deadline) {
			t.Fatalf("no checkpoint covering %vs within 30s\n%s", coverS, stderr.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// A generator killed with SIGKILL keeps its last checkpoint: a valid
// result, marked incomplete with the time it covers, whose counts the
// server saw.
func TestSIGKILLKeepsTheLastCheckpoint(t *testing.T) {
	srv, seen := countingServer(t)
	out := filepath.Join(t.TempDir(), "res.json")
	cmd, stderr := startRun(t, srv.URL, out, 2)
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("process state %v", cmd.ProcessState)
	}
	res, err := result.ReadFile(out)
	if err != nil {
		t.Fatalf("after SIGKILL: %v\n%s", err, stderr)
	}
	r := res.Run
	if !r.Incomplete || r.CoveredS < 2 || r.Interrupted || !strings.Contains(r.StopReason, "checkpoint") {
		t.Fatalf("run %+v: want incomplete, covering at least 2s", r)
	}
	if r.DurationS != r.CoveredS {
		t.Errorf("duration_s %v, want the covered %v (rates are per second covered)", r.DurationS, r.CoveredS)
	}
	var inSeries int64
	for _, p := range res.Series {
		inSeries += p.Requests
	}
	n := res.Totals.Requests
	if n == 0 || n != inSeries || n > seen.Load() || res.Totals.Failures != 0 {
		t.Errorf("checkpoint holds %d requests (%d in the series, %d failures); the server saw %d",
			n, inSeries, res.Totals.Failures, seen.Load())
	}
	stdout, _, code := runSurge(t, "report", out)
	if code != 0 || !strings.Contains(stdout, "INCOMPLETE") || !strings.Contains(stdout, "checkpoint of the first") {
		t.Errorf("surge report of a checkpoint: exit %d\n%s", code, stdout)
	}
}

// SIGHUP (a closed terminal or SSH session) stops a run as SIGTERM does:
// the result is written, complete and marked interrupted, exit 4.
func TestSIGHUPStopsLikeSIGTERM(t *testing.T) {
	srv, _ := countingServer(t)
	out := filepath.Join(t.TempDir(), "res.json")
	cmd, stderr := startRun(t, srv.URL, out, 0.5)
	if err := cmd.Process.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatalf("surge did not stop after SIGHUP\n%s", stderr)
	}
	if code := cmd.ProcessState.ExitCode(); code != exitInterrupted {
		t.Fatalf("exit %d after SIGHUP, want %d\n%s", code, exitInterrupted, stderr)
	}
	res, err := result.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Run.Interrupted || res.Run.Incomplete || !strings.Contains(res.Run.StopReason, "hangup") {
		t.Errorf("run %+v: want the final result, interrupted by the hangup", res.Run)
	}
	if res.Totals.Requests == 0 {
		t.Error("no requests in the result")
	}
}
