package metrics

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/surge-load/surge/errclass"
	"github.com/surge-load/surge/result"
)

// synth makes n deterministic samples for endpoint ep: latencies spread
// log-uniformly from 100µs to 2s, every 10th a 503, every 97th a reset.
func synth(n int, seed uint64, ep EndpointID, start time.Time) []Sample {
	r := rand.New(rand.NewPCG(seed, 1))
	out := make([]Sample, n)
	for i := range out {
		lat := time.Duration(100e3 * math.Pow(2e4, r.Float64())) // 100µs .. 2s
		s := Sample{Endpoint: ep, Intended: start, Start: start.Add(lat / 10), End: start.Add(lat), Status: 200, BytesIn: 100, BytesOut: 50}
		s.Timing.Wait = lat / 2
		switch {
		case i%97 == 0:
			s.Status, s.Class, s.Err = 0, errclass.Reset, errors.New("read: connection reset by peer")
		case i%10 == 0:
			s.Status, s.Class = 503, errclass.HTTP5xx
		}
		out[i] = s
	}
	return out
}

func exactPercentile(lat []time.Duration, p float64) float64 {
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	idx := int(math.Ceil(p/100*float64(len(lat)))) - 1
	return float64(lat[max(idx, 0)].Microseconds()) / 1000
}

func TestRecorderCountsExactlyUnderConcurrency(t *testing.T) {
	rec := NewRecorder(4)
	a, b := rec.Endpoint("GET /a"), rec.Endpoint("GET /b")
	if again := rec.Endpoint("GET /a"); again != a {
		t.Fatalf("Endpoint registered twice: %d and %d", a, again)
	}
	start := time.Now()
	rec.Begin(start, nil)
	const workers, each = 8, 5000
	var wg sync.WaitGroup
	var all []time.Duration
	var mu sync.Mutex
	for w := range workers {
		wg.Add(1)
		ep := a
		if w%2 == 1 {
			ep = b
		}
		samples := synth(each, uint64(w), ep, start)
		mu.Lock()
		for i := range samples {
			all = append(all, samples[i].Latency())
		}
		mu.Unlock()
		go func() {
			defer wg.Done()
			sh := rec.Shard(w)
			for i := range samples {
				sh.Record(&samples[i])
				if i%1000 == 0 {
					sh.Dropped(start)
					sh.Lag(time.Millisecond)
				}
			}
		}()
	}
	wg.Wait()
	rec.Finish(time.Now())
	res := rec.Result(2 * time.Second)

	if got, want := res.Totals.Requests, int64(workers*each); got != want {
		t.Fatalf("requests = %d, want %d", got, want)
	}
	wantFail := int64(0)
	for i := range each {
		if i%97 == 0 || i%10 == 0 {
			wantFail++
		}
	}
	if got := res.Totals.Failures; got != wantFail*workers {
		t.Errorf("failures = %d, want %d", got, wantFail*workers)
	}
	if got := res.Totals.Dropped; got != workers*5 {
		t.Errorf("dropped = %d, want %d", got, workers*5)
	}
	if res.Totals.RPS != float64(workers*each)/2 {
		t.Errorf("rps = %v, want %v", res.Totals.RPS, float64(workers*each)/2)
	}
	var seriesReq, seriesDrop int64
	for _, p := range res.Series {
		seriesReq += p.Requests
		seriesDrop += p.Dropped
	}
	if seriesReq != res.Totals.Requests || seriesDrop != res.Totals.Dropped {
		t.Errorf("series add up to %d requests, %d dropped; totals say %d, %d", seriesReq, seriesDrop, res.Totals.Requests, res.Totals.Dropped)
	}
	if len(res.Endpoints) != 2 || res.Endpoints[0].Requests+res.Endpoints[1].Requests != res.Totals.Requests {
		t.Fatalf("endpoints do not add up: %+v", res.Endpoints)
	}
	for _, q := range []struct {
		name string
		got  float64
		p    float64
	}{{"p50", res.Totals.Latency.P50, 50}, {"p90", res.Totals.Latency.P90, 90}, {"p95", res.Totals.Latency.P95, 95}, {"p99", res.Totals.Latency.P99, 99}, {"p999", res.Totals.Latency.P999, 99.9}} {
		want := exactPercentile(all, q.p)
		if math.Abs(q.got-want)/want > 0.01 {
			t.Errorf("%s = %.3f ms, exact %.3f ms: more than 1%% off", q.name, q.got, want)
		}
	}
	slices.Sort(all)
	var sum time.Duration
	for _, d := range all {
		sum += d
	}
	if want := float64(all[len(all)-1]) / 1e6; res.Totals.Latency.Max != want {
		t.Errorf("max = %v, want exact %v", res.Totals.Latency.Max, want)
	}
	if want := float64(all[0]) / 1e6; res.Totals.Latency.Min != want {
		t.Errorf("min = %v, want exact %v", res.Totals.Latency.Min, want)
	}
	if want := float64(sum) / float64(len(all)) / 1e6; math.Abs(res.Totals.Latency.Mean-want) > 1e-9 {
		t.Errorf("mean = %v, want exact %v", res.Totals.Latency.Mean, want)
	}
	var reset *result.ErrorStats
	for i := range res.Errors {
		if res.Errors[i].Class == "reset" {
			reset = &res.Errors[i]
		}
	}
	if reset == nil || reset.Hint == "" || len(reset.Samples) != 1 || reset.Samples[0].Message != "read: connection reset by peer" {
		t.Errorf("reset error entry = %+v", reset)
	}
	if res.Totals.Statuses["503"] == 0 || res.Totals.Errors["http_5xx"] != res.Totals.Statuses["503"] {
		t.Errorf("statuses %v and errors %v disagree", res.Totals.Statuses, res.Totals.Errors)
	}
	if res.Generator.Lag.Max != 1 {
		t.Errorf("lag max = %v ms, want 1", res.Generator.Lag.Max)
	}
}

func TestMergeEqualsSingleRun(t *testing.T) {
	start := time.Now()
	whole := NewRecorder(2)
	parts := []*Recorder{NewRecorder(2), NewRecorder(2)}
	for _, r := range append(parts, whole) {
		r.Endpoint("GET /a")
		r.Begin(start, nil)
	}
	samples := synth(20000, 7, 0, start)
	for i := range samples {
		whole.Shard(0).Record(&samples[i])
		parts[i%2].Shard(0).Record(&samples[i])
	}
	for i := 0; i < 10; i++ {
		whole.Shard(0).Dropped(start)
		parts[i%2].Shard(1).Dropped(start)
	}
	end := time.Now()
	var results []*result.Result
	for _, r := range parts {
		r.Finish(end)
		results = append(results, r.Result(time.Second))
	}
	whole.Finish(end)
	want := whole.Result(time.Second)
	got, err := Merge(results...)
	if err != nil {
		t.Fatal(err)
	}
	if got.Totals.Requests != want.Totals.Requests || got.Totals.Failures != want.Totals.Failures || got.Totals.Dropped != want.Totals.Dropped {
		t.Fatalf("merged counts %d/%d/%d, single run %d/%d/%d", got.Totals.Requests, got.Totals.Failures, got.Totals.Dropped, want.Totals.Requests, want.Totals.Failures, want.Totals.Dropped)
	}
	if got.Totals.Latency != want.Totals.Latency {
		t.Errorf("merged latency %+v, single run %+v", got.Totals.Latency, want.Totals.Latency)
	}
	if got.Totals.ServiceTime != want.Totals.ServiceTime {
		t.Errorf("merged service time %+v, single run %+v", got.Totals.ServiceTime, want.Totals.ServiceTime)
	}
	if got.Totals.Timing != want.Totals.Timing {
		t.Errorf("merged timing %+v, single run %+v", got.Totals.Timing, want.Totals.Timing)
	}
	if len(got.Errors) != len(want.Errors) {
		t.Errorf("merged errors %+v, single run %+v", got.Errors, want.Errors)
	}
	for i := range want.Errors {
		if got.Errors[i].Class != want.Errors[i].Class || got.Errors[i].Count != want.Errors[i].Count {
			t.Errorf("error %d: merged %+v, single %+v", i, got.Errors[i], want.Errors[i])
		}
	}
	if got.Run.Segment.Count != 2 {
		t.Errorf("segment count = %d", got.Run.Segment.Count)
	}
}

func TestResultRoundTrip(t *testing.T) {
	rec := NewRecorder(1)
	rec.Endpoint("x")
	start := time.Now()
	rec.Begin(start, nil)
	samples := synth(100, 1, 0, start)
	for i := range samples {
		rec.Shard(0).Record(&samples[i])
	}
	rec.Finish(time.Now())
	res := rec.Result(time.Second)
	path := t.TempDir() + "/r.json"
	if err := res.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	back, err := result.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if back.Totals.Latency != res.Totals.Latency || back.Totals.Requests != 100 {
		t.Errorf("round trip changed totals: %+v", back.Totals)
	}
	again, err := Merge(back)
	if err != nil {
		t.Fatal(err)
	}
	if again.Totals.Latency != res.Totals.Latency {
		t.Errorf("re-merging one result changed latency: %+v vs %+v", again.Totals.Latency, res.Totals.Latency)
	}
}
