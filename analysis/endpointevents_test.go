package analysis

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/surge-load/surge/result"
)

// poisson draws a Poisson count of mean m.
func poisson(rng *rand.Rand, m float64) int64 {
	l, k, p := math.Exp(-m), int64(0), 1.0
	for {
		p *= rng.Float64()
		if p <= l {
			return k
		}
		k++
	}
}

// noisyEndpoints is a run of ten minutes of three endpoints at 20, 12 and
// 40 requests per second (Poisson counts, p95 around 20 ms with noise); in
// the seconds of stall, endpoint "b" completes nothing.
func noisyEndpoints(seed uint64, stall ...int) *result.Result {
	rng := rand.New(rand.NewPCG(seed, 9))
	r := &result.Result{Run: result.Run{DurationS: 600}}
	for sec := range 600 {
		p := result.Point{T: float64(sec), DurationS: 1}
		for _, e := range []struct {
			name string
			rate float64
		}{{"a", 20}, {"b", 12}, {"c", 40}} {
			n := poisson(rng, e.rate)
			for _, s := range stall {
				if e.name == "b" && sec == s {
					n = 0
				}
			}
			if n == 0 {
				continue
			}
			p95 := 20 * math.Exp(0.4*rng.NormFloat64())
			p.Endpoints = append(p.Endpoints, result.EndpointPoint{Name: e.name, Requests: n, Latency: result.Percentiles{P50: p95 / 2, P95: p95, P99: 1.5 * p95}})
			p.Requests += n
		}
		r.Series = append(r.Series, p)
	}
	return r
}

// TestEndpointExcursionsIgnoreNoise finds nothing in ten minutes of three
// noisy endpoints (a dozen seeds), and exactly the stall of one endpoint
// when it has one.
func TestEndpointExcursionsIgnoreNoise(t *testing.T) {
	for seed := range uint64(12) {
		if evs := EndpointExcursions(noisyEndpoints(seed)); len(evs) > 0 {
			t.Errorf("seed %d: events in noise: %+v", seed, evs)
		}
	}
	evs := EndpointExcursions(noisyEndpoints(3, 300, 301))
	if len(evs) != 1 || evs[0].Endpoint != "b" || evs[0].Series != result.Throughput || evs[0].Kind != result.Dip || evs[0].AtS != 300 || evs[0].LastedS != 2 {
		t.Errorf("a stall of b at 300–301 s: %+v", evs)
	}
}
