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

// A find-max killed with SIGKILL after a step keeps the steps it finished:
// --out holds a valid result, marked incomplete, whose capacity table
// lists them and whose counts the server saw.
func TestFindMaxSIGKILLKeepsFinishedSteps(t *testing.T) {
	srv, seen := countingServer(t)
	out := filepath.Join(t.TempDir(), "capacity.json")
	cmd := exec.Command(surgeBin, "find-max", "--url", srv.URL, "--users", "2", "--step-add", "2", "--max", "1000",
		"--think", "10ms", "--step-duration", "1s", "--warmup", "200ms", "--budget", "10m",
		"--checkpoint", "300ms", "--out", out, "-q")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	deadline := time.Now().Add(60 * time.Second)
	for {
		if r, err := result.ReadFile(out); err == nil && r.Capacity != nil && len(r.Capacity.Steps) >= 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no checkpoint with a finished step within 60s\n%s", stderr.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("process state %v", cmd.ProcessState)
	}
	res, err := result.ReadFile(out)
	if err != nil {
		t.Fatalf("after SIGKILL: %v\n%s", err, stderr.String())
	}
	r := res.Run
	if !r.Incomplete || r.CoveredS <= 0 || !strings.Contains(r.StopReason, "checkpoint") {
		t.Fatalf("run %+v: want an incomplete checkpoint", r)
	}
	c := res.Capacity
	if c == nil || len(c.Steps) == 0 || c.Model != "users" || c.Verdict.Reason != result.ReasonInterrupted ||
		!strings.Contains(c.Verdict.Detail, "checkpoint") {
		t.Fatalf("capacity %+v", c)
	}
	// Every step in the file finished: it was printed, measured requests,
	// and the verdict's maximum so far is the highest level that met the
	// objectives (a busy machine may fail a step, so any may be last).
	printed := strings.Count(stdout.String(), "step ")
	if len(c.Steps) > printed {
		t.Errorf("%d steps in the file, %d printed:\n%s", len(c.Steps), printed, stdout.String())
	}
	if first := c.Steps[0]; first.Phase != "step" || first.Level != 2 {
		t.Errorf("first step %+v: want the first level, 2 users", first)
	}
	maxOK := 0.0
	for i, st := range c.Steps {
		if st.Requests == 0 || (st.Reason == "" && !st.OK) {
			t.Errorf("step %d was not finished: %+v", i, st)
		}
		if st.OK {
			maxOK = max(maxOK, st.Level)
		}
	}
	if c.Verdict.MaxLevel != maxOK {
		t.Errorf("verdict %+v: want the maximum so far, %v", c.Verdict, maxOK)
	}
	if n := res.Totals.Requests; n == 0 || n > seen.Load() {
		t.Errorf("the host step holds %d requests; the server saw %d", n, seen.Load())
	}
	if stdout, _, code := runSurge(t, "report", out); code != 0 || !strings.Contains(stdout, "INCOMPLETE") {
		t.Errorf("surge report of a find-max checkpoint: exit %d\n%s", code, stdout)
	}
}
