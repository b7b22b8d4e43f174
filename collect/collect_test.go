package collect_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/surge-load/surge"
	"github.com/surge-load/surge/analysis"
	"github.com/surge-load/surge/collect"
	"github.com/surge-load/surge/errclass"
	"github.com/surge-load/surge/executor"
	"github.com/surge-load/surge/metrics"
	"github.com/surge-load/surge/result"
)

// inMemory is a client whose requests h answers in the same process, so
// that a split run can be rehearsed inside a synctest bubble.
func inMemory(h http.Handler) *http.Client {
	return &http.Client{Transport: roundTrip(func(req *http.Request) (*http.Response, error) {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if err := req.Context().Err(); err != nil {
			return nil, err // as a client whose request timed out
		}
		return rec.Result(), nil
	})}
}

type roundTrip func(*http.Request) (*http.Response, error)

func (f roundTrip) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// userFunc is a virtual user made of a function.
type userFunc func(ctx context.Context, it executor.Iteration)

func (f userFunc) Iterate(ctx context.Context, it executor.Iteration) { f(ctx, it) }

// fakePlan is an open-model plan whose users record one 2 ms operation per
// arrival, with a setup that records one operation and captures a value
// that every segment must adopt.
type fakePlan struct {
	setups  atomic.Int64
	mu      sync.Mutex
	adopted []string
}

func (f *fakePlan) plan(t *testing.T, thresholds ...string) *surge.Plan {
	t.Helper()
	var ths []analysis.Threshold
	for _, s := range thresholds {
		th, err := analysis.ParseThreshold(s)
		if err != nil {
			t.Fatal(err)
		}
		ths = append(ths, th)
	}
	record := func(rec *metrics.Recorder, ep metrics.EndpointID, worker int, intended time.Time) {
		start := time.Now()
		time.Sleep(2 * time.Millisecond)
		rec.Shard(worker).Record(&metrics.Sample{Endpoint: ep, Intended: intended, Start: start, End: time.Now(), Status: 200, Class: errclass.None})
	}
	return &surge.Plan{
		Target:     "http://fake",
		Thresholds: ths,
		Spec:       map[string]string{"plan": "fake"},
		Setup: func(ctx context.Context, rec *metrics.Recorder) (json.RawMessage, error) {
			f.setups.Add(1)
			record(rec, rec.Endpoint("setup"), 0, time.Time{})
			return json.RawMessage(`{"token":"from-setup"}`), nil
		},
		Adopt: func(b json.RawMessage) error {
			f.mu.Lock()
			f.adopted = append(f.adopted, string(b))
			f.mu.Unlock()
			return nil
		},
		Scenarios: []surge.Scenario{{
			Name:      "fake",
			Load:      executor.Open{StartRate: 30, Stages: []executor.Stage{{Duration: 4 * time.Second, Target: 30}}, MaxUsers: 10, Grace: time.Second},
			Endpoints: []string{"GET /", "setup"},
			Describe:  "30/s for 4s",
			Users: func(rec *metrics.Recorder) executor.NewUser {
				ep := rec.Endpoint("GET /")
				rec.Endpoint("setup")
				return func(id int) executor.User {
					return userFunc(func(ctx context.Context, it executor.Iteration) {
						record(rec, ep, id, it.LatencyFrom())
					})
				}
			},
		}},
	}
}

// runner runs segment i of plan against the collector c.
func runner(t *testing.T, c *collect.Collector, p *surge.Plan, i, n int) (*result.Result, error) {
	r, err := collect.NewRunner(collect.RunnerConfig{URL: "http://127.0.0.1:7070", Index: i, Count: n, Plan: p.Hash(), Planned: p.Duration(), Client: inMemory(c)})
	if err != nil {
		t.Fatal(err)
	}
	res, err := surge.Run(context.Background(), p, surge.Options{Segment: executor.Segment{Index: i, Count: n}, Coordinator: r, Watch: r.Watch})
	if err != nil {
		_ = r.Fail(context.Background(), err)
		return nil, err
	}
	return res, r.Finish(context.Background(), res)
}

func endpoint(r *result.Result, name string) result.Stats {
	for _, e := range r.Endpoints {
		if e.Name == name {
			return e.Stats
		}
	}
	return result.Stats{}
}

// TestSplitRunIsTheSingleRun runs a plan as three segments joined to a
// collector and once whole: the merged counts are the single run's, the
// setup ran once and its value reached every other segment, thresholds
// were judged once on the whole, and the live points add up to the parts.
func TestSplitRunIsTheSingleRun(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var whole fakePlan
		single, err := surge.Run(context.Background(), whole.plan(t, "rps>20"), surge.Options{})
		if err != nil {
			t.Fatal(err)
		}

		const n = 3
		var split fakePlan
		var ticked atomic.Int64
		var lastDropped atomic.Pointer[map[string]int64]
		var watched []*result.Result
		c, err := collect.New(collect.Config{Parts: n, JoinWait: time.Minute, PartWait: 10 * time.Second,
			OnTick: func(tk *metrics.Tick) {
				for _, e := range tk.Endpoints {
					ticked.Add(e.Requests)
				}
			},
			Watch: func(r *result.Result) { watched = append(watched, r) },
			OnDropped: func(m map[string]int64) {
				lastDropped.Store(&m)
			},
		})
		if err != nil {
			t.Fatal(err)
		}
		parts := make([]*result.Result, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				var err error
				if parts[i], err = runner(t, c, split.plan(t, "rps>20"), i, n); err != nil {
					t.Errorf("segment %d: %v", i, err)
				}
			})
		}
		merged, err := c.Wait(context.Background())
		wg.Wait()
		if err != nil {
			t.Fatal(err)
		}

		if got, want := merged.Totals.Requests, single.Totals.Requests; got != want {
			t.Errorf("merged %d requests, the single run %d", got, want)
		}
		if got := endpoint(merged, "GET /").Requests; got != 120 {
			t.Errorf("merged GET / requests = %d, want 30/s × 4s = 120", got)
		}
		if got := endpoint(merged, "setup").Requests; got != 1 {
			t.Errorf("the setup's operation counted %d times, want once", got)
		}
		if got := split.setups.Load(); got != 1 {
			t.Errorf("the setup ran %d times over %d segments, want once", got, n)
		}
		if len(split.adopted) != n-1 || split.adopted[0] != `{"token":"from-setup"}` {
			t.Errorf("adopted %q, want the setup's captures on each of the %d other segments", split.adopted, n-1)
		}
		if len(merged.Run.Missing) > 0 || merged.Run.Segment.Count != n {
			t.Errorf("run = %+v, want complete, %d segments", merged.Run, n)
		}

		// rps>20 fails on every part (10/s each) and passes on the whole.
		for i, p := range parts {
			if len(p.Thresholds) != 1 || p.Thresholds[0].OK {
				t.Errorf("part %d judged alone: %+v, want rps>20 failed", i, p.Thresholds)
			}
		}
		if len(merged.Thresholds) != 1 || !merged.Thresholds[0].OK {
			t.Errorf("merged thresholds = %+v, want rps>20 judged once and passed", merged.Thresholds)
		}

		live := c.Live()
		var liveSum int64
		for k, p := range live {
			var parts int64
			if k < len(merged.Series) {
				parts = merged.Series[k].Requests
			}
			if p.Requests != parts {
				t.Errorf("live second %d: %d requests, the parts' sum %d", k, p.Requests, parts)
			}
			liveSum += p.Requests
		}
		if liveSum != merged.Totals.Requests || ticked.Load() != merged.Totals.Requests {
			t.Errorf("live points hold %d requests, the ticks %d, the merged result %d", liveSum, ticked.Load(), merged.Totals.Requests)
		}
		if d := lastDropped.Load(); d == nil || len(*d) != 1 || (*d)["fake"] != merged.Totals.Dropped {
			t.Errorf("dropped by scenario %v, want the fake scenario's %d", d, merged.Totals.Dropped)
		}
		if len(watched) == 0 {
			t.Fatal("Watch never saw the run so far")
		}
		for _, w := range watched {
			if w.Run.Segment.Count != n || w.Totals.Requests > merged.Totals.Requests || len(w.Thresholds) != 1 {
				t.Errorf("watched a run so far of %d segments, %d requests, thresholds %+v", w.Run.Segment.Count, w.Totals.Requests, w.Thresholds)
			}
		}
	})
}

// TestRunnerNeverJoins starts two of three segments: the barrier falls at
// the join wait, the run goes on without the third, and the merged result
// names it and is incomplete.
func TestRunnerNeverJoins(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var fp fakePlan
		c, err := collect.New(collect.Config{Parts: 3, JoinWait: 30 * time.Second, PartWait: 10 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		for i := range 2 {
			wg.Go(func() {
				if _, err := runner(t, c, fp.plan(t), i, 3); err != nil {
					t.Errorf("segment %d: %v", i, err)
				}
			})
		}
		began := time.Now()
		merged, err := c.Wait(context.Background())
		wg.Wait()
		if err != nil {
			t.Fatal(err)
		}
		if took := time.Since(began); took > 30*time.Second+10*time.Second+10*time.Second {
			t.Errorf("the collector took %v, longer than its bounded waits", took)
		}
		if len(merged.Run.Missing) == 0 || len(merged.Run.Missing) != 1 || merged.Run.Missing[0].Index != 2 || !strings.Contains(merged.Run.Missing[0].Reason, "never joined") {
			t.Fatalf("missing = %+v, want segment 2, never joined", merged.Run.Missing)
		}
		if got := endpoint(merged, "GET /").Requests; got != 80 {
			t.Errorf("merged GET / requests = %d, want the two segments' 80", got)
		}
	})
}

// TestRunnerDiesMidRun has a segment that joins, starts, sends two live
// points and is heard of no more: the collector finishes at the plan's
// end plus its part wait and names the segment.
func TestRunnerDiesMidRun(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var fp fakePlan
		c, err := collect.New(collect.Config{Parts: 2, JoinWait: 30 * time.Second, PartWait: 5 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		p := fp.plan(t)
		var wg sync.WaitGroup
		over := make(chan struct{})
		wg.Go(func() {
			if _, err := runner(t, c, p, 0, 2); err != nil {
				t.Errorf("segment 0: %v", err)
			}
		})
		wg.Go(func() {
			r, err := collect.NewRunner(collect.RunnerConfig{URL: "http://127.0.0.1:7070", Index: 1, Count: 2, Plan: p.Hash(), Planned: p.Duration(), Client: inMemory(c)})
			if err != nil {
				t.Error(err)
				return
			}
			if _, err := r.Join(context.Background()); err != nil {
				t.Error(err)
				return
			}
			start, _, err := r.Start(context.Background(), nil, nil)
			if err != nil {
				t.Error(err)
				return
			}
			time.Sleep(time.Until(start))
			for k := range 2 {
				time.Sleep(time.Second)
				r.Tick(&metrics.Tick{Point: result.Point{T: float64(k), DurationS: 1}}, nil)
			}
			// Killed: no more points, no part. (Its stream goroutine
			// ends with the test.)
			<-over
			_ = r.Fail(context.Background(), errors.New("the test is over"))
		})
		began := time.Now()
		merged, err := c.Wait(context.Background())
		close(over)
		wg.Wait()
		if err != nil {
			t.Fatal(err)
		}
		if limit := 30*time.Second + p.Duration() + 5*time.Second; time.Since(began) > limit {
			t.Errorf("the collector took %v, more than its bounded wait %v", time.Since(began), limit)
		}
		if len(merged.Run.Missing) != 1 || merged.Run.Missing[0].Index != 1 || !strings.Contains(merged.Run.Missing[0].Reason, "stopped reporting 2s into the run") {
			t.Fatalf("missing = %+v, want segment 1, stopped reporting 2s into the run", merged.Run.Missing)
		}
	})
}

// TestSetupFailureCallsTheRunOff makes the setup fail: no segment applies
// load, every runner says why, and the collector returns the error.
func TestSetupFailureCallsTheRunOff(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var fp fakePlan
		c, err := collect.New(collect.Config{Parts: 2, JoinWait: 30 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		errs := make([]error, 2)
		for i := range 2 {
			wg.Go(func() {
				p := fp.plan(t)
				p.Setup = func(context.Context, *metrics.Recorder) (json.RawMessage, error) {
					return nil, errors.New("POST /users: 500")
				}
				_, errs[i] = runner(t, c, p, i, 2)
			})
		}
		_, err = c.Wait(context.Background())
		wg.Wait()
		if err == nil || !strings.Contains(err.Error(), "setup failed on segment 0: setup: POST /users: 500") {
			t.Errorf("collector: %v, want the setup's failure", err)
		}
		for i, err := range errs {
			if err == nil || !strings.Contains(err.Error(), "POST /users: 500") {
				t.Errorf("segment %d: %v, want the setup's failure", i, err)
			}
		}
	})
}

// TestJoinRefusals: a wrong token, another plan and a wrong split are
// refused with what to do.
func TestJoinRefusals(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c, err := collect.New(collect.Config{Parts: 2, Token: "s3cret", JoinWait: time.Second})
		if err != nil {
			t.Fatal(err)
		}
		join := func(token, plan string, i, n int) error {
			r, err := collect.NewRunner(collect.RunnerConfig{URL: "http://127.0.0.1:7070", Token: token, Index: i, Count: n, Plan: plan, Client: inMemory(c)})
			if err != nil {
				return err
			}
			_, err = r.Join(context.Background())
			return err
		}
		if err := join("wrong", "a", 0, 2); err == nil || !strings.Contains(err.Error(), "401") {
			t.Errorf("wrong token: %v, want 401", err)
		}
		if err := join("s3cret", "a", 0, 3); err == nil || !strings.Contains(err.Error(), "--segment I/2") {
			t.Errorf("3 segments on a collector of 2: %v", err)
		}
		done := make(chan error)
		go func() { done <- join("s3cret", "a", 0, 2) }()
		synctest.Wait()
		if err := join("s3cret", "b", 1, 2); err == nil || !strings.Contains(err.Error(), "different plan") {
			t.Errorf("another plan: %v", err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		waited := make(chan struct{})
		go func() { _, _ = c.Wait(ctx); close(waited) }()
		if err := <-done; err != nil {
			t.Errorf("first join: %v", err)
		}
		if err := join("s3cret", "a", 1, 2); err == nil || !strings.Contains(err.Error(), "too late") {
			t.Errorf("late join: %v, want too late", err)
		}
		cancel()
		<-waited
	})
}

func TestCheckToken(t *testing.T) {
	for _, host := range []string{"127.0.0.1", "::1", "[::1]", "localhost", "127.0.0.5"} {
		if err := collect.CheckToken(host, ""); err != nil {
			t.Errorf("%s: %v, want no token needed on loopback", host, err)
		}
	}
	for _, host := range []string{"", "0.0.0.0", "10.0.0.5", "surge-collector"} {
		if err := collect.CheckToken(host, ""); err == nil || !strings.Contains(err.Error(), "--token") {
			t.Errorf("%q: %v, want a token required", host, err)
		}
		if err := collect.CheckToken(host, "t"); err != nil {
			t.Errorf("%q with a token: %v", host, err)
		}
	}
	if _, err := collect.NewRunner(collect.RunnerConfig{URL: "http://surge-collector:7070", Count: 1}); err == nil {
		t.Error("a runner of a remote collector without a token was accepted")
	}
}

// TestStuckCollectorNeverSlowsTheLoad has a collector that takes the joins,
// the start and the parts but never answers the live ticks or the runs so
// far: every arrival is still sent on time, the ticks the collector never
// took are counted, and the merged result is whole.
func TestStuckCollectorNeverSlowsTheLoad(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var fp fakePlan
		c, err := collect.New(collect.Config{Parts: 2, JoinWait: time.Minute, PartWait: 30 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		stuck := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/v1/ticks" || r.URL.Path == "/v1/sofar" {
				<-r.Context().Done() // never answers
				return
			}
			c.ServeHTTP(w, r)
		})
		var wg sync.WaitGroup
		lost := make([]int64, 2)
		for i := range 2 {
			wg.Go(func() {
				p := fp.plan(t)
				r, err := collect.NewRunner(collect.RunnerConfig{URL: "http://127.0.0.1:7070", Index: i, Count: 2, Plan: p.Hash(), Planned: p.Duration(), Client: inMemory(stuck)})
				if err != nil {
					t.Error(err)
					return
				}
				res, err := surge.Run(context.Background(), p, surge.Options{Segment: executor.Segment{Index: i, Count: 2}, Coordinator: r, Watch: r.Watch})
				if err != nil {
					t.Error(err)
					return
				}
				if res.Generator.Lag.Max > 50 {
					t.Errorf("segment %d: scheduling lag up to %.1f ms behind a stuck collector", i, res.Generator.Lag.Max)
				}
				if err := r.Finish(context.Background(), res); err != nil {
					t.Error(err)
				}
				lost[i] = r.LostTicks()
			})
		}
		merged, err := c.Wait(context.Background())
		wg.Wait()
		if err != nil {
			t.Fatal(err)
		}
		if got := endpoint(merged, "GET /").Requests; got != 120 || merged.Totals.Dropped != 0 || len(merged.Run.Missing) != 0 {
			t.Errorf("merged %d requests, %d dropped, missing %+v; want all 120 arrivals sent", got, merged.Totals.Dropped, merged.Run.Missing)
		}
		for i, n := range lost {
			if n == 0 {
				t.Errorf("segment %d counted no lost ticks though the collector took none", i)
			}
		}
	})
}
