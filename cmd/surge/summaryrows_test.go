package main

import (
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// A step that fails before anything is sent (a URL built at run time that
// does not parse) is not a request: its row in the summary counts it as
// not sent and shows no throughput or latency, not a row of zeros that
// reads as a fast endpoint. The server saw only the good step.
func TestNotSentRowIsNotZeros(t *testing.T) {
	srv, seen := countingServer(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "ns.yaml")
	scenario := "target: " + srv.URL + "\nscenarios:\n  s:\n    load: {iterations: 10, users: 1, duration: 10s}\n    flow:\n" +
		"      - {name: good, get: /}\n      - {name: bad, get: \"{{ 'http://[::1/x' }}\"}\n"
	if err := os.WriteFile(file, []byte(scenario), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := runSurge(t, "run", file)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if seen.Load() != 10 {
		t.Errorf("the server saw %d requests, want 10 (the good step's)", seen.Load())
	}
	bad := regexp.MustCompile(`(?m)^\s*bad\s+0\s+10 not sent\s+—\s+—\s+—\s+—\s+—\s+—\s*$`)
	if !bad.MatchString(stdout) {
		t.Errorf("the not-sent step's row is not \"bad 0 10 not sent — — …\":\n%s", stdout)
	}
	if !regexp.MustCompile(`(?m)^\s*Total\s+10\s+0 \(0\.0%\) \+ 10 not sent\s`).MatchString(stdout) {
		t.Errorf("the Total row does not count the not-sent steps:\n%s", stdout)
	}
}

// A run in which nothing succeeded (every connection refused) has no peak
// of successful throughput: the summary says there were no successes, not
// "peak 0 rps at 0s".
func TestNoSuccessesHasNoPeak(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens: every connect is refused
	stdout, stderr, code := runSurge(t, "run", "--url", "http://"+addr+"/", "--rate", "20", "--duration", "1s", "--max-users", "5")
	if code != exitOK && code != exitThresholds {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "connect_refused") {
		t.Fatalf("no refusals in the summary:\n%s", stdout)
	}
	if strings.Contains(stdout, "peak 0 rps") || !strings.Contains(stdout, "Successes: none") {
		t.Errorf("the summary of a run without successes does not say \"Successes: none\":\n%s", stdout)
	}
}
