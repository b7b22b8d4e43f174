package surge_test

import (
	"context"
	"testing"
	"time"

	"github.com/surge-load/surge/demo"
	"github.com/surge-load/surge/executor"
)

// TestDemoCapacityIsWhereTheKnobSays sets the demo service's in-flight limit
// to 8 with 100 ms per request, a capacity of 80 requests per second, and
// checks that surge measures exactly that: below it every request succeeds
// at the offered rate; above it successful throughput levels off at 80/s
// and refusals (503) begin.
func TestDemoCapacityIsWhereTheKnobSays(t *testing.T) {
	cfg := demo.DefaultConfig()
	cfg.MaxInFlight, cfg.QueueSize, cfg.QueueTimeout = 8, 8, 50*time.Millisecond
	cfg.Latency = demo.Latency{Dist: demo.Fixed, Mean: 100 * time.Millisecond}
	srv, err := demo.Start(context.Background(), "127.0.0.1:0", cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	url := srv.URL + "/api/v1/logs/stats"
	const capacity = 80.0

	for _, offered := range []float64{40, 160} {
		res := runPlan(t, url, executor.Open{StartRate: offered, Stages: []executor.Stage{{Duration: 4 * time.Second, Target: offered}}, MaxUsers: 100, Grace: 5 * time.Second})
		ok := float64(res.Totals.Statuses["200"]) / res.Run.DurationS
		refused := res.Totals.Statuses["503"]
		t.Logf("offered %.0f/s: %.1f ok/s, %d refused (503), p50 %.1f ms", offered, ok, refused, res.Totals.Latency.P50)
		if res.Totals.Requests+res.Totals.Dropped != int64(offered*4) {
			t.Errorf("offered %.0f/s for 4 s: %d sent + %d dropped", offered, res.Totals.Requests, res.Totals.Dropped)
		}
		if offered < capacity {
			if refused != 0 || ok < 0.97*offered {
				t.Errorf("below capacity (%.0f/s): %.1f ok/s and %d refused; want all %.0f/s served", offered, ok, refused, offered)
			}
			continue
		}
		if refused == 0 {
			t.Errorf("above capacity (%.0f/s): no refusals", offered)
		}
		if ok < 0.85*capacity || ok > 1.1*capacity {
			t.Errorf("above capacity (%.0f/s): %.1f ok/s; want it to level off at the knob's %.0f/s", offered, ok, capacity)
		}
	}
}
