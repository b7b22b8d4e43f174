package report

import (
	"fmt"
	"math"

	"github.com/surge-load/surge/result"
)

// A Metric is a number that compare puts side by side for each run.
type Metric struct {
	// Key names the metric in tables and in --fail-on expressions.
	Key string
	// HigherIsBetter is true for throughput; lower is better for the rest.
	HigherIsBetter bool
	// Points is true when changes are differences in percentage points
	// (the error rate) rather than relative changes in percent.
	Points bool
	// value is the metric of a run or endpoint, read from the result's
	// fields: requests per second, milliseconds, or percent.
	value func(*result.Stats) float64
	// point is the metric of one interval of the series; ok is false when
	// the interval has none (no requests, no latency).
	point func(*result.Point) (v float64, ok bool)
	// format formats a value as the summary prints it.
	format func(float64) string
	// lag, for a latency, is the same percentile of the generator's own
	// scheduling lag in the run (nil for the other metrics): how late the
	// generator's goroutines ran, which latency holds too (see change).
	lag func(*result.Result) float64
	// rank, for a percentile, is its rank from 0 to 1 (0 for the rest),
	// and hist the histogram it is read from (see Noise.StdErr).
	rank float64
	hist func(*result.Stats) string
}

// drift is the least spread between runs compare assumes for m, relative
// to its value: Drift, or none for a difference in percentage points (the
// error rate, whose binomial noise already holds the runs' chance).
func (m Metric) drift() float64 {
	if m.Points {
		return 0
	}
	return Drift
}

// Metrics are the metrics compare shows, in order. --fail-on takes their keys.
// The successes' throughput and latency come first: after a collapse,
// instant failures inflate rps and pull the latency of all operations
// down, so those two mislead and the successes' figures are what to rank
// runs by.
var Metrics = []Metric{
	{Key: "ok_rps", HigherIsBetter: true,
		value:  func(s *result.Stats) float64 { return s.OKRPS },
		point:  func(p *result.Point) (float64, bool) { return float64(p.Requests-p.Failures) / p.DurationS, true },
		format: func(v float64) string { return fmt.Sprintf("%.1f", v) }},
	okLatencyMetric("ok_p50", 0.50, func(l *result.Percentiles) float64 { return l.P50 }),
	okLatencyMetric("ok_p95", 0.95, func(l *result.Percentiles) float64 { return l.P95 }),
	okLatencyMetric("ok_p99", 0.99, func(l *result.Percentiles) float64 { return l.P99 }),
	{Key: "rps", HigherIsBetter: true,
		value:  func(s *result.Stats) float64 { return s.RPS },
		point:  func(p *result.Point) (float64, bool) { return float64(p.Requests) / p.DurationS, true },
		format: func(v float64) string { return fmt.Sprintf("%.1f", v) }},
	latencyMetric("p50", 0.50, func(l *result.Percentiles) float64 { return l.P50 }),
	latencyMetric("p90", 0.90, func(l *result.Percentiles) float64 { return l.P90 }),
	latencyMetric("p95", 0.95, func(l *result.Percentiles) float64 { return l.P95 }),
	latencyMetric("p99", 0.99, func(l *result.Percentiles) float64 { return l.P99 }),
	latencyMetric("max", 0, func(l *result.Percentiles) float64 { return l.Max }),
	{Key: "errors", Points: true,
		value: func(s *result.Stats) float64 { return 100 * s.ErrorRate },
		point: func(p *result.Point) (float64, bool) {
			n := p.Requests + p.Dropped
			if n == 0 {
				return 0, false
			}
			return 100 * float64(p.Failures+p.Dropped) / float64(n), true
		},
		format: func(v float64) string { return fmt.Sprintf("%.2f%%", v) }},
}

func latencyMetric(key string, rank float64, pick func(*result.Percentiles) float64) Metric {
	return Metric{Key: key, rank: rank,
		hist:  func(s *result.Stats) string { return s.LatencyHistogram },
		value: func(s *result.Stats) float64 { return pick(&s.Latency) },
		lag:   func(r *result.Result) float64 { return pick(&r.Generator.Lag) },
		point: func(p *result.Point) (float64, bool) {
			if p.Requests == 0 {
				return 0, false
			}
			return pick(&p.Latency), true
		},
		format: Ms}
}

// okLatencyMetric is a percentile of the successes' latency. A second
// without failures has the same latency for its successes as for all its
// operations, so those seconds give its noise.
func okLatencyMetric(key string, rank float64, pick func(*result.Percentiles) float64) Metric {
	return Metric{Key: key, rank: rank,
		hist:  func(s *result.Stats) string { return s.OKLatencyHistogram },
		value: func(s *result.Stats) float64 { return pick(&s.OKLatency) },
		lag:   func(r *result.Result) float64 { return pick(&r.Generator.Lag) },
		point: func(p *result.Point) (float64, bool) {
			if p.Requests == 0 || p.Failures > 0 {
				return 0, false
			}
			return pick(&p.Latency), true
		},
		format: Ms}
}

// A RunMetric is a figure of the whole run that compare puts in its Total
// section: NaN when a run does not have it (no collapse).
type RunMetric struct {
	Key            string
	HigherIsBetter bool
	value          func(*result.Result) float64
	format         func(float64) string
	// stderr is the standard error of the value, for a run whose noise
	// is n.
	stderr func(r *result.Result, n *Noise) float64
}

// RunMetrics are the run's successful peak, when it collapsed and when its
// successful throughput fell to zero for good (seconds since the start;
// later is better).
var RunMetrics = []RunMetric{
	{Key: "peak_ok_rps", HigherIsBetter: true,
		value:  func(r *result.Result) float64 { return ThroughputOf(r).PeakOKRPS },
		format: func(v float64) string { return fmt.Sprintf("%.1f", v) },
		// One second's value: the noise of a second's successful rps
		// (before a collapse, if the run collapsed).
		stderr: func(_ *result.Result, n *Noise) float64 {
			if !n.Known() {
				return math.Inf(1)
			}
			return float64(n.OKSecondSigma)
		}},
	{Key: "collapse_at_s", HigherIsBetter: true,
		value: func(r *result.Result) float64 {
			if r.Collapse == nil {
				return math.NaN()
			}
			return r.Collapse.AtS
		},
		format: wholeSeconds, stderr: oneSecond},
	{Key: "zero_at_s", HigherIsBetter: true,
		value:  func(r *result.Result) float64 { return ThroughputOf(r).ZeroAtS },
		format: wholeSeconds, stderr: oneSecond},
}

func wholeSeconds(v float64) string { return fmt.Sprintf("%.0fs", v) }

// oneSecond is the standard error of a time read off a per-second series.
func oneSecond(*result.Result, *Noise) float64 { return 1 }

// metricByKey returns the metric named key.
func metricByKey(key string) (Metric, bool) {
	for _, m := range Metrics {
		if m.Key == key {
			return m, true
		}
	}
	return Metric{}, false
}
