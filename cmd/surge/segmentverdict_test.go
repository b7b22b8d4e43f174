package main

import (
	"bytes"
	"net"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A runner joined to a collector does not print the verdicts of its own
// segment: the collector judges the thresholds on the whole, and a
// segment's "FAIL" would contradict it.
func TestSegmentLeavesTheVerdictToTheCollector(t *testing.T) {
	srv, _ := countingServer(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	dir := t.TempDir()
	col := exec.Command(surgeBin, "collect", "--listen", addr, "--parts", "1", "--out", filepath.Join(dir, "merged.json"), "--join-wait", "20s")
	var colOut bytes.Buffer
	col.Stdout, col.Stderr = &colOut, &colOut
	if err := col.Start(); err != nil {
		t.Fatal(err)
	}
	defer col.Process.Kill()
	out, stderr, code := runSurge(t, "run", "--url", srv.URL+"/", "--users", "1", "--duration", "1s",
		"--threshold", "rps>100000000", "--segment", "0/1", "--collector", "http://"+addr, "--out", filepath.Join(dir, "part.json"))
	if code != 0 {
		t.Fatalf("runner exit %d, want 0\n%s%s", code, out, stderr)
	}
	if strings.Contains(out, "FAIL") || strings.Contains(out, "rps>100000000") {
		t.Errorf("the runner printed its own verdict:\n%s", out)
	}
	err = col.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 3 {
		t.Errorf("collector: %v, want exit 3 (the threshold fails on the whole)\n%s", err, colOut.String())
	}
	if !strings.Contains(colOut.String(), "FAIL  rps>100000000") {
		t.Errorf("the collector did not judge the threshold:\n%s", colOut.String())
	}
}
