package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/surge-load/surge/demo"
	"github.com/surge-load/surge/result"
)

// TestRunFileWithSearchSection runs a scenario file whose search section
// makes it a breaking-point search, against the demo service with a known
// capacity (4 in flight × 25 ms = 160/s): surge run performs the search and
// the result holds the capacity table and its verdict.
func TestRunFileWithSearchSection(t *testing.T) {
	cfg := demo.DefaultConfig()
	cfg.MaxInFlight, cfg.QueueSize, cfg.QueueTimeout = 4, 4, 50*time.Millisecond
	cfg.Latency = demo.Latency{Dist: demo.Fixed, Mean: 25 * time.Millisecond}
	srv, err := demo.Start(context.Background(), "127.0.0.1:0", cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	dir := t.TempDir()
	file := filepath.Join(dir, "search.yaml")
	src := fmt.Sprintf(`target: %s
scenarios:
  stats:
    load: {rate: 10, duration: 10s}
    tasks:
      - get: /api/v1/logs/stats
search: {rate: 40, factor: 2, max: 640, step: 2s, warmup: 500ms, budget: 40s}
thresholds: ["errors<1%%"]
`, srv.URL)
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "r.json")
	var res *result.Result
	var stdout, stderr string
	for attempt := 1; ; attempt++ {
		var code int
		stdout, stderr, code = runSurge(t, "run", file, "--out", out, "-q")
		var err error
		if res, err = result.ReadFile(out); err != nil {
			t.Fatalf("exit %d, no result: %v\n%s\n%s", code, err, stdout, stderr)
		}
		if code == exitOK {
			break
		}
		// A generator starved by the rest of the machine is rightly called
		// inconclusive (exit 1); try once more, then give up on this machine.
		if c := res.Capacity; code != exitError || c == nil || c.Verdict.Reason != result.ReasonGenerator {
			t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
		}
		if attempt == 2 {
			t.Skipf("the machine is too busy for the generator to judge the demo service:\n%s", stdout)
		}
	}
	c := res.Capacity
	if c == nil || c.Model != "rate" || len(c.Steps) < 3 || c.Steps[0].Level != 40 {
		t.Fatalf("capacity %+v", c)
	}
	if !strings.Contains(stderr, "has a search section") || !strings.Contains(stdout, "Capacity") && !strings.Contains(stdout, "capacity") {
		t.Errorf("output does not show the search:\n%s\n%s", stdout, stderr)
	}
	if max := c.Verdict.MaxLevel; max < 80 || max > 200 {
		t.Errorf("maximum %v/s; the demo's capacity is 160/s (steps %+v)", max, c.Steps)
	}

	// Overriding a level from surge run is refused: find-max does that.
	_, stderr, code := runSurge(t, "run", file, "--rate", "100")
	if code != exitInvalid || !strings.Contains(stderr, "surge find-max") {
		t.Errorf("run FILE --rate on a search file: exit %d, %q", code, stderr)
	}
	// A bad search section is reported with its position.
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(bad, []byte(strings.Replace(src, "factor: 2", "factor: 0.5", 1)), 0o644)
	_, stderr, code = runSurge(t, "validate", bad)
	if code != exitInvalid || !strings.Contains(stderr, "bad.yaml:7:") || !strings.Contains(stderr, "factor 0.5") {
		t.Errorf("bad factor: exit %d, %q", code, stderr)
	}
}
