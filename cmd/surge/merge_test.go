package main

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/surge-load/surge/result"
)

// TestSegmentsMergeIntoTheWholeRun splits an open-model plan over two
// processes with one agreed start, as two machines would run it, and merges
// their results: every scheduled arrival is in the merged result exactly
// once, the server saw as many, and the thresholds are judged on the whole.
func TestSegmentsMergeIntoTheWholeRun(t *testing.T) {
	var served atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { served.Add(1) }))
	defer srv.Close()
	dir := t.TempDir()
	startAt := time.Now().Add(3 * time.Second).UTC().Format(time.RFC3339)
	var wg sync.WaitGroup
	errs := make([]string, 2)
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(surgeBin, "run", "--url", srv.URL+"/x", "--rate", "100", "--duration", "2s", "--max-users", "20",
				"--threshold", "p99<5s", "--segment", fmt.Sprintf("%d/2", i), "--start-at", startAt,
				"--out", filepath.Join(dir, fmt.Sprintf("part%d.json", i)), "-q")
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Run(); err != nil {
				errs[i] = err.Error() + ": " + stderr.String()
			}
		}()
	}
	wg.Wait()
	for i, e := range errs {
		if e != "" {
			t.Fatalf("segment %d: %s", i, e)
		}
	}
	merged := filepath.Join(dir, "merged.json")
	stdout, stderr, code := runSurge(t, "merge", filepath.Join(dir, "part0.json"), filepath.Join(dir, "part1.json"), "-o", merged)
	if code != exitOK {
		t.Fatalf("merge: exit %d\n%s\n%s", code, stdout, stderr)
	}
	res, err := result.ReadFile(merged)
	if err != nil {
		t.Fatal(err)
	}
	if res.Totals.Requests != 200 || res.Totals.Dropped != 0 || served.Load() != 200 {
		t.Errorf("merged %d requests, %d dropped; the server saw %d; want 200, 0, 200", res.Totals.Requests, res.Totals.Dropped, served.Load())
	}
	if res.Run.Segment.Count != 2 || len(res.Thresholds) != 1 || !res.Thresholds[0].OK {
		t.Errorf("segment %+v, thresholds %+v", res.Run.Segment, res.Thresholds)
	}
	if !strings.Contains(stdout, "merged from 2 segments") {
		t.Errorf("summary does not say it was merged:\n%s", stdout)
	}

	_, stderr, code = runSurge(t, "merge", filepath.Join(dir, "part0.json"), filepath.Join(dir, "part0.json"))
	if code != exitInvalid || !strings.Contains(stderr, "same run as part 1") {
		t.Errorf("merging one segment twice: exit %d, %q", code, stderr)
	}
	_, stderr, code = runSurge(t, "merge", filepath.Join(dir, "part1.json"))
	if code != exitInvalid || !strings.Contains(stderr, "merge all 2 segments") {
		t.Errorf("merging one of two segments: exit %d, %q", code, stderr)
	}
	_, stderr, code = runSurge(t, "run", "--url", srv.URL, "--rate", "10", "--duration", "1s", "--segment", "2/2")
	if code != exitInvalid || !strings.Contains(stderr, "--segment") {
		t.Errorf("--segment 2/2: exit %d, %q", code, stderr)
	}
}
