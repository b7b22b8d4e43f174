package surge_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/surge-load/surge"
	"github.com/surge-load/surge/executor"
	"github.com/surge-load/surge/internal/servertest"
	"github.com/surge-load/surge/monitor"
	"github.com/surge-load/surge/protocol/httpc"
	"github.com/surge-load/surge/result"
)

// TestMain lets the test binary serve the demo as a process of its own
// (SURGE_TEST_DEMO=1, knobs as arguments after --): it prints its URL and
// serves until its standard input closes.
func TestMain(m *testing.M) {
	if os.Getenv("SURGE_TEST_DEMO") == "1" {
		servertest.ServeDemo(os.Args[1:])
	}
	os.Exit(m.Run())
}

// demoProcess starts the demo with knobs in a process of its own and
// returns its URL and process id.
func demoProcess(t *testing.T, knobs ...string) (string, int) {
	t.Helper()
	c := servertest.StartChild(t, "SURGE_TEST_DEMO", "1", append([]string{"--"}, knobs...)...)
	if !strings.HasPrefix(c.First, "http://") {
		t.Fatalf("demo: %q", c.First)
	}
	return c.First, c.Cmd.Process.Pid
}

// watchDemo runs users against path of the demo at url for d, watching the
// demo's process (by PID) and its /metrics.
func watchDemo(t *testing.T, url string, pid, users int, d time.Duration) *result.Result {
	t.Helper()
	load := executor.Closed{Start: users, Stages: []executor.Stage{{Duration: d, Target: float64(users)}}, Grace: 5 * time.Second,
		Think: func(*rand.Rand) time.Duration { return 10 * time.Millisecond }}
	plan, err := surge.SingleURL(surge.Request{URL: url, HTTP: httpc.Options{Timeout: 10 * time.Second}}, load, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, spec := range []string{fmt.Sprintf("process:%d", pid), "prometheus:" + url[:strings.Index(url[7:], "/")+7] + "/metrics metrics=surge_demo_*"} {
		name := "demo"
		if strings.HasPrefix(spec, "prometheus") {
			name = "app"
		}
		m, err := monitor.Parse(name, spec)
		if err != nil {
			t.Fatal(err)
		}
		plan.Monitors = append(plan.Monitors, m)
	}
	res, err := surge.Run(context.Background(), plan, surge.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// named lists the series a result's what-moved findings name.
func named(res *result.Result) []string {
	var out []string
	for _, m := range res.Moved {
		for _, s := range m.Series {
			out = append(out, s.Source+"."+s.Series)
		}
	}
	return out
}

func anyContains(list []string, subs ...string) bool {
	for _, s := range list {
		for _, sub := range subs {
			if strings.Contains(s, sub) {
				return true
			}
		}
	}
	return false
}

// The demo's cache expires every 5 s and sends a stampede to its slow
// store (one connection, 250 ms a fetch): throughput dips with each, and
// what moved names the store's pending fetches or the cache misses.
func TestWhatMovedNamesTheStampede(t *testing.T) {
	url, pid := demoProcess(t, "--cache-ttl", "5s", "--store-latency", "250ms", "--store-pool", "1")
	res := watchDemo(t, url+"/api/v1/items/1", pid, 8, 30*time.Second)
	var lines []string
	for _, m := range res.Moved {
		lines = append(lines, m.Line)
	}
	t.Logf("excursions %+v\nperiodic %+v\nmoved:\n%s", res.Excursions, res.Periodic, strings.Join(lines, "\n"))
	// Stampedes every 7 s or so (the TTL and the 2 s the store takes to
	// refill): a machine short of CPU may hide some, and add dips of its
	// own, but not hide every one of four stalls of the whole load.
	if len(res.Excursions) == 0 {
		t.Errorf("no dip or spike found in 30 s with a stampede every 7 s or so")
		for _, p := range res.Series {
			t.Logf("t=%v ok=%d p95=%.1f lag=%.1f runq=%.1f", p.T, p.Requests-p.Failures, p.Latency.P95, p.Generator.LagP99Ms, p.Generator.RunqP99Ms)
		}
	}
	if !anyContains(named(res), "store_pool_pending", "cache_misses", "store_fetches") {
		t.Errorf("what moved names %v, not the cache or the store", named(res))
	}
}

// The demo burns extra CPU per request for its first 8 s (a warm-up):
// latency is high at the start, and what moved names the warm-up's CPU.
func TestWhatMovedNamesTheWarmup(t *testing.T) {
	url, pid := demoProcess(t, "--warmup-cpu", "20ms/8s")
	res := watchDemo(t, url+"/", pid, 4, 20*time.Second)
	var lines []string
	for _, m := range res.Moved {
		lines = append(lines, m.Line)
	}
	t.Logf("excursions %+v\nmoved:\n%s", res.Excursions, strings.Join(lines, "\n"))
	// A busy machine may add excursions later in the run; the slow start
	// is one of them whatever else is.
	slowStart := false
	for _, e := range res.Excursions {
		slowStart = slowStart || e.AtS == 0 && e.Series == result.Latency
	}
	if !slowStart {
		t.Errorf("no slow start found: %+v", res.Excursions)
	}
	if !anyContains(named(res), "warmup_cpu", "demo.cpu") {
		t.Errorf("what moved names %v, not the warm-up", named(res))
	}
}

// On a run where nothing moved, what moved names nothing. A machine
// shared with other work may give the run a dip of its own; then at least
// none of the demo's internals (its cache, store, warm-up, external call)
// is named, since none of them moved.
func TestWhatMovedNamesNothingOnAQuietRun(t *testing.T) {
	url, pid := demoProcess(t)
	res := watchDemo(t, url+"/", pid, 4, 12*time.Second)
	if len(res.Excursions) == 0 && len(res.Moved) != 0 {
		t.Errorf("a quiet run: what moved says %+v", res.Moved)
	}
	if anyContains(named(res), "cache_", "store_", "warmup_", "external_") {
		t.Errorf("a quiet run: what moved names %v (excursions %+v)", named(res), res.Excursions)
	}
	t.Logf("excursions %+v; named %v", res.Excursions, named(res))
}
