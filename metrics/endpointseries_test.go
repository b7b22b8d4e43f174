package metrics

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/surge-load/surge/result"
)

// foldSeconds records, second by second, the samples of each endpoint that
// pick chooses for that second into rec, folding after each second.
func foldSeconds(rec *Recorder, start time.Time, seconds int, samples map[string][]Sample, pick func(sec int, name string, i int) bool) {
	rec.start = start
	for sec := range seconds {
		for name, ss := range samples {
			for i := range ss {
				if pick(sec, name, i) {
					rec.Shard(i).Record(&ss[i])
				}
			}
		}
		rec.fold(start.Add(time.Duration(sec+1) * time.Second))
	}
}

// TestEndpointSeriesSumsAndMerges records three endpoints over six seconds,
// one of which completes nothing in seconds 2 and 3, and checks that each
// endpoint's points add up to its totals, that the silent endpoint has no
// point in those seconds while the others do, and that merging two halves
// of the run (Merge, and SumPoints as the collector sums live points)
// gives each endpoint's points exactly the single run's percentiles (from
// merged histograms, not averaged).
func TestEndpointSeriesSumsAndMerges(t *testing.T) {
	start := time.Unix(1_700_000_000, 0)
	names := []string{"GET /a", "GET /slow", "POST /c"}
	whole, parts := NewRecorder(2), []*Recorder{NewRecorder(2), NewRecorder(2)}
	samples := map[string][]Sample{}
	for i, n := range names {
		for _, r := range append(parts, whole) {
			r.Endpoint(n)
		}
		samples[n] = synth(3000, uint64(10+i), EndpointID(i), start)
	}
	const seconds = 6
	// Each second takes its sixth of each endpoint's samples, except that
	// GET /slow completes nothing in seconds 2 and 3.
	pick := func(sec int, name string, i int) bool {
		if name == "GET /slow" && (sec == 2 || sec == 3) {
			return false
		}
		return i%seconds == sec
	}
	foldSeconds(whole, start, seconds, samples, pick)
	for k, r := range parts {
		foldSeconds(r, start, seconds, samples, func(sec int, name string, i int) bool { return pick(sec, name, i) && (i/seconds)%2 == k })
	}
	want := whole.Result(seconds * time.Second)
	for _, e := range want.Endpoints {
		var req, fail int64
		for _, p := range want.Series {
			for _, ep := range p.Endpoints {
				if ep.Name == e.Name {
					req += ep.Requests
					fail += ep.Failures
				}
			}
		}
		if req != e.Requests || fail != e.Failures {
			t.Errorf("%s: series adds up to %d requests, %d failures; totals %d, %d", e.Name, req, fail, e.Requests, e.Failures)
		}
	}
	for sec, p := range want.Series {
		var got []string
		for _, ep := range p.Endpoints {
			got = append(got, ep.Name)
			if ep.Requests == 0 || ep.Latency.P99 < ep.Latency.P50 || ep.LatencyHistogram == "" {
				t.Errorf("second %d, %s: %+v", sec, ep.Name, ep)
			}
		}
		silent := sec == 2 || sec == 3
		if wantN := map[bool]int{true: 2, false: 3}[silent]; len(got) != wantN {
			t.Errorf("second %d has points of %q; want %d endpoints", sec, got, wantN)
		}
	}

	var halves []*result.Result
	for _, r := range parts {
		halves = append(halves, r.Result(seconds*time.Second))
	}
	got, err := Merge(halves...)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Series) != len(want.Series) {
		t.Fatalf("merged %d points, single run %d", len(got.Series), len(want.Series))
	}
	averaged := 0
	for sec := range want.Series {
		w, g := want.Series[sec].Endpoints, got.Series[sec].Endpoints
		if len(w) != len(g) {
			t.Fatalf("second %d: merged %d endpoints, single run %d", sec, len(g), len(w))
		}
		for j := range w {
			if g[j].Name != w[j].Name || g[j].Requests != w[j].Requests || g[j].Failures != w[j].Failures || g[j].Latency != w[j].Latency {
				t.Errorf("second %d: merged %+v\nsingle run %+v", sec, g[j], w[j])
			}
			a, b := halves[0].Series[sec].Endpoints[j].Latency.P99, halves[1].Series[sec].Endpoints[j].Latency.P99
			if (a+b)/2 != w[j].Latency.P99 {
				averaged++
			}
		}
	}
	// The collector's live sums of one second are the same.
	for sec := range want.Series {
		sum, err := SumPoints(halves[0].Series[sec], halves[1].Series[sec])
		if err != nil {
			t.Fatal(err)
		}
		w := want.Series[sec].Endpoints
		for j := range w {
			if j >= len(sum.Endpoints) || sum.Endpoints[j].Name != w[j].Name || sum.Endpoints[j].Requests != w[j].Requests || sum.Endpoints[j].Latency != w[j].Latency {
				t.Fatalf("second %d: SumPoints gave %+v, the single run %+v", sec, sum.Endpoints, w)
			}
		}
	}
	if averaged == 0 {
		t.Error("the halves' mean p99 equals the single run's everywhere: the test cannot tell merging from averaging")
	}

	// A result from before the per-endpoint series merges, and has none.
	old := *halves[0]
	old.Series = nil
	b, _ := json.Marshal(halves[0].Series)
	json.Unmarshal(b, &old.Series)
	for i := range old.Series {
		old.Series[i].Endpoints = nil
	}
	m, err := Merge(&old)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range m.Series {
		if p.Endpoints != nil {
			t.Fatalf("a result without endpoint points merged into %+v", p.Endpoints)
		}
	}
}

// TestEndpointSeriesKeepsTheFirstRows records into more rows than the
// series keeps points of: the first MaxSeriesEndpoints rows to complete
// operations have them in every second, the rest are counted as left out,
// and their operations are in the totals all the same.
func TestEndpointSeriesKeepsTheFirstRows(t *testing.T) {
	rec := NewRecorder(1)
	start := time.Unix(1_700_000_000, 0)
	rec.start = start
	n := MaxSeriesEndpoints + 5
	var ids []EndpointID
	for i := range n {
		ids = append(ids, rec.Endpoint(fmt.Sprintf("row %d", i)))
	}
	for sec := range 3 {
		// The first five rows registered complete nothing in the first
		// second: the others take the series' rows.
		for i := range n {
			if sec == 0 && i < 5 {
				continue
			}
			s := synth(1, uint64(i), ids[i], start)
			rec.Shard(0).Record(&s[0])
		}
		rec.fold(start.Add(time.Duration(sec+1) * time.Second))
	}
	res := rec.Result(3 * time.Second)
	if res.EndpointSeriesOmitted != 5 || res.Totals.Requests != int64(3*n-5) {
		t.Fatalf("omitted %d rows, %d requests; want 5, %d", res.EndpointSeriesOmitted, res.Totals.Requests, 3*n-5)
	}
	for _, p := range res.Series {
		if len(p.Endpoints) != MaxSeriesEndpoints {
			t.Fatalf("a point has %d rows of its own; want %d", len(p.Endpoints), MaxSeriesEndpoints)
		}
		for _, e := range p.Endpoints {
			if e.Name == "row 0" {
				t.Fatal("row 0 completed after the series had its rows, but has points")
			}
		}
	}
}
