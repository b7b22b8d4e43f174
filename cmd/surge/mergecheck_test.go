package main

import (
	"bytes"
	"encoding/json"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/surge-load/surge/result"
)

// TestMergeRefusesPartsThatDoNotBelong runs real segments against a real
// server, then merges parts that do not belong together: each is refused
// with exit 2, naming the part and why. A segment's own summary says which
// segment it is, not that it was merged.
func TestMergeRefusesPartsThatDoNotBelong(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer srv.Close()
	dir := t.TempDir()
	path := func(name string) string { return filepath.Join(dir, name+".json") }
	startA := time.Now().Add(3 * time.Second).UTC().Format(time.RFC3339)
	startB := time.Now().Add(4 * time.Second).UTC().Format(time.RFC3339)
	runs := []struct {
		name, segment, start, rate string
	}{
		{"p0", "0/2", startA, "40"},
		{"p1", "1/2", startA, "40"},
		{"p1-later", "1/2", startB, "40"}, // another --start-at
		{"p1-other", "1/2", startA, "20"}, // another plan
		{"u1", "", "", "40"},              // two unsplit runs of one plan,
		{"u2", "", "", "40"},              // unrelated: each its own start
	}
	var wg sync.WaitGroup
	outs := make([]string, len(runs))
	errs := make([]string, len(runs))
	for i, r := range runs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			args := []string{"run", "--url", srv.URL + "/x", "--rate", r.rate, "--duration", "1s", "--max-users", "10", "--out", path(r.name)}
			if r.segment != "" {
				args = append(args, "--segment", r.segment, "--start-at", r.start)
			}
			cmd := exec.Command(surgeBin, args...)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Run(); err != nil {
				errs[i] = err.Error() + ": " + stderr.String()
			}
			outs[i] = stdout.String()
		}()
	}
	wg.Wait()
	for i, e := range errs {
		if e != "" {
			t.Fatalf("%s: %s", runs[i].name, e)
		}
	}
	if !strings.Contains(outs[0], "segment 0 of 2") || strings.Contains(outs[0], "merged") {
		t.Errorf("segment 0's own summary does not say it is segment 0 of 2:\n%s", outs[0])
	}
	if _, stderr, code := runSurge(t, "merge", path("p0"), path("p1"), "-o", path("merged")); code != exitOK {
		t.Fatalf("merging the two segments: exit %d: %s", code, stderr)
	}
	// forge writes a copy of part name with edit applied.
	forge := func(name, as string, edit func(*result.Result)) string {
		r, err := result.ReadFile(path(name))
		if err != nil {
			t.Fatal(err)
		}
		edit(r)
		b, _ := json.Marshal(r)
		if err := os.WriteFile(path(as), b, 0o644); err != nil {
			t.Fatal(err)
		}
		return path(as)
	}
	cases := []struct {
		what  string
		parts []string
		want  string
	}{
		{"another start", []string{path("p0"), path("p1-later")}, "share one start"},
		{"another plan", []string{path("p0"), path("p1-other")}, "another plan"},
		{"index 5 of 2", []string{path("p0"), forge("p1", "p5", func(r *result.Result) { r.Run.Segment.Index = 5; r.Run.ID += "x" })}, "segment 5 of 2"},
		{"a merged result and one of its parts", []string{path("merged"), path("p1")}, "segment 1 of 2, which part 1 holds too"},
		{"a merged result and its first part", []string{path("merged"), path("p0")}, "same run as part 1"},
		{"a part twice", []string{path("p0"), path("p0")}, "same run as part 1"},
		{"counts that overflow", []string{path("p0"), forge("p1", "p1-huge", func(r *result.Result) { r.Totals.Requests = math.MaxInt64 - 1 })}, "more than a count can hold"},
		{"one of two segments", []string{path("p1")}, "merge all 2 segments"},
		{"two unrelated unsplit runs", []string{path("u1"), path("u2")}, "share one start"},
		{"an unsplit run with a segment", []string{path("p0"), path("u1")}, "share one start"},
	}
	for _, c := range cases {
		_, stderr, code := runSurge(t, append([]string{"merge"}, c.parts...)...)
		if code != exitInvalid || !strings.Contains(stderr, c.want) {
			t.Errorf("%s: exit %d, %q; want exit %d saying %q", c.what, code, stderr, exitInvalid, c.want)
		}
	}
	// Merged parts whose segments are disjoint from the rest still merge.
	if _, stderr, code := runSurge(t, "merge", forge("merged", "m0", func(r *result.Result) { r.Run.Merged.Segments = []int{0} }), path("p1")); code != exitOK {
		t.Errorf("a merge of segment 0 with segment 1: exit %d: %s", code, stderr)
	}
}
