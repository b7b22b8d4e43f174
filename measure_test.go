package surge_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/surge-load/surge"
	"github.com/surge-load/surge/executor"
	"github.com/surge-load/surge/protocol/httpc"
	"github.com/surge-load/surge/result"
)

// stallServer answers at once, except that every period it stalls for
// stall: requests that arrive during a stall are held until it ends.
func stallServer(t *testing.T, period, stall time.Duration) *httptest.Server {
	t.Helper()
	start := time.Now()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		into := time.Since(start) % period
		if into < stall {
			time.Sleep(stall - into)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

func runPlan(t *testing.T, url string, load executor.Load) *result.Result {
	t.Helper()
	plan, err := surge.SingleURL(surge.Request{URL: url, HTTP: httpc.Options{Timeout: 5 * time.Second}}, load, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := surge.Run(context.Background(), plan, surge.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestOpenModelShowsStalls is the coordinated-omission check. A server stalls
// for 300 ms every second. In the open model requests keep arriving on
// schedule during a stall and their latency counts from the scheduled time,
// so the stall dominates p99; the achieved rate is the planned one. A closed
// model with two users, as a naive benchmark runs, sends almost nothing
// during the stalls, so its p99 hides them.
func TestOpenModelShowsStalls(t *testing.T) {
	const stall = 300 * time.Millisecond
	srv := stallServer(t, time.Second, stall)

	open := runPlan(t, srv.URL, executor.Open{StartRate: 200, Stages: []executor.Stage{{Duration: 4 * time.Second, Target: 200}}, MaxUsers: 200, Grace: 5 * time.Second})
	if open.Totals.Requests != 800 || open.Totals.Dropped != 0 || open.Totals.Failures != 0 {
		t.Fatalf("open model: %d requests, %d dropped, %d failures; want 800, 0, 0", open.Totals.Requests, open.Totals.Dropped, open.Totals.Failures)
	}
	if rps := open.Totals.RPS; rps < 198 || rps > 202 {
		t.Errorf("open model achieved %.2f rps; want 200 within 1%%", rps)
	}
	if p99 := open.Totals.Latency.P99; p99 < 0.8*float64(stall.Milliseconds()) {
		t.Errorf("open model p99 = %.1f ms; a %v stall every second must show in it", p99, stall)
	}
	if p50 := open.Totals.Latency.P50; p50 > 50 {
		t.Errorf("open model p50 = %.1f ms; outside the stalls the server is fast", p50)
	}
	// Latency and service time differ by the generator's dispatch lag only.
	if lag := open.Totals.Latency.P50 - open.Totals.ServiceTime.P50; lag < 0 || lag > 20 {
		t.Errorf("open model: latency p50 %.2f ms vs service time p50 %.2f ms", open.Totals.Latency.P50, open.Totals.ServiceTime.P50)
	}

	closed := runPlan(t, srv.URL, executor.Closed{Start: 2, Stages: []executor.Stage{{Duration: 4 * time.Second, Target: 2}}, Grace: 5 * time.Second})
	if closed.Totals.Requests < 1000 {
		t.Fatalf("closed model sent only %d requests", closed.Totals.Requests)
	}
	if closed.Totals.ServiceTime.P99 > open.Totals.Latency.P99/3 {
		t.Errorf("closed model p99 %.1f ms already shows the stall; the comparison proves nothing", closed.Totals.ServiceTime.P99)
	}
	t.Logf("open model: p50 %.2f ms, p99 %.1f ms, %.2f rps; closed model (2 users): p99 %.2f ms over %d requests",
		open.Totals.Latency.P50, open.Totals.Latency.P99, open.Totals.RPS, closed.Totals.ServiceTime.P99, closed.Totals.Requests)
}

// TestFullPoolDrops offers more arrivals than a small pool of users can
// serve: the excess is counted as dropped, and every scheduled arrival is
// either sent or dropped.
func TestFullPoolDrops(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(100 * time.Millisecond)
	}))
	defer srv.Close()
	res := runPlan(t, srv.URL, executor.Open{StartRate: 100, Stages: []executor.Stage{{Duration: time.Second, Target: 100}}, MaxUsers: 2, Grace: 5 * time.Second})
	if res.Totals.Dropped == 0 || res.Totals.Requests+res.Totals.Dropped != 100 {
		t.Fatalf("%d sent + %d dropped; want some dropped and 100 in all", res.Totals.Requests, res.Totals.Dropped)
	}
	if res.Totals.Requests > 30 {
		t.Errorf("2 users at 100 ms each sent %d requests in 1 s", res.Totals.Requests)
	}
	var found bool
	for _, e := range res.Errors {
		if e.Class == "dropped" && e.Count == res.Totals.Dropped && e.Hint != "" {
			found = true
		}
	}
	if !found {
		t.Errorf("errors %+v lack the dropped class", res.Errors)
	}
	if want := float64(res.Totals.Dropped) / 100; res.Totals.ErrorRate != want {
		t.Errorf("error rate %v, want %v (drops count as errors)", res.Totals.ErrorRate, want)
	}
}
