package report

import (
	"fmt"

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
}

// Metrics are the metrics compare shows, in order. --fail-on takes their keys.
var Metrics = []Metric{
	{Key: "rps", HigherIsBetter: true,
		value:  func(s *result.Stats) float64 { return s.RPS },
		point:  func(p *result.Point) (float64, bool) { return float64(p.Requests) / p.DurationS, true },
		format: func(v float64) string { return fmt.Sprintf("%.1f", v) }},
	latencyMetric("p50", func(l *result.Percentiles) float64 { return l.P50 }),
	latencyMetric("p90", func(l *result.Percentiles) float64 { return l.P90 }),
	latencyMetric("p95", func(l *result.Percentiles) float64 { return l.P95 }),
	latencyMetric("p99", func(l *result.Percentiles) float64 { return l.P99 }),
	latencyMetric("max", func(l *result.Percentiles) float64 { return l.Max }),
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

func latencyMetric(key string, pick func(*result.Percentiles) float64) Metric {
	return Metric{Key: key,
		value: func(s *result.Stats) float64 { return pick(&s.Latency) },
		point: func(p *result.Point) (float64, bool) {
			if p.Requests == 0 {
				return 0, false
			}
			return pick(&p.Latency), true
		},
		format: Ms}
}

// metricByKey returns the metric named key.
func metricByKey(key string) (Metric, bool) {
	for _, m := range Metrics {
		if m.Key == key {
			return m, true
		}
	}
	return Metric{}, false
}
