package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/surge-load/surge/demo"
)

func TestValidateExamples(t *testing.T) {
	files, _ := filepath.Glob("../../examples/*.yaml")
	if len(files) < 4 {
		t.Fatalf("%d examples", len(files))
	}
	for _, f := range files {
		if out, errOut, code := runSurge(t, "validate", f); code != 0 || !strings.Contains(out, "valid") {
			t.Errorf("validate %s: exit %d\n%s%s", f, code, out, errOut)
		}
	}
}

func TestValidateReportsEveryProblem(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	src := "target: http://127.0.0.1:1\nscenarios:\n  a:\n    load: {users: 5, duration: 10x}\n    tasks:\n      - weight: 0\n        get: /{{ nope }}\n"
	if err := os.WriteFile(bad, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errOut, code := runSurge(t, "validate", bad)
	for _, want := range []string{bad + ":4:32: duration must be a duration", bad + ":6:17: weight 0 is not positive", bad + ":7:18: nope is not defined", "3 problems"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	if code != exitInvalid {
		t.Errorf("exit %d, want %d", code, exitInvalid)
	}
	if _, errOut, code := runSurge(t, "run", bad, "--quiet"); code != exitInvalid || !strings.Contains(errOut, "3 problems") {
		t.Errorf("run: exit %d\n%s", code, errOut)
	}
}

func TestRunScenarioFile(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv, err := demo.Start(ctx, "127.0.0.1:0", demo.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	out := filepath.Join(t.TempDir(), "result.json")
	stdout, stderr, code := runSurge(t, "run", "../../examples/logs-endless.yaml", "--target", srv.URL,
		"--users", "2", "--duration", "1s", "--quiet", "--out", out, "--threshold", "ingest logs:p99<5s")
	if code != 0 || !strings.Contains(stdout, "ingest logs") {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	if _, err := os.Stat(out); err != nil {
		t.Error(err)
	}
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--scenario", "ingst"}, "there is no scenario ingst; did you mean ingest?"},
		{[]string{"--url", srv.URL}, "--url applies to a single-URL run"},
		{[]string{"--rate", "10/s"}, "a rate (--rate, or rate: in a search) applies to the open model"},
		{[]string{"--env", "novalue"}, "want NAME=VALUE"},
	} {
		args := append([]string{"run", "../../examples/logs-endless.yaml", "--target", srv.URL, "--duration", "1s", "--quiet"}, c.args...)
		if _, stderr, code := runSurge(t, args...); code != exitInvalid || !strings.Contains(stderr, c.msg) {
			t.Errorf("%v: exit %d, stderr %q; want %q", c.args, code, stderr, c.msg)
		}
	}
}
