package search

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/surge-load/surge"
	"github.com/surge-load/surge/analysis"
	"github.com/surge-load/surge/executor"
	"github.com/surge-load/surge/protocol/httpc"
	"github.com/surge-load/surge/result"
	"github.com/surge-load/surge/scenario"
)

// A server that degrades with the work it has done: it answers in 5 ms
// until it has served cliff requests, then in 150 ms; its health check
// fails a little before. A search on it finds a maximum early, but the
// maximum held again at the end fails: the verdict must say the maximum
// was not confirmed and that the health check failed, not blame the level.
func TestSearchOnADegradingServer(t *testing.T) {
	const cliff, unhealthy = 380, 300
	var served atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/health" {
			if served.Load() >= unhealthy {
				w.WriteHeader(http.StatusServiceUnavailable)
			}
			return
		}
		if served.Add(1) > cliff {
			time.Sleep(150 * time.Millisecond)
			return
		}
		time.Sleep(5 * time.Millisecond)
	}))
	t.Cleanup(srv.Close)
	build := func(level float64, d time.Duration) (*surge.Plan, error) {
		load := executor.Closed{Start: int(level), Stages: []executor.Stage{{Duration: d, Target: level}}, Grace: 5 * time.Second}
		return surge.SingleURL(surge.Request{URL: srv.URL + "/", HTTP: httpc.Options{Timeout: 5 * time.Second}}, load, nil)
	}
	p95, err := analysis.ParseThreshold("p95<50ms")
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{
		Search:      scenario.Search{Model: Users, Start: 1, Factor: 2, Max: 2, Step: time.Second, Budget: time.Minute},
		Build:       build,
		Objectives:  []analysis.Threshold{p95},
		Cooldown:    10 * time.Millisecond,
		HealthCheck: HealthGET(srv.URL+"/health", time.Second),
	}
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	c := res.Capacity
	for _, st := range c.Steps {
		t.Logf("%-7s %g: %.1f rps, p95 %.1f ms, ok %v, health %q", st.Phase, st.Level, st.RPS, st.Latency.P95, st.OK, st.Health)
	}
	v := c.Verdict
	t.Logf("verdict: %s", v.Detail)
	last := c.Steps[len(c.Steps)-1]
	if last.Phase != "confirm" || v.Confirmed == nil || *v.Confirmed || !strings.Contains(v.Detail, "Not confirmed") {
		t.Errorf("last step %+v, confirmed %v; want a failed confirm step and the verdict saying so", last, v.Confirmed)
	}
	noted := false
	for _, st := range c.Steps {
		noted = noted || st.Health != ""
	}
	if !noted || !strings.Contains(v.Detail, "health check failed") {
		t.Errorf("no step notes the failed health check, or the verdict does not: %s", v.Detail)
	}
}

// Steps that contradict each other are named: a level failing below one
// that passed, or stopping answering below one that still answered.
func TestOutOfOrder(t *testing.T) {
	step := func(level float64, ok bool, reason string, okRPS float64) *trial {
		return &trial{step: result.CapacityStep{Level: level, OK: ok, Reason: reason, OKRPS: okRPS}}
	}
	s := &searcher{cfg: Config{Search: scenario.Search{Model: Users}}}
	s.trials = []*trial{step(10, true, "", 100), step(20, false, result.ReasonPlateau, 110), step(15, false, result.ReasonPlateau, 108), step(12, false, result.ReasonStopped, 0)}
	if got := s.outOfOrder(); !strings.Contains(got, "12 users stopped answering after 20 users still answered") {
		t.Errorf("out of order %q", got)
	}
	s.trials = []*trial{step(10, true, "", 100), step(20, true, "", 200), step(15, false, result.ReasonLatency, 150)}
	if got := s.outOfOrder(); !strings.Contains(got, "15 users failed (latency) after 20 users had passed") {
		t.Errorf("out of order %q", got)
	}
	s.trials = []*trial{step(10, true, "", 100), step(20, false, result.ReasonLatency, 150), step(15, true, "", 140)}
	if got := s.outOfOrder(); got != "" {
		t.Errorf("in order, yet %q", got)
	}
}
