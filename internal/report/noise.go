package report

import (
	"math"
	"math/rand/v2"
	"sort"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
	"github.com/surge-load/surge/result"
)

// MinNoiseIntervals is the fewest steady intervals from which a run's noise
// is estimated. A shorter run has no noise estimate: its changes are judged
// as if it had none, and compare says so.
const MinNoiseIntervals = 5

// MinRowRequests is the fewest requests a row (the run, or an endpoint)
// needs for its noise to be estimated: a row with fewer, such as a setup
// request, says too little to tell a change from chance, so its changes are
// never better or worse.
const MinRowRequests = 20

// Drift is the least spread between runs of the same system that compare
// assumes, as a fraction of a metric's value (one standard deviation): 1%.
// A run's own seconds cannot show how much a second run would differ
// (where its processes land on the cores, connections made anew, the
// machine's other work), and on a quiet machine single runs of the demo
// compared with its own seconds' noise alone were marked worse or better
// at p90 and p95 in 10-15% of A/A pairs, their values 1-1.5% apart
// while each run's seconds said ±0.15% (docs/reports.md). A side of
// several runs measures the spread between them and uses it when it is
// wider.
const Drift = 0.01

// Significance is how many standard errors of the difference a change must
// exceed to count as an improvement or a regression: 3, so that noise alone
// marks one of the seven metrics of a comparison in about 2% of
// comparisons, not the 30% that 2 standard errors would give.
const Significance = 3.0

// Noise is how much a run's metrics vary from second to second, which says
// how much they would vary between two runs of the same system. It is
// estimated over the run's steady intervals: full-length intervals inside
// the active load period and after the warm-up (the warm-up and the
// drain's sliver at the end are left out).
//
// Throughput and the error rate: the per-second values xᵢ give a standard
// deviation σ estimated from successive differences,
// σ² = Σ(xᵢ₊₁−xᵢ)² / 2(n−1), which ignores slow trends such as ramps, so a
// ramp is not mistaken for noise. The standard error of the run's value, a
// mean of the xᵢ, is σ/√n, widened for autocorrelation. The max is one
// extreme value, not a mean: its standard error is σ of the per-second
// maxima itself. After a collapse, the successes' throughput takes its
// noise from the seconds before it and from when it happened
// (collapsedThroughput).
//
// Percentiles p50 to p99: by a moving-block bootstrap over the steady
// seconds' histograms (bootstrapNoise), at least the sampling error of as
// many independent samples (sampleError). For a run longer than 600
// seconds, the bootstrap draws from 600 seconds spread evenly over it.
// Without histograms in the result the per-second percentiles are used as
// for throughput.
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
	// OKSecondSigma is the standard deviation of one second's successful
	// throughput, in responses per second (before the collapse, for a run
	// that collapsed): the noise of peak_ok_rps.
	OKSecondSigma Number `json:"ok_second_sigma"`
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
	ranked, okRanked := percentileNoise(r, pts)
	if ranked == nil {
		ranked = map[string]float64{}
	}
	for key, rel := range okRanked {
		ranked["ok_"+key] = rel
	}
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
	collapsedThroughput(r, pts, &n)
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

// secondResolution is the standard error, in seconds, of a time read off
// a series of one-second intervals: √(1/12), that of a uniform spread over
// one second.
var secondResolution = math.Sqrt(1.0 / 12)

// collapsedThroughput sets the noise of the successes' throughput (ok_rps)
// of r, whose steady intervals are pts, and of one second of it. A healthy
// run's comes from its seconds like every mean's. Once a server dies, its
// seconds swing from the peak to nothing, and that swing is the effect, not
// noise: a run whose successful throughput collapsed or fell to zero for
// good takes its noise from the seconds before that, and from when it
// happened. Read off a per-second series, that time is known to
// secondResolution, which moves the run's mean by as much of one second's
// throughput (the peak) over the run's seconds; the seconds before add
// σ√m/n for m of the n
// seconds, σ from their successive differences, or √peak (counts of
// independent successes) with fewer than MinNoiseIntervals of them.
func collapsedThroughput(r *result.Result, pts []*result.Point, n *Noise) {
	ok, _ := metricByKey("ok_rps")
	var xs []float64
	for _, p := range pts {
		if v, has := ok.point(p); has {
			xs = append(xs, v)
		}
	}
	if sigma, _ := successiveSigma(xs); !math.IsNaN(sigma) {
		n.OKSecondSigma = Number(sigma)
	}
	t := ThroughputOf(r)
	cut := t.ZeroAtS
	if c := r.Collapse; c != nil && (math.IsNaN(cut) || c.AtS < cut) {
		cut = c.AtS
	}
	if math.IsNaN(cut) || t.PeakOKRPS <= 0 || r.Totals.OKRPS <= 0 || len(xs) == 0 {
		return
	}
	var before []float64
	for _, p := range pts {
		if p.T+p.DurationS <= cut {
			if v, has := ok.point(p); has {
				before = append(before, v)
			}
		}
	}
	sigma, _ := successiveSigma(before)
	if math.IsNaN(sigma) {
		sigma = math.Sqrt(t.PeakOKRPS)
	}
	n.OKSecondSigma = Number(sigma)
	m, all := float64(len(before)), float64(len(xs))
	se := math.Hypot(sigma*math.Sqrt(m)/all, t.PeakOKRPS*secondResolution/all)
	n.Rel["ok_rps"] = Number(se / r.Totals.OKRPS)
}

// rankedPercentiles are the percentiles whose noise bootstrapNoise
// estimates.
var rankedPercentiles = []struct {
	key  string
	rank float64 // 0 to 1
}{
	{"p50", 0.50},
	{"p90", 0.90},
	{"p95", 0.95},
	{"p99", 0.99},
}

// maxRankIntervals is the most per-second histograms bootstrapNoise
// decodes.
const maxRankIntervals = 600

// bootstrapReplicates is how many resamples bootstrapNoise draws; its
// generator has a fixed seed, so a comparison prints the same every time.
const bootstrapReplicates = 400

// A second is the latency histogram of one steady second: the indices of
// its non-empty buckets and their counts.
type second struct {
	idx    []int32
	counts []int64
	total  int64
}

// secondsOf decodes the histograms of pts; bars are the buckets of the
// run's histogram (every histogram of a result has the same), which the
// indices must fall in. It returns nothing if a histogram is missing or
// unreadable. A long run's noise is estimated from at most
// maxRankIntervals seconds spread evenly over it, and applies to all of
// its seconds.
func secondsOf(pts []*result.Point, bars int) []second {
	var out []second
	for k, p := range pts {
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
		var s second
		for i, c := range h.Export().Counts {
			if c == 0 {
				continue
			}
			if i >= bars || c < 0 {
				return nil
			}
			s.idx = append(s.idx, int32(i))
			s.counts = append(s.counts, c)
			s.total += c
		}
		out = append(out, s)
	}
	return out
}

// bootstrapNoise estimates the relative standard error of the percentiles
// of the seconds secs (each at its rank in rankedPercentiles) by a moving
// block bootstrap over the seconds: the run is rebuilt many times from
// blocks of consecutive seconds drawn with replacement (blocks of about
// the cube root of the seconds, so a stall that lasts a few seconds is
// resampled whole), each rebuilt run's percentiles read from the sum of its
// seconds' histograms, and their standard deviation taken, relative to the
// percentiles of secs themselves. It works in milliseconds, so the few
// requests behind a p99 and the one slow second that makes it count as
// they do: a run whose p99 comes from a stall in one of its five seconds
// would, run again, as likely not have it. tops are the upper ends of the
// buckets, in microseconds.
func bootstrapNoise(secs []second, tops []int64) map[string]float64 {
	n := len(secs)
	if n < MinNoiseIntervals {
		return nil
	}
	block := max(1, int(math.Round(math.Cbrt(float64(n)))))
	starts := n - block + 1
	sum := make([]int64, len(tops))
	quantiles := func(add func(func(*second))) []float64 {
		clear(sum)
		var total int64
		add(func(s *second) {
			for j, i := range s.idx {
				sum[i] += s.counts[j]
			}
			total += s.total
		})
		out := make([]float64, len(rankedPercentiles))
		for k, rp := range rankedPercentiles {
			// The rank of hdr's ValueAtQuantile: the value at or below
			// which P of the counts lie.
			want := max(1, min(total, int64(rp.rank*float64(total)+0.5)))
			var cum int64
			for i, c := range sum {
				if cum += c; cum >= want {
					out[k] = float64(tops[i])
					break
				}
			}
		}
		return out
	}
	all := quantiles(func(f func(*second)) {
		for i := range secs {
			f(&secs[i])
		}
	})
	rng := rand.New(rand.NewPCG(1, uint64(n)))
	reps := make([][]float64, len(all))
	for range bootstrapReplicates {
		q := quantiles(func(f func(*second)) {
			for drawn := 0; drawn < n; {
				at := rng.IntN(starts)
				for j := at; j < at+block && drawn < n; j++ {
					f(&secs[j])
					drawn++
				}
			}
		})
		for k, v := range q {
			reps[k] = append(reps[k], v)
		}
	}
	out := map[string]float64{}
	for k, rp := range rankedPercentiles {
		if all[k] <= 0 {
			return nil
		}
		// The standard error is half the spread of the middle 68% of the
		// resampled percentiles (the standard deviation of a normal
		// spread), which a few extreme resamples (most of the seconds drawn
		// from one stall) do not blow up; the bootstrap's spread of a mean
		// is √((n−1)/n) of the true one.
		sort.Float64s(reps[k])
		lo, hi := reps[k][bootstrapReplicates*16/100], reps[k][bootstrapReplicates*84/100]
		out[rp.key] = (hi - lo) / 2 * math.Sqrt(float64(n)/float64(n-1)) / all[k]
	}
	return out
}

// percentileNoise estimates the relative standard errors of the run's
// percentiles, and of its successes' (from the seconds without failures,
// whose operations all succeeded), by bootstrapNoise. It returns nothing
// without the histograms.
func percentileNoise(r *result.Result, pts []*result.Point) (all, ok map[string]float64) {
	total, err := hdr.Decode([]byte(r.Totals.LatencyHistogram))
	if r.Totals.LatencyHistogram == "" || err != nil || total.TotalCount() == 0 {
		return nil, nil
	}
	bars := total.Distribution()
	tops := make([]int64, len(bars))
	for i, b := range bars {
		tops[i] = b.To
	}
	var clean []*result.Point
	for _, p := range pts {
		if p.Failures == 0 {
			clean = append(clean, p)
		}
	}
	return bootstrapNoise(secondsOf(pts, len(tops)), tops), bootstrapNoise(secondsOf(clean, len(tops)), tops)
}

// StdErr is the standard error of metric m's value for s, a run's totals
// or one of its endpoints, whose totals are total.
func (n *Noise) StdErr(m Metric, s, total *result.Stats) float64 {
	r, ok := n.Rel[m.Key]
	if !ok || s.Requests < MinRowRequests {
		// No estimate (too few steady seconds, or a row with too few
		// requests, such as a setup request):
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
	return max(rel*math.Abs(m.value(s))*scale, sampleError(m, s))
}

// sampleError is the least standard error of percentile m of s, in
// milliseconds, however steady the seconds: that of a percentile of as
// many independent samples as s has. Its rank P is known to √(P(1−P)/n)
// for n samples, which is half the distance between the quantiles of s's
// own histogram at P − that and P + that. An endpoint's tail, read from
// fewer requests than the run's (and at another rank of the mixture of all
// endpoints), is wider than the run's noise scaled by the requests says.
// It is 0 for other metrics and without the histogram.
func sampleError(m Metric, s *result.Stats) float64 {
	if m.rank <= 0 || m.hist == nil || m.hist(s) == "" {
		return 0
	}
	h, err := hdr.Decode([]byte(m.hist(s)))
	if err != nil || h.TotalCount() == 0 {
		return 0
	}
	d := math.Sqrt(m.rank * (1 - m.rank) / float64(h.TotalCount()))
	lo := h.ValueAtQuantile(100 * max(0, m.rank-d))
	hi := h.ValueAtQuantile(100 * min(1, m.rank+d))
	return float64(hi-lo) / 2 / 1000
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
