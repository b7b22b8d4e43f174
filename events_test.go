package surge_test

import (
	"math"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/surge-load/surge/executor"
)

// Short dips are found and their period named (issue 11.12): a server
// that stops answering for 1.2 s every 5 s gives 0 rps for a second or two,
// three times or more, which the collapse rule (three seconds) never saw.
func TestShortPeriodicDipsAreFound(t *testing.T) {
	// 5 ms a request, so that four users make a steady ~800/s that a
	// busy machine does not scatter much.
	start := time.Now()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if into := time.Since(start) % (5 * time.Second); into < 1200*time.Millisecond {
			time.Sleep(1200*time.Millisecond - into)
		}
		time.Sleep(5 * time.Millisecond)
	}))
	defer srv.Close()
	res := runPlan(t, srv.URL, executor.Closed{Start: 4, Stages: []executor.Stage{{Duration: 27 * time.Second, Target: 4}}, Grace: 5 * time.Second})
	var dips int
	for _, e := range res.Excursions {
		if e.Series == "throughput" && e.Kind == "dip" {
			dips++
			if e.LastedS < 1 || e.LastedS > 3 || e.Extreme > 0.5*e.Baseline {
				t.Errorf("dip %+v: want 1-3 s down to under half", e)
			}
		}
	}
	if dips < 3 {
		for _, p := range res.Series {
			t.Logf("t=%v ok=%d p95=%.1f", p.T, p.Requests-p.Failures, p.Latency.P95)
		}
		t.Fatalf("%d throughput dips found, want 3 or more: %+v", dips, res.Excursions)
	}
	var found bool
	for _, p := range res.Periodic {
		if p.Series == "throughput" && p.Kind == "dip" {
			found = true
			if math.Abs(p.EveryS-5) > 1 {
				t.Errorf("dips every %v s, want 5: %+v", p.EveryS, res.Excursions)
			}
		}
	}
	if !found {
		t.Errorf("no periodicity among %+v", res.Excursions)
	}
	if res.Collapse != nil {
		t.Errorf("short dips taken for a collapse: %+v", res.Collapse)
	}
}
