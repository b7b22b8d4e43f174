package output

import (
	"context"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/surge-load/surge/livemetrics"
	"github.com/surge-load/surge/metrics"
	"github.com/surge-load/surge/result"
)

// secondAt20k is one second of a run at 20,000 requests per second over
// five endpoints: the tick the recorder hands the outputs.
func secondAt20k() *metrics.Tick {
	t := &metrics.Tick{Point: result.Point{DurationS: 1, Users: 400, Busy: 40, Requests: 20000, RPS: 20000,
		Latency: result.Percentiles{P50: 1, P95: 3, P99: 5, Max: 20}}}
	names := []string{"GET /api/v1/folders/{id}", "POST /api/v1/folders", "PATCH /api/v1/folders/{id}", "GET /api/v1/logs", "POST /api/v1/logs"}
	for _, n := range names {
		ep := metrics.EndpointTick{Name: n, Requests: 4000, Failures: 40,
			Outcomes: []metrics.Outcome{{Status: 200, Count: 3960}, {Status: 503, Class: "http_5xx", Count: 30}, {Class: "timeout", Count: 10}},
			Latency:  result.Percentiles{P50: 1, P95: 3, P99: 5, Max: 20}}
		// Latencies spread log-normally over HdrHistogram buckets.
		left := int64(4000)
		for us := int64(200); left > 0; us = us + us/64 + 1 {
			n := max(int64(4000*math.Exp(-math.Pow(math.Log(float64(us)/1000), 2))/40), 1)
			n = min(n, left)
			ep.LatencyBuckets = append(ep.LatencyBuckets, metrics.Bucket{UpperUs: us, Count: n})
			left -= n
		}
		t.Endpoints = append(t.Endpoints, ep)
	}
	return t
}

// BenchmarkOutputsSecond is the work of one second of a run at 20,000
// requests/s for the live metrics and all four outputs: the counters and
// histograms updated, the metrics gathered, and one write each of remote
// write, line protocol, OTLP (to local servers that discard) and JSON lines.
// ns/op is the cost of a second of the run; divided by the generator's CPU
// for that second it is the overhead (docs/performance.md).
func BenchmarkOutputsSecond(b *testing.B) {
	sink := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
	}))
	defer sink.Close()
	set := livemetrics.New(map[string]string{}, "")
	infl, err := newInflux(sink.URL + "/write?db=surge")
	if err != nil {
		b.Fatal(err)
	}
	ws := []writer{&promRW{url: sink.URL + "/api/v1/write"}, infl, &otlp{url: sink.URL + "/v1/metrics"},
		&jsonl{path: filepath.Join(b.TempDir(), "points.jsonl")}}
	tick := secondAt20k()
	start := time.Now()
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		tick.Point.T = float64(i)
		set.Add(tick)
		fams, err := set.Gather()
		if err != nil {
			b.Fatal(err)
		}
		f := &Frame{Start: start, Time: start.Add(time.Duration(i+1) * time.Second), Tick: tick, Families: fams}
		for _, w := range ws {
			if err := w.write(context.Background(), []*Frame{f}); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.StopTimer()
	for _, w := range ws {
		_ = w.close()
	}
}
