package metrics

import (
	"encoding/json"
	"flag"
	"fmt"
	"runtime"
	"testing"
	"time"
)

// memorySeconds is how many seconds TestMemoryPerEndpointSecond folds: ten
// minutes unless told (-args -memory-seconds 3600 for the hour).
var memorySeconds = flag.Int("memory-seconds", 600, "seconds of 50 endpoints that TestMemoryPerEndpointSecond folds")

// TestMemoryPerEndpointSecond folds ten minutes (or -memory-seconds) of a
// run of 50 endpoints and measures what the
// per-endpoint points of the series cost: the heap they keep, and their
// bytes in the result document. At perEndpoint requests per endpoint and
// second (latencies spread log-uniformly from 100 µs to 2 s, a tenth
// failing) each point holds a histogram of up to that many buckets. It
// fails above 2 KiB of heap per endpoint-second. Run it without -race and
// -short; docs/performance.md has its figures.
func TestMemoryPerEndpointSecond(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("folds an hour of 50 endpoints; run without -race and -short")
	}
	for _, perEndpoint := range []int{20, 200} {
		t.Run(fmt.Sprintf("%d/s", perEndpoint), func(t *testing.T) {
			const endpoints = 50
			seconds := *memorySeconds
			heapKept := func() int64 {
				runtime.GC()
				var ms runtime.MemStats
				runtime.ReadMemStats(&ms)
				return int64(ms.HeapAlloc)
			}
			rec := NewRecorder(2)
			start := time.Unix(1_700_000_000, 0)
			rec.start = start
			var samples [][]Sample
			for i := range endpoints {
				samples = append(samples, synth(4096, uint64(i), rec.Endpoint(fmt.Sprintf("GET /api/v1/endpoint/%d", i)), start))
			}
			// The first second registers everything that does not grow
			// with the seconds.
			fold := func(sec int) {
				for e := range endpoints {
					for j := range perEndpoint {
						rec.Shard(j).Record(&samples[e][(sec*perEndpoint+j)&4095])
					}
				}
				rec.fold(start.Add(time.Duration(sec+1) * time.Second))
			}
			fold(0)
			for sec := 1; sec <= seconds; sec++ {
				fold(sec)
			}
			rec.series = rec.series[:len(rec.series):len(rec.series)]
			with := heapKept()
			var docBytes int
			for i := range rec.series {
				b, _ := json.Marshal(rec.series[i].Endpoints)
				docBytes += len(b)
			}
			// The same series without its endpoints' points tells them
			// apart from the rest of a point.
			for i := range rec.series {
				rec.series[i].Endpoints = nil
			}
			without := heapKept()
			eps := float64(endpoints * seconds)
			perEPS := float64(with-without) / eps
			t.Logf("%d endpoints × %d s at %d requests per endpoint-second: the endpoints' points keep %.0f B per endpoint-second in the heap (%.1f MiB in all), and are %.0f B per endpoint-second of JSON in the result (%.1f MiB)",
				endpoints, seconds, perEndpoint, perEPS, float64(with-without)/(1<<20),
				float64(docBytes)/eps, float64(docBytes)/(1<<20))
			if perEPS > 2048 {
				t.Errorf("%.0f bytes per endpoint-second; want at most 2 KiB", perEPS)
			}
		})
	}
}
