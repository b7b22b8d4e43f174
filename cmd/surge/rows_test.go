package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/surge-load/surge/result"
)

// rowsFile writes a scenario file with n statistics rows (one named task
// each) against target.
func rowsFile(t *testing.T, dir, target string, n int) string {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "target: %s\nscenarios:\n  s:\n    load: {users: 8, duration: 2s}\n    tasks:\n", target)
	for i := range n {
		fmt.Fprintf(&b, "      - {name: row%d, get: /r%d}\n", i, i)
	}
	p := filepath.Join(dir, fmt.Sprintf("rows%d.yaml", n))
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// A statistics row costs kilobytes, not a megabyte: 2,000 rows, every one
// of them used, stay well under 400 MB of peak resident memory, measured
// from the surge process. docs/performance.md quotes this test's figures.
func TestStatisticsRowMemory(t *testing.T) {
	srv, _ := countingServer(t)
	dir := t.TempDir()
	rss := map[int]int64{}
	for _, n := range []int{1, 2000} {
		out := filepath.Join(dir, fmt.Sprintf("r%d.json", n))
		stderr, code, peak := runMeasured(t, "run", rowsFile(t, dir, srv.URL, n), "-q", "--out", out)
		if code != 0 {
			t.Fatalf("%d rows: exit %d: %s", n, code, stderr)
		}
		res, err := result.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Endpoints) < n*9/10 {
			t.Fatalf("%d rows planned, %d used: the test needs them used", n, len(res.Endpoints))
		}
		rss[n] = peak
		t.Logf("%d rows (%d used, %d requests): peak RSS %.1f MiB", n, len(res.Endpoints), res.Totals.Requests, float64(peak)/(1<<20))
	}
	perRow := (rss[2000] - rss[1]) / 1999
	t.Logf("per row: %.1f KiB", float64(perRow)/1024)
	if rss[2000] > 200<<20 {
		t.Errorf("2,000 rows: peak RSS %d MiB; want well under 400 MB (under 200 MiB)", rss[2000]>>20)
	}
}
