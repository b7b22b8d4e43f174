package health

import (
	"math"
	"runtime/metrics"
)

// runqMetric is the Go runtime's histogram of how long goroutines spent
// ready to run before they ran.
const runqMetric = "/sched/latencies:seconds"

// runqLatency follows the runtime's scheduling-latency histogram and gives
// the percentiles of each interval between two reads.
type runqLatency struct {
	sample []metrics.Sample
	prev   []uint64 // cumulative counts at the last read
}

func newRunqLatency() *runqLatency {
	r := &runqLatency{sample: []metrics.Sample{{Name: runqMetric}}}
	r.p99Ms() // the first interval starts now
	return r
}

// p99Ms returns the 99th percentile, in milliseconds, of the scheduling
// latencies since the last call, or 0 if there were none or the runtime
// does not provide them. The value is the upper bound of the histogram
// bucket it falls in.
func (r *runqLatency) p99Ms() float64 {
	metrics.Read(r.sample)
	if r.sample[0].Value.Kind() != metrics.KindFloat64Histogram {
		return 0
	}
	h := r.sample[0].Value.Float64Histogram()
	delta := make([]uint64, len(h.Counts))
	var total uint64
	for i, c := range h.Counts {
		if i < len(r.prev) {
			c -= r.prev[i]
		}
		delta[i] = c
		total += c
	}
	r.prev = append(r.prev[:0], h.Counts...)
	if total == 0 {
		return 0
	}
	want := uint64(math.Ceil(0.99 * float64(total)))
	var seen uint64
	for i, c := range delta {
		seen += c
		if seen >= want {
			hi := h.Buckets[i+1]
			if math.IsInf(hi, 1) {
				hi = h.Buckets[i]
			}
			return hi * 1e3
		}
	}
	return 0
}
