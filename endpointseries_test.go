package surge_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/surge-load/surge"
	"github.com/surge-load/surge/internal/report"
	"github.com/surge-load/surge/metrics"
	"github.com/surge-load/surge/result"
	"github.com/surge-load/surge/scenario"
	"github.com/surge-load/surge/scenario/yamlfile"
)

// stallingPaths is a loopback server of three paths that answer at once,
// except that /stall holds every request from its 500th on for 2 s, then
// answers them all: one API stalls mid-run while the others go on. It
// counts the requests of each path.
type stallingPaths struct {
	srv        *httptest.Server
	mu         sync.Mutex
	served     map[string]int64
	stallCount atomic.Int64
	stallUntil atomic.Int64 // unix nanoseconds
}

func newStallingPaths(t *testing.T) *stallingPaths {
	s := &stallingPaths{served: map[string]int64{}}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/stall" {
			if s.stallCount.Add(1) == 500 {
				s.stallUntil.Store(time.Now().Add(2 * time.Second).UnixNano())
			}
			if d := time.Until(time.Unix(0, s.stallUntil.Load())); d > 0 {
				time.Sleep(d)
			}
		}
		s.mu.Lock()
		s.served[r.URL.Path]++
		s.mu.Unlock()
	}))
	t.Cleanup(s.srv.Close)
	return s
}

// TestEndpointSeriesShowWhichAPIStalled runs three scenarios of 100
// arrivals per second each, one per path, against a server whose /stall
// path stalls for 2 s mid-run. The per-endpoint points of the series show
// exactly that endpoint's dip (seconds in which it completed nothing) and
// its late answers after, while the others go on; every endpoint's points
// add up to its totals and to what the server counted; the report's charts
// by endpoint draw the dip, the summary names the endpoint, and a merge of
// the result keeps the points.
func TestEndpointSeriesShowWhichAPIStalled(t *testing.T) {
	srv := newStallingPaths(t)
	var scenarios string
	for _, p := range []string{"fast", "stall", "other"} {
		scenarios += fmt.Sprintf(`  %[1]s:
    load: {rate: 100/s, duration: 12s, max_users: 400}
    flow:
      - name: %[1]s
        get: /%[1]s
        expect: {status: 200}
`, p)
	}
	src := fmt.Sprintf("target: %s\ndefaults:\n  timeout: 10s\nscenarios:\n%s", srv.srv.URL, scenarios)
	plan, err := yamlfile.Compile("stall.yaml", []byte(src), scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := surge.Run(context.Background(), plan, surge.Options{})
	if err != nil {
		t.Fatal(err)
	}

	// Counts: per endpoint, the points add up to the totals and to what
	// the server served.
	perSecond := map[string][]int64{} // requests by endpoint and second
	p99 := map[string][]float64{}
	for i, p := range res.Series {
		for _, e := range p.Endpoints {
			if perSecond[e.Name] == nil {
				perSecond[e.Name] = make([]int64, len(res.Series))
				p99[e.Name] = make([]float64, len(res.Series))
			}
			perSecond[e.Name][i] = e.Requests
			p99[e.Name][i] = e.Latency.P99
		}
	}
	srv.mu.Lock()
	served := srv.served
	srv.mu.Unlock()
	for _, e := range res.Endpoints {
		var sum int64
		for _, n := range perSecond[e.Name] {
			sum += n
		}
		if sum != e.Requests || e.Requests != served["/"+e.Name] || e.Failures != 0 {
			t.Errorf("%s: the series adds up to %d requests, the totals say %d (%d failures), the server served %d", e.Name, sum, e.Requests, e.Failures, served["/"+e.Name])
		}
	}
	if len(res.Endpoints) != 3 {
		t.Fatalf("endpoints %+v", res.Endpoints)
	}

	// The dip: whole seconds, after the first, in which /stall completed
	// nothing; the others completed at least a quarter of their usual in
	// each of them.
	var dip []int
	for i, p := range res.Series {
		if i > 0 && p.DurationS >= 0.99 && p.T < res.Run.DurationS-1 && perSecond["stall"][i] == 0 {
			dip = append(dip, i)
		}
	}
	if len(dip) < 1 || len(dip) > 2 || dip[len(dip)-1]-dip[0] != len(dip)-1 {
		t.Fatalf("/stall completed nothing in seconds %v; want the one or two whole seconds of its 2 s stall (per second: %v)", dip, perSecond["stall"])
	}
	for _, name := range []string{"fast", "other"} {
		usual := slices.Clone(perSecond[name][1 : len(perSecond[name])-1])
		slices.Sort(usual)
		median := usual[len(usual)/2]
		for _, i := range dip {
			if perSecond[name][i]*4 < median {
				t.Errorf("%s completed %d in second %d of the other's stall (usually %d): it dipped too (per second: %v)", name, perSecond[name][i], i, median, perSecond[name])
			}
		}
	}
	// After it, /stall answers what it held, late: its p99 is the stall's,
	// not the others'.
	stallP99, othersP99 := slices.Max(p99["stall"]), max(slices.Max(p99["fast"]), slices.Max(p99["other"]))
	if stallP99 < 1000 || othersP99 > stallP99/2 {
		t.Errorf("p99 at worst: /stall %.1f ms, the others %.1f ms; want /stall's over 1 s and twice the others'", stallP99, othersP99)
	}
	t.Logf("/stall per second %v, p99 %v; /fast %v", perSecond["stall"], p99["stall"], perSecond["fast"])

	// The report draws it: /stall's ok/s is 0 in the dip, the others' not.
	tl := report.NewTimeline(res, report.MaxChartPoints)
	drawn := map[string]report.EndpointTimeline{}
	for _, e := range tl.Endpoints {
		drawn[e.Name] = e
	}
	for _, i := range dip {
		k := slices.Index(tl.T, res.Series[i].T)
		if k < 0 || drawn["stall"].OK[k] != 0 || drawn["fast"].OK[k] == 0 || drawn["other"].OK[k] == 0 {
			t.Errorf("the report's chart at %gs: %+v", res.Series[i].T, drawn)
		}
	}

	// The summary says which endpoint dipped, and no other.
	lines := report.EndpointEventLines(res)
	dipped := 0
	for _, l := range lines {
		if strings.Contains(l, "throughput dip") {
			if !strings.HasPrefix(l, "stall: throughput dip at ") || !strings.HasSuffix(l, "; no other endpoint dipped") {
				t.Errorf("summary line %q", l)
			}
			dipped++
		}
	}
	t.Logf("by endpoint: %q", lines)
	busy := false // the generator's machine delayed sends in the dip: no endpoint is blamed then
	if sat := res.Generator.Saturation; sat != nil {
		for _, iv := range sat.Intervals {
			if iv.FromS <= res.Series[dip[len(dip)-1]].T+1 && res.Series[dip[0]].T <= iv.ToS {
				busy = true
			}
		}
	}
	if dipped != 1 && !busy {
		t.Errorf("the summary's lines by endpoint %q; want one throughput dip, of stall", lines)
	}

	// A merge of the result (one part) keeps each point's endpoints.
	m, err := metrics.Merge(res)
	if err != nil {
		t.Fatal(err)
	}
	for i := range res.Series {
		if !slices.EqualFunc(m.Series[i].Endpoints, res.Series[i].Endpoints, func(a, b result.EndpointPoint) bool {
			return a.Name == b.Name && a.Requests == b.Requests && a.Failures == b.Failures && a.Latency == b.Latency
		}) {
			t.Fatalf("second %d: merged %+v, run %+v", i, m.Series[i].Endpoints, res.Series[i].Endpoints)
		}
	}
}
