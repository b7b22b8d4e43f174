package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/surge-load/surge/result"
)

// surgeBin is the surge binary built once for the tests that need a real
// process: exit codes and signals.
var surgeBin string

func TestMain(m *testing.M) {
	if addr := os.Getenv(chaosServerEnv); addr != "" {
		chaosServer(addr, os.Getenv(chaosLogEnv)) // the target of TestChaos, in its own process
		return
	}
	dir, err := os.MkdirTemp("", "surge-cli")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	surgeBin = filepath.Join(dir, "surge")
	if out, err := exec.Command("go", "build", "-o", surgeBin, ".").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "build surge: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// runSurge runs the binary and returns its stdout, stderr and exit code.
func runSurge(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(surgeBin, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return out.String(), errb.String(), 0
	case errors.As(err, &ee):
		return out.String(), errb.String(), ee.ExitCode()
	}
	t.Fatalf("run surge: %v", err)
	return "", "", -1
}

func TestBadInputGivesOneLineAndExitCode2(t *testing.T) {
	u := "http://127.0.0.1:1/"
	cases := []struct {
		args []string
		msg  string
	}{
		{[]string{"run", "--users", "5", "--duration", "1s"}, "--url is required"},
		{[]string{"run", "--url", u, "--users", "5", "--rate", "10", "--duration", "1s"}, "not both"},
		{[]string{"run", "--url", u, "--users", "5", "--duration", "-1s"}, "must be positive"},
		{[]string{"run", "--url", "127.0.0.1:8080/x", "--users", "5", "--duration", "1s"}, "absolute http:// or https:// URL"},
		{[]string{"run", "--url", "ftp://host/", "--users", "5", "--duration", "1s"}, "absolute http:// or https:// URL"},
		{[]string{"run", "--url", u, "--users", "5"}, "give --duration"},
		{[]string{"run", "--url", u, "--duration", "1s"}, "choose a load"},
		{[]string{"run", "--url", u, "--users", "0", "--duration", "1s"}, "at least 1"},
		{[]string{"run", "--url", u, "--rate", "fast", "--duration", "1s"}, "--rate"},
		{[]string{"run", "--url", u, "--rate", "0", "--duration", "1s"}, "must be positive"},
		{[]string{"run", "--url", u, "--users", "5", "--duration", "1s", "--max-users", "9"}, "use it with --rate"},
		{[]string{"run", "--url", u, "--stages", "30s:100,xx", "--users", "1"}, "--stages"},
		{[]string{"run", "--url", u, "--stages", "1s:5", "--duration", "1s"}, "drop --duration"},
		{[]string{"run", "--url", u, "--users", "5", "--duration", "1s", "--threshold", "p95<100"}, "unit"},
		{[]string{"run", "--url", u, "--users", "5", "--duration", "1s", "--threshold", "GET /x:p95<1s"}, "does not have"},
		{[]string{"run", "--url", u, "--users", "5", "--duration", "1s", "-H", "NoColon"}, "Name: value"},
		{[]string{"run", "--url", u, "--users", "5", "--duration", "1s", "--body", "@/nonexistent/file"}, "--body @/nonexistent/file"},
		{[]string{"run", "--url", u, "--users", "5", "--duration", "1s", "--think", "3s..1s"}, "--think"},
		{[]string{"run", "--url", u, "--users", "5", "--duration", "soon"}, "invalid argument"},
		{[]string{"run", "--bogus"}, "unknown flag"},
		{[]string{"report", "/nonexistent.json"}, "read result"},
		{[]string{"collect", "--listen", ":7070", "--parts", "2", "--out", "m.json"}, "need a shared token"},
		{[]string{"k8s", "/nonexistent.yaml", "--parallelism", "2", "--image", "surge"}, "read scenario file"},
		{[]string{"k8s", "/nonexistent.yaml", "--parallelism", "0", "--image", "surge"}, "--parallelism 0"},
		{[]string{"k8s", "/nonexistent.yaml", "--parallelism", "2"}, "image"},
		{[]string{"collect", "--listen", "127.0.0.1:0", "--parts", "0", "--out", "m.json"}, "--parts 0"},
		{[]string{"collect", "--listen", "7070", "--parts", "2", "--out", "m.json"}, "--listen"},
		{[]string{"collect", "--parts", "2", "--out", "m.json"}, "listen"},
		{[]string{"run", "--url", u, "--users", "5", "--duration", "1s", "--collector", "http://127.0.0.1:1"}, "needs --segment"},
		{[]string{"run", "--url", u, "--users", "5", "--duration", "1s", "--segment", "0/2", "--collector", "http://10.1.2.3:7070"}, "need a shared token"},
		{[]string{"run", "--url", u, "--users", "5", "--duration", "1s", "--segment", "0/2", "--collector", "ftp://x"}, "want http://HOST:PORT"},
		{[]string{"run", "--url", u, "--users", "5", "--duration", "1s", "--segment", "0/2", "--start-at", "2099-01-01T00:00:00Z", "--collector", "http://127.0.0.1:1"}, "drop --start-at"},
	}
	for _, c := range cases {
		stdout, stderr, code := runSurge(t, c.args...)
		lines := strings.Split(strings.TrimSpace(stderr), "\n")
		if code != exitInvalid || len(lines) != 1 || !strings.Contains(stderr, c.msg) || strings.Contains(stderr, "goroutine") {
			t.Errorf("surge %s: exit %d, stderr %q; want exit 2 and one line saying %q", strings.Join(c.args, " "), code, stderr, c.msg)
		}
		if stdout != "" {
			t.Errorf("surge %s: printed to stdout: %q", strings.Join(c.args, " "), stdout)
		}
	}
}

func TestRunWritesResultAndJudgesThresholds(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/fail" {
			w.WriteHeader(http.StatusServiceUnavailable)
		}
	}))
	defer srv.Close()
	out := filepath.Join(t.TempDir(), "r.json")
	stdout, stderr, code := runSurge(t, "run", "--url", srv.URL+"/ok", "--rate", "200/s", "--duration", "1s",
		"--threshold", "p99<5s", "--threshold", "GET /ok:errors<1%", "--out", out, "--quiet")
	if code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	res, err := result.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if res.Totals.Requests != 200 || len(res.Thresholds) != 2 || !res.Thresholds[0].OK || !res.Thresholds[1].OK {
		t.Errorf("result: %d requests, thresholds %+v", res.Totals.Requests, res.Thresholds)
	}
	for _, want := range []string{"GET /ok", "200", "PASS  p99<5s", "Generator:"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("summary lacks %q:\n%s", want, stdout)
		}
	}
	// The summary printed again from the file is the same.
	again, _, code := runSurge(t, "report", out)
	if code != 0 || !strings.Contains(stdout, again) {
		t.Errorf("surge report printed\n%s\nwhich is not the run's summary\n%s", again, stdout)
	}

	_, stderr, code = runSurge(t, "run", "--url", srv.URL+"/fail", "--users", "2", "--duration", "300ms", "--threshold", "errors<1%", "-q")
	if code != exitThresholds || !strings.Contains(stderr, "thresholds failed: errors<1%") {
		t.Errorf("failing threshold: exit %d, stderr %q; want exit 3", code, stderr)
	}
}

// TestInterruptWritesResult sends SIGINT mid-run: the run stops, requests in
// flight finish within the grace period, the summary and result are written
// and the exit code says interrupted. A second SIGINT aborts requests still
// in flight, which are counted as interrupted.
func TestInterruptWritesResult(t *testing.T) {
	var slow atomic.Bool
	var served atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		served.Add(1)
		if slow.Load() {
			select {
			case <-r.Context().Done():
			case <-time.After(20 * time.Second):
			}
		}
	}))
	defer srv.Close()

	for _, twice := range []bool{false, true} {
		out := filepath.Join(t.TempDir(), "r.json")
		slow.Store(twice)
		cmd := exec.Command(surgeBin, "run", "--url", srv.URL, "--users", "4", "--duration", "1m", "--grace", "30s", "--out", out)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(1500 * time.Millisecond)
		start := time.Now()
		_ = cmd.Process.Signal(syscall.SIGINT)
		if twice {
			time.Sleep(300 * time.Millisecond)
			_ = cmd.Process.Signal(syscall.SIGINT)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(15 * time.Second):
			_ = cmd.Process.Kill()
			t.Fatalf("surge did not stop after SIGINT (twice=%v)\n%s", twice, stderr.String())
		}
		if cmd.ProcessState.ExitCode() != exitInterrupted {
			t.Errorf("twice=%v: exit %d, want %d\n%s", twice, cmd.ProcessState.ExitCode(), exitInterrupted, stderr.String())
		}
		if time.Since(start) > 10*time.Second {
			t.Errorf("twice=%v: took %v to stop", twice, time.Since(start))
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatalf("twice=%v: no result written: %v", twice, err)
		}
		var res result.Result
		if err := json.Unmarshal(b, &res); err != nil {
			t.Fatal(err)
		}
		if !res.Run.Interrupted || !strings.Contains(res.Run.StopReason, "interrupt") {
			t.Errorf("twice=%v: run %+v not marked interrupted", twice, res.Run)
		}
		if !strings.Contains(stdout.String(), "INTERRUPTED") {
			t.Errorf("twice=%v: summary does not say INTERRUPTED:\n%s", twice, stdout.String())
		}
		if twice && res.Totals.Errors["interrupted"] != 4 {
			t.Errorf("aborted run: errors %v, want 4 interrupted (the 4 users' requests in flight)", res.Totals.Errors)
		}
		if !twice && (res.Totals.Requests == 0 || res.Totals.Failures != 0) {
			t.Errorf("graceful stop: %d requests, %d failures; want some and none", res.Totals.Requests, res.Totals.Failures)
		}
	}
}
