package report

import (
	"math"
	"sort"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
	"github.com/surge-load/surge/result"
)

// MinNoiseIntervals is the fewest steady intervals from which a run's noise
// is estimated. A shorter run has no noise estimate: its changes are judged
// as if it had none, and compare says so.
const MinNoiseIntervals = 5

// Significance is how many standard errors of the difference a change must
// exceed to count as an improvement or a regression: 3, so that noise alone
// marks one of the seven metrics of a comparison in about 2% of
// comparisons, not the 30% that 2 standard errors would give.
const Significance = 3.0

// Noise is how much a run's metrics vary from second to second, which says
// how much they would vary between two runs of the same system. It is
// estimated by batch means with one-second batches over the run's steady
// intervals: full-length intervals inside the active load period and after
// the warm-up (the warm-up and the drain's sliver at the end are left out).
//
// Throughput and the error rate: the per-second values xᵢ give a standard
// deviation σ estimated from successive differences,
// σ² = Σ(xᵢ₊₁−xᵢ)² / 2(n−1), which ignores slow trends such as ramps, so a
// ramp is not mistaken for noise. The standard error of the run's value, a
// mean of the xᵢ, is σ/√n. The max is one extreme value, not a mean: its
// standard error is σ of the per-second maxima itself.
//
// Percentiles p50 to p99: a run's percentile is not a mean of per-second
// percentiles, so the same method is applied to the fraction of each
// second's requests at or below the run's percentile q (a mean whose
// expected value is the percentile's rank P). Its standard error s turns
// into milliseconds through the run's own distribution: half the distance
// between its quantiles at P−s and P+s. For a run longer than 600 seconds, σ
// is estimated from 600 seconds spread evenly over it. Without histograms in
// the result the per-second percentiles are used as for throughput.
//
// Errors are kept relative to the run's value; an endpoint, which has fewer
// requests than the run and no series of its own, gets the run's relative
// error scaled by √(run requests / endpoint requests). The error rate's
// standard error, in percentage points, is the binomial one, √(p(1−p)/n) for
// the rate p of n attempts, times how much burstier the run's errors were
// than binomial (the run's standard error over its binomial one, at least 1).
type Noise struct {
	// Intervals is the number of steady intervals; below MinNoiseIntervals
	// the noise is unknown and every error is zero.
	Intervals int `json:"intervals"`
	// Rel is the relative standard error of each metric by key; for
	// errors, the standard error in percentage points.
	Rel map[string]Number `json:"rel"`
}

// Known reports whether the run was long enough to estimate its noise.
func (n *Noise) Known() bool { return n.Intervals >= MinNoiseIntervals }

// NoiseOf estimates the noise of r from its series.
func NoiseOf(r *result.Result) Noise {
	pts := steadyPoints(r)
	n := Noise{Intervals: len(pts), Rel: map[string]Number{}}
	if !n.Known() {
		return n
	}
	ranked := rankNoise(r, pts)
	for _, m := range Metrics {
		if rel, ok := ranked[m.Key]; ok {
			n.Rel[m.Key] = Number(rel)
			continue
		}
		var xs []float64
		for _, p := range pts {
			if v, ok := m.point(p); ok {
				xs = append(xs, v)
			}
		}
		sigma, mean := successiveSigma(xs)
		if math.IsNaN(sigma) {
			continue
		}
		se := sigma / math.Sqrt(float64(len(xs)))
		if m.Key == "max" {
			// The run's max is one value, not a mean: its noise is that
			// of one second's max.
			se = sigma
		}
		switch {
		case m.Points:
			n.Rel[m.Key] = Number(se)
		case mean > 0:
			n.Rel[m.Key] = Number(se / mean)
		}
	}
	// The successes' percentiles are estimated from the seconds without
	// failures; a run with too few of those takes the relative noise of
	// the percentile of all its operations, and the larger of the two
	// otherwise, since the seconds with failures are left out.
	for _, key := range []string{"p50", "p95", "p99"} {
		if all, ok := n.Rel[key]; ok && all > n.Rel["ok_"+key] {
			n.Rel["ok_"+key] = all
		}
	}
	return n
}

// rankedPercentiles are the percentiles whose noise rankNoise estimates.
var rankedPercentiles = []struct {
	key  string
	rank float64 // 0 to 1
	pick func(*result.Percentiles) float64
}{
	{"p50", 0.50, func(l *result.Percentiles) float64 { return l.P50 }},
	{"p90", 0.90, func(l *result.Percentiles) float64 { return l.P90 }},
	{"p95", 0.95, func(l *result.Percentiles) float64 { return l.P95 }},
	{"p99", 0.99, func(l *result.Percentiles) float64 { return l.P99 }},
}

// bucketIndex returns the index, in the counts of histograms shaped like h,
// of the bucket that holds v, or -1 if v is out of range.
func bucketIndex(h *hdr.Histogram, v int64) int {
	one := hdr.New(h.LowestTrackableValue(), h.HighestTrackableValue(), int(h.SignificantFigures()))
	if one.RecordValue(v) != nil {
		return -1
	}
	for i, c := range one.Export().Counts {
		if c != 0 {
			return i
		}
	}
	return -1
}

// maxRankIntervals is the most per-second histograms rankNoise decodes.
const maxRankIntervals = 600

// rankNoise estimates the relative standard errors of the run's percentiles
// from the fraction of each steady second's requests at or below them. It
// returns nothing if a histogram is missing or unreadable.
func rankNoise(r *result.Result, pts []*result.Point) map[string]float64 {
	total, err := hdr.Decode([]byte(r.Totals.LatencyHistogram))
	if r.Totals.LatencyHistogram == "" || err != nil || total.TotalCount() == 0 {
		return nil
	}
	// The buckets of the run's percentiles: a second's requests at or
	// below q are the counts of the buckets up to q's. Every histogram of a
	// result has the same buckets.
	idx := make([]int, len(rankedPercentiles))
	for i, rp := range rankedPercentiles {
		if idx[i] = bucketIndex(total, int64(math.Round(rp.pick(&r.Totals.Latency)*1000))); idx[i] < 0 {
			return nil
		}
	}
	countsLen := len(total.Export().Counts)
	fractions := make([][]float64, len(idx))
	n := 0
	for k, p := range pts {
		if p.Requests > 0 {
			n++
		}
		// Decoding histograms is the slow part: a long run's σ is
		// estimated from at most maxRankIntervals seconds spread evenly
		// over it, and applies to all of its seconds.
		if k > 0 && len(pts) > maxRankIntervals && k*maxRankIntervals/len(pts) == (k-1)*maxRankIntervals/len(pts) {
			continue
		}
		if p.Requests == 0 {
			continue
		}
		if p.LatencyHistogram == "" {
			return nil
		}
		h, err := hdr.Decode([]byte(p.LatencyHistogram))
		if err != nil || h.TotalCount() == 0 {
			return nil
		}
		counts := h.Export().Counts
		if len(counts) != countsLen {
			return nil
		}
		var below int64
		j := 0
		for i, upTo := range idx {
			for ; j <= upTo && j < len(counts); j++ {
				below += counts[j]
			}
			fractions[i] = append(fractions[i], float64(below)/float64(h.TotalCount()))
		}
	}
	out := map[string]float64{}
	for i, rp := range rankedPercentiles {
		sigma, _ := successiveSigma(fractions[i])
		q := rp.pick(&r.Totals.Latency)
		if math.IsNaN(sigma) || q <= 0 {
			return nil
		}
		s := sigma / math.Sqrt(float64(n))
		lo := total.ValueAtQuantile(100 * max(0, rp.rank-s))
		hi := total.ValueAtQuantile(100 * min(1, rp.rank+s))
		out[rp.key] = float64(hi-lo) / 2 / 1000 / q
	}
	return out
}

// StdErr is the standard error of metric m's value for s, a run's totals
// or one of its endpoints, whose totals are total.
func (n *Noise) StdErr(m Metric, s, total *result.Stats) float64 {
	r, ok := n.Rel[m.Key]
	if !ok || s.Requests == 0 {
		// No estimate (too few steady seconds, or a row with no requests):
		// the noise is unknown, so no change can be told from it. Taking
		// it as zero would mark every change of a short run.
		return math.Inf(1)
	}
	rel := float64(r)
	if m.Points {
		// The error rate: the binomial standard error of s's rate, inflated
		// by as much as the run's errors were burstier than binomial.
		inflation := 1.0
		if b := binomialPP(total); b > 0 {
			inflation = max(1, rel/b)
		}
		return binomialPP(s) * inflation
	}
	scale := 1.0
	if total.Requests > s.Requests {
		scale = math.Sqrt(float64(total.Requests) / float64(s.Requests))
	}
	return rel * math.Abs(m.value(s)) * scale
}

// binomialPP is the standard error of s's error rate, in percentage points,
// if every attempt failed independently: √(p(1−p)/n).
func binomialPP(s *result.Stats) float64 {
	n := float64(s.Requests + s.Dropped)
	if n == 0 {
		return 0
	}
	return 100 * math.Sqrt(s.ErrorRate*(1-s.ErrorRate)/n)
}

// steadyPoints are the intervals of r that noise is estimated from: those at
// least 90% as long as the typical interval, lying mostly inside the active
// load period and mostly after the warm-up, if the run had one (the totals
// compared leave the warm-up out too).
func steadyPoints(r *result.Result) []*result.Point {
	if len(r.Series) == 0 {
		return nil
	}
	durs := make([]float64, len(r.Series))
	for i := range r.Series {
		durs[i] = r.Series[i].DurationS
	}
	sort.Float64s(durs)
	typical := durs[len(durs)/2]
	var warmupS float64
	if r.Warmup != nil {
		warmupS = r.Warmup.DurationS
	}
	var out []*result.Point
	for i := range r.Series {
		p := &r.Series[i]
		mid := p.T + p.DurationS/2
		if p.DurationS >= 0.9*typical && mid <= r.Run.DurationS && mid > warmupS {
			out = append(out, p)
		}
	}
	return out
}

// successiveSigma estimates the standard deviation of xs from the mean
// square successive difference, and returns it with the mean of xs. Both
// are NaN for fewer than MinNoiseIntervals values.
func successiveSigma(xs []float64) (sigma, mean float64) {
	if len(xs) < MinNoiseIntervals {
		return math.NaN(), math.NaN()
	}
	var sum, ss float64
	for i, x := range xs {
		sum += x
		if i > 0 {
			d := x - xs[i-1]
			ss += d * d
		}
	}
	mean = sum / float64(len(xs))
	return math.Sqrt(ss/(2*float64(len(xs)-1))) * autocorrelation(xs), mean
}

// maxRho bounds the lag-1 autocorrelation autocorrelation allows for.
const maxRho = 0.8

// autocorrelation returns how much wider than for independent seconds the
// standard error of the mean of xs is, given their lag-1 autocorrelation
// ρ (clamped to 0…maxRho): successive seconds of a run are not
// independent, and for an AR(1) series the successive-difference σ times
// √(1+ρ)/(1−ρ) gives σ·√((1+ρ)/(1−ρ)), the σ the mean's standard error
// needs. ρ is read from the successive differences, whose own lag-1
// autocorrelation is −(1−ρ)/2 for such a series, so that a slow trend (a
// ramp) is not mistaken for correlation, as the differences ignore it.
func autocorrelation(xs []float64) float64 {
	if len(xs) < 3 {
		return 1
	}
	var mean float64
	for i := 1; i < len(xs); i++ {
		mean += xs[i] - xs[i-1]
	}
	mean /= float64(len(xs) - 1)
	var num, den float64
	for i := 1; i < len(xs); i++ {
		d := xs[i] - xs[i-1] - mean
		den += d * d
		if i > 1 {
			num += d * (xs[i-1] - xs[i-2] - mean)
		}
	}
	if den == 0 {
		return 1
	}
	rho := min(max(1+2*num/den, 0), maxRho)
	return math.Sqrt(1+rho) / (1 - rho)
}
