package search_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/surge-load/surge"
	"github.com/surge-load/surge/analysis"
	"github.com/surge-load/surge/demo"
	"github.com/surge-load/surge/executor"
	"github.com/surge-load/surge/metrics"
	"github.com/surge-load/surge/protocol/httpc"
	"github.com/surge-load/surge/result"
	"github.com/surge-load/surge/scenario"
	"github.com/surge-load/surge/search"
)

// The demo service in these tests processes 8 requests at once, each for
// 100 ms: a capacity of 80 requests per second. The service time is long
// enough that the demo's own overhead, under the race detector on a busy
// machine, does not move the capacity.
const (
	inFlight = 8
	service  = 100 * time.Millisecond
	capacity = inFlight * float64(time.Second) / float64(service)
)

// startDemo starts the demo service with the capacity above and a queue of
// queue requests; it is closed at the end of the test.
func startDemo(t *testing.T, queue int) string {
	t.Helper()
	cfg := demo.DefaultConfig()
	cfg.MaxInFlight, cfg.QueueSize = inFlight, queue
	cfg.Latency = demo.Latency{Dist: demo.Fixed, Mean: service}
	srv, err := demo.Start(context.Background(), "127.0.0.1:0", cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv.URL + "/api/v1/logs/stats"
}

// singleURL returns the Build of a search that sends GET url at each level.
func singleURL(url string, model search.Model) search.Build {
	return func(level float64, d time.Duration) (*surge.Plan, error) {
		hold := []executor.Stage{{Duration: d, Target: level}}
		var load executor.Load = executor.Closed{Start: int(level), Stages: hold, Grace: 5 * time.Second}
		if model == search.Rate {
			load = executor.Open{StartRate: level, Stages: hold, MaxUsers: max(100, int(2*level)), Grace: 5 * time.Second}
		}
		return surge.SingleURL(surge.Request{URL: url, HTTP: httpOpts()}, load, nil)
	}
}

// shortSearch is a search with steps short enough for a test.
func shortSearch(model search.Model, build search.Build, start float64) search.Config {
	return search.Config{
		Search:     scenario.Search{Model: model, Start: start, Factor: 2, Step: 2 * time.Second, Warmup: 500 * time.Millisecond, Budget: 40 * time.Second},
		Build:      build,
		Resolution: 0.1,
	}
}

func objectives(t *testing.T, exprs ...string) []analysis.Threshold {
	t.Helper()
	var ts []analysis.Threshold
	for _, e := range exprs {
		th, err := analysis.ParseThreshold(e)
		if err != nil {
			t.Fatal(err)
		}
		ts = append(ts, th)
	}
	return ts
}

// run runs the search of a test against the demo service. A generator
// starved by other processes on the machine makes the search rightly
// inconclusive: it is tried once more, then the test is skipped.
func run(t *testing.T, cfg search.Config) *result.Capacity {
	t.Helper()
	for attempt := 1; ; attempt++ {
		c := runOnce(t, cfg)
		if c.Verdict.Reason != result.ReasonGenerator {
			return c
		}
		if attempt == 2 {
			t.Skipf("the machine is too busy for the generator to judge the demo service: %s", c.Verdict.Detail)
		}
	}
}

func runOnce(t *testing.T, cfg search.Config) *result.Capacity {
	t.Helper()
	began := time.Now()
	res, err := search.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	c := res.Capacity
	if c == nil {
		t.Fatal("the result has no capacity")
	}
	for _, st := range c.Steps {
		t.Logf("%-6s %6g: %6.1f rps, p50 %6.1fms, p95 %6.1fms, errors %5.2f%%, cpu %3.0f%%, ok %v %s",
			st.Phase, st.Level, st.RPS, st.Latency.P50, st.Latency.P95, 100*st.ErrorRate, st.GeneratorCPUPercent, st.OK, st.Detail)
	}
	t.Logf("verdict in %v: %s", time.Since(began).Round(time.Second), c.Verdict.Detail)
	return c
}

// near reports whether got is within 15% of want.
func near(got, want float64) bool { return math.Abs(got-want) <= 0.15*want }

// Above its capacity the demo turns requests away with 503 once its small
// queue is full: the search must find the capacity and name the error
// objective, with http_5xx the dominant error.
func TestFindsCapacityAndErrorObjective(t *testing.T) {
	cfg := shortSearch(search.Rate, singleURL(startDemo(t, inFlight), search.Rate), 20)
	c := run(t, cfg)
	v := c.Verdict
	if v.Reason != result.ReasonErrors || !v.Conclusive || v.DominantError != "http_5xx" {
		t.Errorf("verdict %q (conclusive %v, dominant error %q); want errors, conclusive, http_5xx", v.Reason, v.Conclusive, v.DominantError)
	}
	if !near(v.MaxLevel, capacity) || !near(v.MaxRPS, capacity) {
		t.Errorf("maximum %g/s giving %.1f rps; want within 15%% of the capacity %g/s", v.MaxLevel, v.MaxRPS, capacity)
	}
	if v.FailedLevel <= v.MaxLevel {
		t.Errorf("failed level %g is not above the maximum %g", v.FailedLevel, v.MaxLevel)
	}
	if !strings.Contains(v.Detail, "error objective") || !strings.Contains(v.Detail, "http_5xx") {
		t.Errorf("detail %q does not name the error objective and http_5xx", v.Detail)
	}
}

// With a long queue instead, requests above the capacity wait: the search
// must find the capacity and name the latency objective.
func TestFindsCapacityAndLatencyObjective(t *testing.T) {
	cfg := shortSearch(search.Rate, singleURL(startDemo(t, 10000), search.Rate), 20)
	cfg.Objectives = objectives(t, "p95<300ms", "errors<1%")
	c := run(t, cfg)
	v := c.Verdict
	if v.Reason != result.ReasonLatency || !v.Conclusive {
		t.Errorf("verdict %q (conclusive %v); want latency, conclusive", v.Reason, v.Conclusive)
	}
	if !near(v.MaxLevel, capacity) {
		t.Errorf("maximum %g/s; want within 15%% of the capacity %g/s", v.MaxLevel, capacity)
	}
	if !strings.Contains(v.Detail, "latency objective") || !strings.Contains(v.Detail, "p95<300ms") {
		t.Errorf("detail %q does not name the latency objective", v.Detail)
	}
}

// In the closed model more users than the demo processes at once only
// queue: throughput stops growing once the users fill the demo's 8 slots,
// while latency grows, a plateau whose Little's-law concurrency is the
// users in the system. What a busy machine cannot move is asserted: fewer
// users than slots never queue, so the maximum is at least 8; twice the
// slots cannot add throughput, so the step up at 16 users is a plateau
// (or, on a starved machine, breaks the latency objective first) and the
// search fails no higher; the slots bound the throughput (80/s at most);
// the users bound Little's-law concurrency. A starved machine lowers the
// throughput at every level alike, not where it stops growing; it may make
// a narrowing step between 8 and 16 users break the latency objective
// first, which then names the failure.
func TestFindsPlateauInClosedModel(t *testing.T) {
	cfg := shortSearch(search.Users, singleURL(startDemo(t, 1000), search.Users), 1)
	c := run(t, cfg)
	v := c.Verdict
	if !v.Conclusive || (v.Reason != result.ReasonPlateau && v.Reason != result.ReasonLatency) {
		t.Fatalf("verdict %q (conclusive %v); want plateau (or latency, between 8 and 16 users), conclusive", v.Reason, v.Conclusive)
	}
	var firstFailed result.CapacityStep
	for _, st := range c.Steps {
		if st.Phase == "step" && !st.OK {
			firstFailed = st
			break
		}
	}
	if firstFailed.Level != 2*inFlight || (firstFailed.Reason != result.ReasonPlateau && firstFailed.Reason != result.ReasonLatency) {
		t.Errorf("the steps up first failed at %g users (%s); want a plateau (or latency) at %d, twice the slots", firstFailed.Level, firstFailed.Detail, 2*inFlight)
	}
	if v.MaxLevel < inFlight || v.FailedLevel > 2*inFlight {
		t.Errorf("maximum %g users, failed at %g users; want the maximum at %d or more and the failure at %d or fewer", v.MaxLevel, v.FailedLevel, inFlight, 2*inFlight)
	}
	if v.MaxRPS > 1.1*capacity {
		t.Errorf("maximum %g users giving %.1f rps, more than the %d slots of %v allow (%g rps)", v.MaxLevel, v.MaxRPS, inFlight, service, capacity)
	}
	if v.Reason != result.ReasonPlateau {
		return
	}
	// In the closed model at most every user is in the system: L is the
	// users less the time each spends between its requests, which a busy
	// machine lengthens (the measured window may add a little).
	if v.Concurrency <= 0 || v.Concurrency > 1.5*v.FailedLevel {
		t.Errorf("Little's law gives %.1f in the system at %g users; want some, and no more than the users", v.Concurrency, v.FailedLevel)
	}
	if !strings.Contains(v.Detail, "Little's law") {
		t.Errorf("detail %q does not give Little's law", v.Detail)
	}
}

// childEnv names the target of the generator-starved child process.
const childEnv = "SURGE_SEARCH_STARVED_TARGET"

// With the generator starved on purpose, one core and an expensive cost
// per request on the generator's side against a target much faster than
// it, the verdict must be inconclusive, never a capacity of the target.
func TestStarvedGeneratorIsInconclusive(t *testing.T) {
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Write([]byte("ok"))
	}))
	defer target.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestStarvedGeneratorChild$", "-test.v")
	cmd.Env = append(os.Environ(), childEnv+"="+target.URL, "GOMAXPROCS=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	_, js, ok := strings.Cut(string(out), "CAPACITY ")
	if !ok {
		t.Fatalf("child printed no capacity:\n%s", out)
	}
	js, _, _ = strings.Cut(js, "\n")
	var c result.Capacity
	if err := json.Unmarshal([]byte(js), &c); err != nil {
		t.Fatalf("child's capacity: %v\n%s", err, out)
	}
	t.Logf("child:\n%s", out)
	v := c.Verdict
	if v.Reason != result.ReasonGenerator || v.Conclusive {
		t.Errorf("verdict %q (conclusive %v); want generator_saturated, inconclusive", v.Reason, v.Conclusive)
	}
	if !strings.HasPrefix(v.Detail, "inconclusive: generator saturated") {
		t.Errorf("detail %q does not start with \"inconclusive: generator saturated\"", v.Detail)
	}
}

// TestStarvedGeneratorChild is the search of TestStarvedGeneratorIsInconclusive,
// run in a process of its own with GOMAXPROCS=1.
func TestStarvedGeneratorChild(t *testing.T) {
	target := os.Getenv(childEnv)
	if target == "" {
		t.Skip("run by TestStarvedGeneratorIsInconclusive")
	}
	build := singleURL(target, search.Rate)
	costly := func(level float64, d time.Duration) (*surge.Plan, error) {
		p, err := build(level, d)
		if err != nil {
			return nil, err
		}
		for i := range p.Scenarios {
			p.Scenarios[i].Users = burning(p.Scenarios[i].Users, 3*time.Millisecond)
		}
		return p, nil
	}
	cfg := shortSearch(search.Rate, costly, 100)
	cfg.Max = 3200
	res, err := search.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(res.Capacity)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("CAPACITY %s\n", b)
}

// burning wraps a scenario's users so that every iteration first burns
// cost of CPU: a generator-side cost, such as building an expensive
// request.
func burning(users func(*metrics.Recorder) executor.NewUser, cost time.Duration) func(*metrics.Recorder) executor.NewUser {
	return func(rec *metrics.Recorder) executor.NewUser {
		newUser := users(rec)
		return func(id int) executor.User { return burnUser{newUser(id), cost} }
	}
}

type burnUser struct {
	executor.User
	cost time.Duration
}

func (u burnUser) Iterate(ctx context.Context, it executor.Iteration) {
	deadline := time.Now().Add(u.cost)
	x := uint64(1)
	for time.Now().Before(deadline) {
		for range 100 {
			x = x*6364136223846793005 + 1442695040888963407
		}
	}
	sink.Store(x)
	u.User.Iterate(ctx, it)
}

// sink keeps the burnt arithmetic from being optimized away.
var sink atomic.Uint64

func httpOpts() httpc.Options { return httpc.Options{Timeout: 10 * time.Second} }
