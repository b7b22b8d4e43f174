package surge_test

import (
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/surge-load/surge/executor"
	"github.com/surge-load/surge/result"
)

// Saturation is judged from what delays sends: the arrivals of the open
// model are counted, with those handed out late, in every second; a
// closed model's think times, which delay nothing measured, never are.
func TestArrivalsCountedForSaturation(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	t.Cleanup(srv.Close)
	arrivals := func(res *result.Result) (n, late int64) {
		for _, p := range res.Series {
			n += p.Generator.Arrivals
			late += p.Generator.LateArrivals
		}
		return n, late
	}
	open := runPlan(t, srv.URL, executor.Open{StartRate: 100, Stages: []executor.Stage{{Duration: 2 * time.Second, Target: 100}}, MaxUsers: 50, Grace: 5 * time.Second})
	if n, late := arrivals(open); n != open.Totals.Requests || late > n {
		t.Errorf("open model: %d arrivals (%d late) in the series, %d requests; want one per request", n, late, open.Totals.Requests)
	}
	think := func(*rand.Rand) time.Duration { return 50 * time.Millisecond }
	closed := runPlan(t, srv.URL, executor.Closed{Start: 5, Stages: []executor.Stage{{Duration: 2 * time.Second, Target: 5}}, Think: think, Grace: 5 * time.Second})
	if n, _ := arrivals(closed); n != 0 {
		t.Errorf("closed model: %d arrivals; think times are not arrivals", n)
	}
	if s := closed.Generator.Saturation; s != nil {
		for _, c := range s.Causes {
			if c == "lag" {
				t.Errorf("closed model with think time judged saturated by lag: %+v", s)
			}
		}
	}
}
