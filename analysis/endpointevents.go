package analysis

import (
	"math"
	"slices"

	"github.com/surge-load/surge/result"
)

// The rules of an endpoint's own events: deeper than the run's, since one
// endpoint's series is thinner and noisier than the sum of all.
const (
	// endpointDipShare: an endpoint's dip counts when its lowest second is
	// at most this share of its baseline (it all but stopped), and the
	// baseline at least endpointMinRPS; or, lasting two seconds or more,
	// at least endpointMinRPSLong (two seconds at 0 of a Poisson count of
	// mean 8 happen once in ten million).
	endpointDipShare   = 0.1
	endpointMinRPS     = 20.0
	endpointMinRPSLong = 8.0
	// endpointSpikeFactor and endpointSpikeFloorMs: a latency spike counts
	// when its highest p95 is this many times its baseline and this much
	// more; endpointMinLatencyOps: a second with fewer successes has no
	// p95 to judge (of a dozen, the p95 is nearly the largest).
	endpointSpikeFactor   = 5.0
	endpointSpikeFloorMs  = 50.0
	endpointMinLatencyOps = 20
)

// An EndpointExcursion is a dip of one endpoint's successful throughput or
// a spike of its latency (p95), in its own points of the series.
type EndpointExcursion struct {
	Endpoint string
	result.Excursion
}

// EndpointExcursions finds, in the per-endpoint points of r's series
// (result.EndpointPoint), the dips and spikes of single endpoints during
// the active load period, by the rules of DetectExcursions and deeper
// ones: a dip to a tenth of the baseline or less (from 20/s or more; from
// 8/s for one of two seconds or more), a p95 spike to five times the
// baseline and 50 ms more, in seconds of 20 successes or more; none in the
// stretches in which the generator or its machine delayed the sends
// (Generator.Saturation). This is "which API
// stalled" when the run's own series hardly moved. It needs two endpoints
// or more with points; ordered by time, then endpoint.
func EndpointExcursions(r *result.Result) []EndpointExcursion {
	pts := chartable(activePoints(r))
	if len(pts) < 2*eventWindow {
		return nil
	}
	var names []string
	index := map[string]int{}
	for _, p := range pts {
		for _, e := range p.Endpoints {
			if _, ok := index[e.Name]; !ok {
				index[e.Name] = len(names)
				names = append(names, e.Name)
			}
		}
	}
	if len(names) < 2 {
		return nil
	}
	var out []EndpointExcursion
	own := make([]result.Point, len(pts))
	tput, lat := make([]float64, len(pts)), make([]float64, len(pts))
	for k, name := range names {
		for i := range pts {
			own[i] = result.Point{T: pts[i].T, DurationS: pts[i].DurationS, Generator: pts[i].Generator}
			for _, e := range pts[i].Endpoints {
				if index[e.Name] == k {
					own[i].Requests, own[i].Failures, own[i].Latency = e.Requests, e.Failures, e.Latency
				}
			}
			tput[i] = okRPS(own[i : i+1])
			lat[i] = math.NaN()
			if own[i].Requests-own[i].Failures >= endpointMinLatencyOps {
				lat[i] = own[i].Latency.P95
			}
		}
		for _, e := range scan(own, tput, result.Throughput, 0) {
			deep := e.Extreme <= endpointDipShare*e.Baseline
			if e.Kind == result.Dip && deep && (e.Baseline >= endpointMinRPS || e.LastedS >= 2 && e.Baseline >= endpointMinRPSLong) {
				out = append(out, EndpointExcursion{name, e})
			}
		}
		for _, e := range scan(own, lat, result.Latency, 0) {
			if e.Kind == result.Spike && e.Extreme >= endpointSpikeFactor*e.Baseline && e.Extreme-e.Baseline >= endpointSpikeFloorMs {
				out = append(out, EndpointExcursion{name, e})
			}
		}
	}
	if sat := r.Generator.Saturation; sat != nil {
		// Seconds in which sends were delayed are not the service's.
		out = slices.DeleteFunc(out, func(e EndpointExcursion) bool {
			for _, iv := range sat.Intervals {
				if e.AtS < iv.ToS && iv.FromS < e.AtS+e.LastedS {
					return true
				}
			}
			return false
		})
	}
	slices.SortStableFunc(out, func(a, b EndpointExcursion) int {
		if a.AtS != b.AtS {
			return cmpFloat(a.AtS, b.AtS)
		}
		return cmpFloat(float64(index[a.Endpoint]), float64(index[b.Endpoint]))
	})
	return out
}
