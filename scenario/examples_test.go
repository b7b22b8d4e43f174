package scenario_test

import (
	"context"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/surge-load/surge"
	"github.com/surge-load/surge/demo"
	"github.com/surge-load/surge/internal/servertest"
	"github.com/surge-load/surge/result"
	"github.com/surge-load/surge/scenario"
	"github.com/surge-load/surge/scenario/yamlfile"
)

// demoServer serves the demo service on 127.0.0.1 through handler wrap.
func demoServer(t *testing.T, wrap func(http.Handler) http.Handler) string {
	t.Helper()
	svc := demo.New(demo.Config{})
	h := http.Handler(svc)
	if wrap != nil {
		h = wrap(h)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(func() { srv.Close(); svc.Close() })
	return srv.URL
}

// runExample runs the example file against target with opts.
func runExample(t *testing.T, file, target string, opts scenario.Options) *result.Result {
	t.Helper()
	return runExampleUntil(t, context.Background(), file, target, opts)
}

// runExampleUntil runs the example file against target with opts, until
// its end or until ctx is done.
func runExampleUntil(t *testing.T, ctx context.Context, file, target string, opts scenario.Options) *result.Result {
	t.Helper()
	opts.Target = target
	plan, err := yamlfile.Load(filepath.Join("..", "examples", file), opts)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	res, err := surge.Run(ctx, plan, surge.Options{})
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return res
}

func endpoint(res *result.Result, name string) result.EndpointStats {
	for _, e := range res.Endpoints {
		if e.Name == name {
			return e
		}
	}
	return result.EndpointStats{}
}

// folderService is a minimal in-memory stand-in for the folder service
// of field report 1, cheap enough for tens of thousands of tasks in a few
// seconds even under the race detector. It counts what it serves.
type folderService struct {
	lastID  atomic.Int64 // folder ids: the root is 1
	created atomic.Int64 // folders created
	early   atomic.Int64 // moves while 100 or fewer folders existed
	moves   atomic.Int64
}

func (f *folderService) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	_, _ = io.Copy(io.Discard, r.Body)
	w.Header().Set("Content-Type", "application/json")
	switch {
	case r.Method == http.MethodPost && r.URL.Path == "/api/v1/users":
		f.lastID.Store(1)
		w.WriteHeader(http.StatusCreated)
		_, _ = io.WriteString(w, `{"id":7,"rootFolderId":1}`)
	case r.Method == http.MethodPost && r.URL.Path == "/api/v1/folders":
		id := f.lastID.Add(1)
		f.created.Add(1)
		w.WriteHeader(http.StatusCreated)
		_, _ = fmt.Fprintf(w, `{"id":%d}`, id)
	case r.Method == http.MethodPatch:
		f.moves.Add(1)
		if f.lastID.Load() <= 100 {
			f.early.Add(1)
		}
		_, _ = io.WriteString(w, `{}`)
	default:
		_, _ = io.WriteString(w, `{"items":[],"nextCursor":null}`)
	}
}

// The folder test of field report 1, without think time, on a local
// server: its tasks run in the 6:2:2 mix, the shared pool of folders grows
// from the one root, moves begin only once it holds more than 100
// folders, and the statistics have one row per task, not one per URL.
func TestExampleFoldersTest1Mix(t *testing.T) {
	svc := &folderService{}
	srv := httptest.NewServer(svc)
	defer srv.Close()
	// Run until 10,500 tasks have been picked: a second or so, a few
	// under the race detector, up to 30 s on a busy machine.
	ctx, enough := context.WithCancel(context.Background())
	defer enough()
	var mu sync.Mutex
	picks := map[int]int{}
	scenario.SetTaskHook(func(_ string, task int) {
		mu.Lock()
		picks[task]++
		if picks[0]+picks[1]+picks[2] == 10_500 {
			enough()
		}
		mu.Unlock()
	})
	defer scenario.SetTaskHook(nil)

	res := runExampleUntil(t, ctx, "folders-test1.yaml", srv.URL,
		scenario.Options{Users: 20, Duration: 30 * time.Second, Think: &scenario.Pause{}})

	total := picks[0] + picks[1] + picks[2]
	if total < 10_000 {
		t.Fatalf("%d tasks, want at least 10,000 for the mix to show", total)
	}
	for i, want := range []float64{0.6, 0.2, 0.2} {
		if got := float64(picks[i]) / float64(total); math.Abs(got-want) > 0.02 {
			t.Errorf("task %d ran %.3f of the time, want %.1f±0.02", i, got, want)
		}
	}
	t.Logf("%d tasks: %v; %d folders created, %d moves", total, picks, svc.created.Load(), svc.moves.Load())
	if svc.created.Load() != int64(picks[1]) || svc.moves.Load() == 0 {
		t.Errorf("%d folders created for %d picks, and %d moves", svc.created.Load(), picks[1], svc.moves.Load())
	}
	if svc.early.Load() > 0 {
		t.Errorf("%d moves sent before the pool held 100 folders", svc.early.Load())
	}
	var rows []string
	for _, e := range res.Endpoints {
		rows = append(rows, e.Name)
	}
	want := []string{"POST /api/v1/users", "list folder", "create folder", "move folder"}
	if !slices.Equal(rows, want) {
		t.Errorf("statistics rows %q, want %q", rows, want)
	}
	if e := endpoint(res, "list folder"); e.Failures != 0 || e.Requests != int64(picks[0]) {
		t.Errorf("list folder: %d requests, %d failures, for %d picks", e.Requests, e.Failures, picks[0])
	}
	if e := endpoint(res, "create folder"); e.Failures != 0 || e.Requests != int64(picks[1]) {
		t.Errorf("create folder: %d requests, %d failures, for %d picks", e.Requests, e.Failures, picks[1])
	}
}

// The same file against the demo service: every list succeeds, the tree
// grows, and moves happen, some refused as the field report describes.
func TestExampleFoldersTest1(t *testing.T) {
	var created, early, moves atomic.Int64
	target := demoServer(t, func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodPatch {
				moves.Add(1)
				if created.Load()+1 <= 100 { // the root and the folders created so far
					early.Add(1)
				}
			}
			rec := &servertest.StatusWriter{ResponseWriter: w}
			next.ServeHTTP(rec, r)
			if r.Method == http.MethodPost && r.URL.Path == "/api/v1/folders" && rec.Status() == http.StatusCreated {
				created.Add(1)
			}
		})
	})
	res := runExample(t, "folders-test1.yaml", target,
		scenario.Options{Users: 20, Duration: 2 * time.Second, Think: &scenario.Pause{}})
	if created.Load() < 100 || moves.Load() == 0 || early.Load() > 0 {
		t.Errorf("%d folders created; %d moves, %d of them before 100 folders", created.Load(), moves.Load(), early.Load())
	}
	if e := endpoint(res, "list folder"); e.Requests == 0 || e.Failures != 0 {
		t.Errorf("list folder: %d requests, %d failures %v", e.Requests, e.Failures, e.Errors)
	}
	if n := len(res.Endpoints); n != 4 {
		t.Errorf("%d statistics rows, want the setup's and 3 tasks'", n)
	}
}

// Test 2 of field report 1: list:move = 8:2 on a seeded tree of 8,000.
func TestExampleFoldersTest2(t *testing.T) {
	res := runExample(t, "folders-test2.yaml", demoServer(t, nil),
		scenario.Options{Users: 10, Duration: 2 * time.Second, Think: &scenario.Pause{}})
	list, move := endpoint(res, "list folder"), endpoint(res, "move folder")
	if list.Requests < 100 || list.Failures != 0 {
		t.Errorf("list folder: %d requests, %d failures", list.Requests, list.Failures)
	}
	ratio := float64(list.Requests) / float64(list.Requests+move.Requests)
	if math.Abs(ratio-0.8) > 0.05 {
		t.Errorf("lists were %.2f of the tasks, want 0.8", ratio)
	}
	if seed := endpoint(res, "POST /api/v1/seed"); seed.Requests != 1 || seed.Failures != 0 {
		t.Errorf("seed: %+v", seed.Stats)
	}
}

// The log-ingestion loop sends 100 lines per request.
func TestExampleLogsEndless(t *testing.T) {
	var lines, requests atomic.Int64
	target := demoServer(t, func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/api/v1/logs" {
				var buf strings.Builder
				_, _ = copyBody(&buf, r)
				lines.Add(int64(strings.Count(buf.String(), "msg=request served")))
				requests.Add(1)
				r.Body = readCloser(buf.String())
			}
			next.ServeHTTP(w, r)
		})
	})
	res := runExample(t, "logs-endless.yaml", target, scenario.Options{Users: 5, Duration: 2 * time.Second})
	e := endpoint(res, "ingest logs")
	if e.Requests < 50 || e.Failures != 0 {
		t.Errorf("ingest logs: %d requests, %d failures %v", e.Requests, e.Failures, e.Errors)
	}
	if requests.Load() == 0 || lines.Load() != 100*requests.Load() {
		t.Errorf("%d lines in %d requests, want 100 each", lines.Load(), requests.Load())
	}
}

// Polling with bursts: the bursts arrive 100 at once, and the warm-up is
// kept out of the totals.
func TestExamplePollingBurst(t *testing.T) {
	res := runExample(t, "polling-burst.yaml", demoServer(t, nil), scenario.Options{Duration: 3100 * time.Millisecond})
	poll, burst := endpoint(res, "poll"), endpoint(res, "burst")
	// The timeline is scaled by 3.1s/31m: bursts every 1s from 0.1s, so 3
	// bursts of 100; the warm-up is the first 0.1s.
	if burst.Requests != 300 || burst.Failures != 0 || res.Totals.Dropped != 0 {
		t.Errorf("burst: %d requests, %d failures, %d dropped; want 3 bursts of 100", burst.Requests, burst.Failures, res.Totals.Dropped)
	}
	if poll.Requests < 100 || poll.Failures != 0 {
		t.Errorf("poll: %d requests, %d failures", poll.Requests, poll.Failures)
	}
	if res.Warmup == nil || res.Warmup.Requests == 0 || res.Warmup.DurationS < 0.09 || res.Warmup.DurationS > 0.11 {
		t.Errorf("warmup %+v, want the polls of the first 0.1s", res.Warmup)
	}
	var inSeries int64
	for _, p := range res.Series {
		inSeries += p.Requests
	}
	if inSeries != res.Totals.Requests+res.Warmup.Requests {
		t.Errorf("series has %d requests, totals %d and warm-up %d", inSeries, res.Totals.Requests, res.Warmup.Requests)
	}
}

func copyBody(dst *strings.Builder, r *http.Request) (int64, error) {
	defer r.Body.Close()
	return io.Copy(dst, r.Body)
}

func readCloser(s string) io.ReadCloser { return io.NopCloser(strings.NewReader(s)) }
