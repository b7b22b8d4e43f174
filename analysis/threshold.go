// Package analysis judges results: thresholds (service-level objectives),
// collapses (DetectCollapse) and the generator's health (JudgeGenerator);
// the breaking-point search (package search) judges its steps with them.
package analysis

import (
	"fmt"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/surge-load/surge/metrics"
	"github.com/surge-load/surge/result"
)

// A Threshold is a pass/fail objective on a result, such as "p95<1000ms",
// "errors<1%" or "GET /users:p99<=2s". It is parsed once, at the edge.
type Threshold struct {
	Expr     string
	Endpoint string  // empty: the whole run
	Metric   string  // p50, p95, p99.9, min, mean, max, errors, rps, requests, failures, dropped
	Op       string  // <, <=, >, >=
	Limit    float64 // in the metric's unit: ms for latencies, a fraction for errors
	// LimitDuration is a latency limit exactly as written ("1.001s" is
	// 1,001,000,000 ns); latencies are judged against it, not against
	// Limit, whose float64 milliseconds are for display.
	LimitDuration time.Duration
	// limitRate is an error-rate limit exactly as written, as a fraction.
	limitRate *big.Rat
	unit      string
	// Source, Series and Agg are set for a threshold on a monitored
	// series (NAME.SERIES[.AGG], such as api.cpu.mean<30%): the source's
	// name, the series and how its per-second values are reduced over
	// the measured period (mean, max, min, last, pNN; max if not given).
	Source, Series, Agg string
}

var thresholdRE = regexp.MustCompile(`^\s*(?:(.+?)\s*:\s*)?(p\d+(?:\.\d+)?|min|mean|max|errors|rps|requests|failures|dropped)\s*(<=|>=|<|>)\s*([0-9.]+)\s*([a-zµ%/]*)\s*$`)

// ParseThreshold parses expr. Latency limits need a unit (us, ms, s, m);
// error limits are a percentage ("1%") or a fraction ("0.01"); rps limits
// may say "/s".
//
// A threshold on a monitored source is NAME.SERIES[.AGG] OP VALUE: see
// docs/monitoring.md.
func ParseThreshold(expr string) (Threshold, error) {
	if t, ok, err := parseMonitorThreshold(expr); ok {
		return t, err
	}
	m := thresholdRE.FindStringSubmatch(expr)
	if m == nil {
		return Threshold{}, fmt.Errorf("threshold %q: want [endpoint:]METRIC OP VALUE, such as p95<500ms, errors<1%%, rps>100 or \"GET /:p99<=2s\"; metrics are pNN, min, mean, max, errors, rps, requests, failures, dropped", expr)
	}
	t := Threshold{Expr: strings.TrimSpace(expr), Endpoint: m[1], Metric: m[2], Op: m[3]}
	v, err := strconv.ParseFloat(m[4], 64)
	if err != nil {
		return Threshold{}, fmt.Errorf("threshold %q: %q is not a number", expr, m[4])
	}
	unit := m[5]
	switch {
	case isLatency(t.Metric):
		if t.Metric[0] == 'p' {
			if p, _ := strconv.ParseFloat(t.Metric[1:], 64); p <= 0 || p > 100 {
				return Threshold{}, fmt.Errorf("threshold %q: percentile %s is not between 0 and 100", expr, t.Metric[1:])
			}
		}
		switch unit {
		case "us", "µs", "ms", "s", "m":
		default:
			return Threshold{}, fmt.Errorf("threshold %q: give the latency a unit: us, ms, s or m (as in p95<500ms)", expr)
		}
		// time.ParseDuration reads the decimal exactly, in integer
		// nanoseconds: no floating-point scaling on the way.
		d, err := time.ParseDuration(m[4] + unit)
		if err != nil {
			return Threshold{}, fmt.Errorf("threshold %q: %q is not a duration: %v", expr, m[4]+unit, err)
		}
		t.LimitDuration, t.Limit, t.unit = d, float64(d)/1e6, "ms"
	case t.Metric == "errors":
		rate, ok := new(big.Rat).SetString(m[4])
		if !ok {
			return Threshold{}, fmt.Errorf("threshold %q: %q is not a number", expr, m[4])
		}
		switch unit {
		case "%":
			rate.Quo(rate, big.NewRat(100, 1))
		case "":
		default:
			return Threshold{}, fmt.Errorf("threshold %q: an error rate is a percentage (errors<1%%) or a fraction (errors<0.01)", expr)
		}
		t.limitRate = rate
		t.Limit, _ = rate.Float64()
		if t.Limit > 1 {
			return Threshold{}, fmt.Errorf("threshold %q: an error rate cannot exceed 100%%", expr)
		}
		t.unit = "%"
	case t.Metric == "rps":
		if unit != "" && unit != "/s" {
			return Threshold{}, fmt.Errorf("threshold %q: rps is per second; write rps>100 or rps>100/s", expr)
		}
		t.Limit, t.unit = v, "/s"
	default:
		if unit != "" {
			return Threshold{}, fmt.Errorf("threshold %q: %s is a count and takes no unit", expr, t.Metric)
		}
		t.Limit = v
	}
	return t, nil
}

func isLatency(metric string) bool {
	return metric == "min" || metric == "mean" || metric == "max" || metric[0] == 'p'
}

// Eval judges t against r.
func (t Threshold) Eval(r *result.Result) result.ThresholdResult {
	if t.Source != "" {
		return t.evalMonitor(r)
	}
	out := result.ThresholdResult{Expr: t.Expr, Endpoint: t.Endpoint, Metric: t.Metric, Limit: t.Limit, Unit: t.unit}
	if t.unit == "%" {
		out.Limit = t.Limit * 100
	}
	s := &r.Totals
	if t.Endpoint != "" {
		s = nil
		for i := range r.Endpoints {
			if r.Endpoints[i].Name == t.Endpoint {
				s = &r.Endpoints[i].Stats
			}
		}
		if s == nil {
			out.Note = fmt.Sprintf("no endpoint named %q in the result", t.Endpoint)
			return out
		}
	}
	if isLatency(t.Metric) {
		return t.evalLatency(out, s)
	}
	actual, err := t.value(s, r.MeasuredS())
	if err != nil {
		out.Note = err.Error()
		return out
	}
	out.Actual = actual
	if t.unit == "%" {
		out.Actual *= 100
	}
	out.OK = compare(t.Op, actual, t.Limit)
	if n := s.Requests + s.Dropped + s.NotSent; t.Metric == "errors" && t.limitRate != nil && n > 0 {
		// Judged exactly: failed/attempted against the limit as written.
		rate := big.NewRat(s.Failures+s.Dropped+s.NotSent, n)
		out.OK = compare(t.Op, int64(rate.Cmp(t.limitRate)), 0)
	}
	return out
}

// compare reports whether "a op b" holds.
func compare[T int64 | float64](op string, a, b T) bool {
	switch op {
	case "<":
		return a < b
	case "<=":
		return a <= b
	case ">":
		return a > b
	case ">=":
		return a >= b
	}
	return false
}

// evalLatency judges a latency threshold in integer nanoseconds against the
// exact limit. Min, max and mean are exact. A percentile is known only to
// its histogram bucket (metrics.PercentileBucket): when the limit falls in
// the same bucket as the percentile, the two are equal within the
// histogram's precision, so <= and >= pass and < and > fail.
func (t Threshold) evalLatency(out result.ThresholdResult, s *result.Stats) result.ThresholdResult {
	if s.Requests == 0 {
		out.Note = "no requests were measured"
		return out
	}
	ms, err := t.value(s, 0)
	if err != nil {
		out.Note = err.Error()
		return out
	}
	out.Actual = ms
	actual, limit := metrics.NsOf(ms), int64(t.LimitDuration)
	if t.Metric[0] == 'p' && actual != metrics.NsOf(s.Latency.Min) && actual != metrics.NsOf(s.Latency.Max) {
		lowUs, highUs := metrics.PercentileBucket(actual / 1000)
		if limit >= lowUs*1000 && limit < (highUs+1)*1000 {
			actual = limit
		}
	}
	out.OK = compare(t.Op, actual, limit)
	return out
}

func (t Threshold) value(s *result.Stats, durationS float64) (float64, error) {
	l := s.Latency
	switch t.Metric {
	case "min":
		return l.Min, nil
	case "mean":
		return l.Mean, nil
	case "max":
		return l.Max, nil
	case "p50":
		return l.P50, nil
	case "p90":
		return l.P90, nil
	case "p95":
		return l.P95, nil
	case "p99":
		return l.P99, nil
	case "p999", "p99.9":
		return l.P999, nil
	case "errors":
		return s.ErrorRate, nil
	case "rps":
		if durationS <= 0 {
			return 0, nil
		}
		return float64(s.Requests) / durationS, nil
	case "requests":
		return float64(s.Requests), nil
	case "failures":
		return float64(s.Failures), nil
	case "dropped":
		return float64(s.Dropped), nil
	}
	p, _ := strconv.ParseFloat(t.Metric[1:], 64)
	v, err := metrics.LatencyPercentile(s, p)
	if err != nil {
		return math.NaN(), err
	}
	return v, nil
}

// Evaluate judges every threshold against r, stores the verdicts in
// r.Thresholds and reports whether all passed.
func Evaluate(r *result.Result, ts []Threshold) bool {
	r.Thresholds = make([]result.ThresholdResult, 0, len(ts))
	ok := true
	for _, t := range ts {
		v := t.Eval(r)
		ok = ok && v.OK
		r.Thresholds = append(r.Thresholds, v)
	}
	return ok
}

// ThresholdsOf returns the thresholds that the parts of a split run were
// judged by, each once, to judge their merge by.
func ThresholdsOf(parts []*result.Result) ([]Threshold, error) {
	seen := map[string]bool{}
	var ths []Threshold
	for _, p := range parts {
		for _, t := range p.Thresholds {
			if seen[t.Expr] {
				continue
			}
			seen[t.Expr] = true
			th, err := ParseThreshold(t.Expr)
			if err != nil {
				return nil, err
			}
			ths = append(ths, th)
		}
	}
	return ths, nil
}
