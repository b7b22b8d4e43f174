package search_test

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/surge-load/surge/result"
	"github.com/surge-load/surge/search"
)

// queueServer processes slots requests at once, each for service, and
// queues the rest without bound: it completes at most
// slots/service requests per second whatever it is offered.
func queueServer(t *testing.T, slots int, service time.Duration) string {
	t.Helper()
	sem := make(chan struct{}, slots)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case sem <- struct{}{}:
		case <-r.Context().Done():
			return
		}
		time.Sleep(service)
		<-sem
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// In the open model a server with an unbounded queue finishes the
// arrivals of an overloaded step after the step: a step's throughput must
// be what completed inside its judged window, so the plateau rule fires
// and the named maximum is one the server served.
//
// The rates are low (at most 80/s offered) and the service time long, so
// that a busy machine's delays are small beside it: they can only lower
// what completes, never raise it above what the slots allow.
func TestOpenModelThroughputIsWhatCompleted(t *testing.T) {
	const slots, service = 4, 100 * time.Millisecond
	const served = slots * float64(time.Second) / float64(service) // 40/s
	cfg := shortSearch(search.Rate, singleURL(queueServer(t, slots, service), search.Rate), 10)
	cfg.Objectives = objectives(t, "errors<1%")
	cfg.Resolution = 0.6 // one narrowing step at most: fewer steps on a busy machine
	c := run(t, cfg)
	for _, st := range c.Steps {
		if st.RPS > 1.05*served {
			t.Errorf("step at %g/s: %.1f rps, more than the %g/s the server can complete", st.Level, st.RPS, served)
		}
	}
	v := c.Verdict
	if v.Reason != result.ReasonPlateau && v.Reason != result.ReasonNotSustained {
		t.Errorf("verdict %q: %s; want a plateau or not sustained", v.Reason, v.Detail)
	}
	// A level passes only if at least 90% of it completed: the named
	// maximum is never above what completed.
	if v.MaxLevel > 0 && v.MaxRPS < 0.9*v.MaxLevel {
		t.Errorf("maximum %g/s at %.1f rps completed: more than 10%% short", v.MaxLevel, v.MaxRPS)
	}
	if v.MaxRPS > 1.05*served || v.MaxLevel > 1.2*served {
		t.Errorf("maximum %g/s (%.1f rps); the server completes at most %g/s", v.MaxLevel, v.MaxRPS, served)
	}
}

// The warm-up is left out of a step's window once: at 100/s offered and
// served, a step's throughput and its rps objective read 100/s.
func TestStepRateCountsTheWarmupOnce(t *testing.T) {
	cfg := shortSearch(search.Rate, singleURL(queueServer(t, 8, time.Millisecond), search.Rate), 100)
	cfg.Max, cfg.NoConfirm = 100, true
	cfg.Objectives = objectives(t, "rps<=110", "rps>=90", "errors<1%")
	c := run(t, cfg)
	if len(c.Steps) != 1 {
		t.Fatalf("%d steps, want 1", len(c.Steps))
	}
	st := c.Steps[0]
	if !st.OK || st.RPS < 90 || st.RPS > 110 {
		t.Errorf("step at 100/s: ok %v, %.1f rps, broken %v; want ok near 100 rps", st.OK, st.RPS, st.Broken)
	}
}
