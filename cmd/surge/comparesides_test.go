package main

import (
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// surge compare a1 a2 -- b1 b2 compares two sides of two runs each: real
// runs against a server that answers in 10 ms and one that answers in
// 20 ms. Each side is named by its runs, its latency is worse beyond the
// noise of the spread between its runs, and a side without files is bad
// input.
func TestCompareSidesOfSeveralRuns(t *testing.T) {
	server := func(d time.Duration) string {
		srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { time.Sleep(d) }))
		t.Cleanup(srv.Close)
		return srv.URL
	}
	fast, slow := server(10*time.Millisecond), server(20*time.Millisecond)
	dir := t.TempDir()
	runs := []struct{ name, url string }{{"fast-1", fast}, {"fast-2", fast}, {"slow-1", slow}, {"slow-2", slow}}
	var wg sync.WaitGroup
	errs := make([]string, len(runs))
	for i, r := range runs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, stderr, code := runSurge(t, "run", "--url", r.url+"/", "--rate", "50", "--duration", "6s", "--max-users", "20", "-q",
				"--out", filepath.Join(dir, r.name+".json")); code != exitOK {
				errs[i] = stderr
			}
		}()
	}
	wg.Wait()
	for i, e := range errs {
		if e != "" {
			t.Fatalf("%s: %s", runs[i].name, e)
		}
	}
	p := func(name string) string { return filepath.Join(dir, name+".json") }
	stdout, stderr, code := runSurge(t, "compare", p("fast-1"), p("fast-2"), "--", p("slow-1"), p("slow-2"))
	if code != exitOK {
		t.Fatalf("compare: exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "fast-1 … fast-2 (2 runs)") || !strings.Contains(stdout, "slow-1 … slow-2 (2 runs)") {
		t.Errorf("the sides are not named by their runs:\n%s", stdout)
	}
	if !regexp.MustCompile(`(?m)^ok_p50 .* worse$`).MatchString(stdout) {
		t.Errorf("twice the latency is not marked worse:\n%s", stdout)
	}
	if _, stderr, code := runSurge(t, "compare", p("fast-1"), p("fast-2"), "--"); code != exitInvalid || !strings.Contains(stderr, "side 2 of -- has no result files") {
		t.Errorf("a side without files: exit %d, %q; want exit %d naming the side", code, stderr, exitInvalid)
	}
	// Options after -- would be read as files: say where they go.
	if _, stderr, code := runSurge(t, "compare", p("fast-1"), "--", p("slow-1"), "--md"); code != exitInvalid || !strings.Contains(stderr, "give options before it") {
		t.Errorf("an option after --: exit %d, %q; want exit %d saying options go before --", code, stderr, exitInvalid)
	}
	// Without --, more than two files are still a sequence of runs.
	if stdout, _, code := runSurge(t, "compare", p("fast-1"), p("fast-2"), p("slow-1")); code != exitOK || !strings.Contains(stdout, "3 runs") {
		t.Errorf("a sequence of three: exit %d:\n%s", code, stdout)
	}
}
