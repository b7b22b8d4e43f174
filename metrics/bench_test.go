package metrics

import (
	"fmt"
	"runtime"
	"testing"
	"time"
)

// BenchmarkShardRecord measures the hot path: one sample into a shard.
func BenchmarkShardRecord(b *testing.B) {
	rec := NewRecorder(0)
	ep := rec.Endpoint("GET /")
	start := time.Now()
	samples := synth(4096, 3, ep, start)
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		sh := rec.Shard(int(time.Now().UnixNano()))
		i := 0
		for pb.Next() {
			sh.Record(&samples[i&4095])
			i++
		}
	})
}

// TestMemoryFlatOverManyIntervals records millions of samples over many
// folded intervals and checks that the heap does not grow with them: memory
// is bounded by endpoints × intervals, not by requests.
func TestMemoryFlatOverManyIntervals(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("measures the heap over a million samples; run without -race and -short")
	}
	rec := NewRecorder(2)
	ep := rec.Endpoint("GET /")
	start := time.Now()
	rec.start = start
	samples := synth(4096, 5, ep, start)
	const perInterval = 5000
	heapAfter := func(intervals int) uint64 {
		for k := 0; k < intervals; k++ {
			for i := 0; i < perInterval; i++ {
				rec.Shard(i).Record(&samples[i&4095])
			}
			rec.fold(start.Add(time.Duration(len(rec.series)+1) * time.Second))
		}
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	base := heapAfter(20)
	grown := heapAfter(200) // 1,000,000 more samples
	growth := float64(grown-min(grown, base)) / 200
	// Each interval keeps one point with an encoded histogram: a few KiB.
	if growth > 16<<10 {
		t.Errorf("heap grows %.0f bytes per interval of %d samples; want a bounded point (< 16 KiB)", growth, perInterval)
	}
	t.Logf("heap %d -> %d bytes over 200 more intervals (%d samples): %.0f B/interval", base, grown, 200*perInterval, growth)
}

// BenchmarkFold measures the collector's once-a-second work: 5,000
// samples of three endpoints, a tenth of them failures, drained from two
// shards and folded into the run's statistics and one point of the series.
// Its allocations per op are the memory the run costs per second.
func BenchmarkFold(b *testing.B) {
	benchmarkFold(b, 3)
}

// BenchmarkFoldEndpoints is BenchmarkFold with the 5,000 samples spread
// over 50 endpoints: 50 per-endpoint points of the series a second.
func BenchmarkFoldEndpoints(b *testing.B) {
	benchmarkFold(b, 50)
}

func benchmarkFold(b *testing.B, endpoints int) {
	rec := NewRecorder(2)
	start := time.Now()
	rec.start = start
	var samples [][]Sample
	for i := range endpoints {
		samples = append(samples, synth(4096, uint64(i), rec.Endpoint(fmt.Sprintf("GET /%d", i)), start))
	}
	const perInterval = 5000
	b.ReportAllocs()
	k := 0
	for b.Loop() {
		b.StopTimer()
		for j := range perInterval {
			rec.Shard(j & 1).Record(&samples[j%endpoints][j&4095])
		}
		k++
		b.StartTimer()
		rec.fold(start.Add(time.Duration(k) * time.Second))
	}
}
