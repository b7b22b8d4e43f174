package surge_test

import (
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/surge-load/surge/demo"
	"github.com/surge-load/surge/executor"
	"github.com/surge-load/surge/internal/servertest"
)

// serverCounts is what the server saw of a run, counted in front of it: the
// responses by status, and the time the successes spent in it (their wait
// for a slot included).
type serverCounts struct {
	mu       sync.Mutex
	statuses map[int]int64
	okTime   time.Duration
}

func (c *serverCounts) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &servertest.StatusWriter{ResponseWriter: w}
		h.ServeHTTP(sw, r)
		c.mu.Lock()
		defer c.mu.Unlock()
		c.statuses[sw.Status()]++
		if sw.Status() == http.StatusOK {
			c.okTime += time.Since(start)
		}
	})
}

// take returns the counts so far and starts again.
func (c *serverCounts) take() (map[int]int64, time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	s, d := c.statuses, c.okTime
	c.statuses, c.okTime = map[int]int64{}, 0
	return s, d
}

// TestDemoCapacityIsWhereTheKnobSays sets the demo service's in-flight limit
// to 8 with 100 ms per request, a capacity of 80 requests per second, and
// checks what a busy machine cannot change: surge counts exactly the
// responses the server gave; at an eighth of the capacity every request
// succeeds; at twice the capacity the server refuses some (503) and
// completes no more than its 8 slots of 100 ms allow, and its successes
// kept those slots busy: their count is at least 80% of what 8 slots
// complete in the 4 s offered, at the time each success took in the server.
// A busy machine slows the service, which lowers both the count and that
// bound alike; a limit of 4 or 16 would break one of the two.
func TestDemoCapacityIsWhereTheKnobSays(t *testing.T) {
	cfg := demo.DefaultConfig()
	cfg.MaxInFlight, cfg.QueueSize, cfg.QueueTimeout = 8, 8, 50*time.Millisecond
	cfg.Latency = demo.Latency{Dist: demo.Fixed, Mean: 100 * time.Millisecond}
	svc := demo.New(cfg)
	defer svc.Close()
	counts := &serverCounts{statuses: map[int]int64{}}
	srv := httptest.NewServer(counts.wrap(svc))
	defer srv.Close()
	url := srv.URL + "/api/v1/logs/stats"
	const (
		slots   = 8
		service = 100 * time.Millisecond
		length  = 4 * time.Second
	)

	for _, offered := range []float64{10, 160} {
		res := runPlan(t, url, executor.Open{StartRate: offered, Stages: []executor.Stage{{Duration: length, Target: offered}}, MaxUsers: 100, Grace: 5 * time.Second})
		seen, okTime := counts.take()
		ok, refused := res.Totals.Statuses["200"], res.Totals.Statuses["503"]
		t.Logf("offered %.0f/s: %d ok, %d refused (503) in %.2f s; server: %v, a success %v in it on average",
			offered, ok, refused, res.Run.DurationS, seen, okTime/time.Duration(max(ok, 1)))
		if res.Totals.Requests+res.Totals.Dropped != int64(offered*length.Seconds()) {
			t.Errorf("offered %.0f/s for 4 s: %d sent + %d dropped", offered, res.Totals.Requests, res.Totals.Dropped)
		}
		if ok != seen[200] || refused != seen[503] || res.Totals.Requests != seen[200]+seen[503] {
			t.Errorf("offered %.0f/s: surge counted %d ok and %d refused of %d; the server answered %v", offered, ok, refused, res.Totals.Requests, seen)
		}
		if offered*service.Seconds() < slots {
			if ok != res.Totals.Requests || res.Totals.Dropped != 0 {
				t.Errorf("below capacity (%.0f/s): %d of %d ok, %d dropped; want every one served", offered, ok, res.Totals.Requests, res.Totals.Dropped)
			}
			continue
		}
		if refused == 0 {
			t.Errorf("above capacity (%.0f/s): no refusals", offered)
		}
		if most := int64(slots*res.Run.DurationS/service.Seconds()) + slots + int64(cfg.QueueSize); ok > most {
			t.Errorf("above capacity (%.0f/s): %d ok in %.2f s, more than %d slots of %v allow (%d)", offered, ok, res.Run.DurationS, slots, service, most)
		}
		if least := int64(0.8 * slots * float64(length) / float64(okTime/time.Duration(max(ok, 1)))); ok < least {
			t.Errorf("above capacity (%.0f/s): %d ok, fewer than 80%% of what %d busy slots complete in %v at %v each (%d)", offered, ok, slots, length, okTime/time.Duration(max(ok, 1)), least)
		}
	}
}
