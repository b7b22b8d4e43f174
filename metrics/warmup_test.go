package metrics

import (
	"testing"
	"time"

	"github.com/surge-load/surge/errclass"
	"github.com/surge-load/surge/result"
)

// Operations meant to start in the warm-up stay out of the totals and
// endpoints, are counted in the warmup block, and stay in the series.
func TestWarmupKeptOutOfTotals(t *testing.T) {
	rec := NewRecorder(2)
	ep := rec.Endpoint("GET /")
	start := time.Now()
	rec.SetWarmup(start.Add(time.Second))
	rec.Begin(start, nil)
	sh := rec.Shard(0)
	record := func(intended time.Time, lat time.Duration, class errclass.Class) {
		s := Sample{Endpoint: ep, Intended: intended, Start: intended, End: intended.Add(lat), Status: 200, Class: class}
		sh.Record(&s)
	}
	for range 10 { // warm-up: slow, some failing
		record(start.Add(100*time.Millisecond), 900*time.Millisecond, errclass.None)
	}
	record(start.Add(200*time.Millisecond), time.Millisecond, errclass.Check)
	sh.Dropped(start.Add(300 * time.Millisecond))
	for range 5 { // measured
		record(start.Add(1500*time.Millisecond), 10*time.Millisecond, errclass.None)
	}
	sh.Dropped(start.Add(1500 * time.Millisecond))
	rec.Finish(start.Add(2 * time.Second))
	res := rec.Result(2 * time.Second)

	if res.Totals.Requests != 5 || res.Totals.Failures != 0 || res.Totals.Dropped != 1 {
		t.Errorf("totals: %d requests, %d failures, %d dropped; want 5, 0, 1", res.Totals.Requests, res.Totals.Failures, res.Totals.Dropped)
	}
	if res.Totals.RPS != 5 {
		t.Errorf("rps %v: want 5 requests over the 1 s after the warm-up", res.Totals.RPS)
	}
	if res.Totals.Latency.Max > 11 {
		t.Errorf("max latency %vms includes the warm-up", res.Totals.Latency.Max)
	}
	if len(res.Endpoints) != 1 || res.Endpoints[0].Requests != 5 {
		t.Errorf("endpoints %+v", res.Endpoints)
	}
	want := result.Warmup{DurationS: 1, Requests: 11, Failures: 1, Dropped: 1}
	if res.Warmup == nil || *res.Warmup != want {
		t.Errorf("warmup %+v, want %+v", res.Warmup, want)
	}
	var inSeries, dropped int64
	for _, p := range res.Series {
		inSeries += p.Requests
		dropped += p.Dropped
	}
	if inSeries != 16 || dropped != 2 {
		t.Errorf("series: %d requests, %d dropped; want all 16 and 2", inSeries, dropped)
	}

	merged, err := Merge(res, res)
	if err != nil {
		t.Fatal(err)
	}
	if merged.Totals.RPS != 10 {
		t.Errorf("merged rps %v, want 10", merged.Totals.RPS)
	}
	if w := merged.Warmup; w == nil || w.Requests != 22 || w.Dropped != 2 {
		t.Errorf("merged warmup %+v", w)
	}
}

// Without SetWarmup the result has no warmup block.
func TestNoWarmupBlock(t *testing.T) {
	rec := NewRecorder(1)
	rec.Begin(time.Now(), nil)
	rec.Finish(time.Now())
	if w := rec.Result(time.Second).Warmup; w != nil {
		t.Errorf("warmup %+v", w)
	}
}
