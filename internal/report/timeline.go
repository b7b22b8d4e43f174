package report

import (
	"fmt"
	"math"
	"sort"

	"github.com/surge-load/surge/result"
)

// MaxChartPoints is the most points a chart series holds. Longer runs are
// downsampled into buckets of consecutive intervals, so that a chart never
// has more points than a screen has pixels across it.
const MaxChartPoints = 1500

// minChartIntervalS is the shortest interval drawn. The last interval of a
// run is usually a sliver (the drain of requests in flight); a rate over a
// few milliseconds says nothing, so it is left out of the charts. Its
// operations are in the totals and tables all the same.
const minChartIntervalS = 0.5

// A Timeline is a run's per-second series as the charts draw them: rates per
// second, latencies in milliseconds, one value per point of T.
type Timeline struct {
	// T is the start of each point in seconds since the run's start.
	T Values `json:"t"`
	// StepS is the length of one point in seconds: 1, or more when the run
	// was downsampled.
	StepS float64 `json:"step_s"`
	// Intervals is the number of intervals of the result drawn; when it
	// exceeds len(T) the series are downsampled.
	Intervals int `json:"intervals"`
	// OpenModel says whether arrivals follow a schedule (the open model), in
	// which case Offered is the arrival rate the generator saw.
	OpenModel bool `json:"open_model"`

	Users   Values `json:"users"`     // live virtual users, the most in the point
	Busy    Values `json:"busy"`      // of those, inside an iteration
	Offered Values `json:"offered_s"` // arrivals per second: sent plus dropped
	OK      Values `json:"ok_s"`      // successful operations per second
	Failed  Values `json:"failed_s"`  // failed operations per second
	Dropped Values `json:"dropped_s"` // dropped arrivals per second

	P50 Values `json:"p50_ms"`
	P95 Values `json:"p95_ms"`
	P99 Values `json:"p99_ms"`
	Max Values `json:"max_ms"`
	// ErrorPct is failed and dropped operations over all attempts, in
	// percent.
	ErrorPct Values `json:"error_pct"`

	// Errors are failures per second by class, most frequent class first;
	// drops count as the class "dropped".
	Errors []ClassValues `json:"errors"`

	CPU    Values `json:"cpu_pct"`    // generator CPU, percent of all cores
	LagP99 Values `json:"lag_p99_ms"` // generator scheduling lag

	// Streams, in a run with long-lived connections, are its open streams
	// and events over time.
	Streams *StreamTimeline `json:"streams,omitempty"`

	// Endpoints are each statistics row's share of the series, on the same
	// points; absent for a result without per-endpoint points.
	Endpoints []EndpointTimeline `json:"endpoints,omitempty"`
	// EndpointsNote says which endpoints the charts by endpoint leave out,
	// if any: those the series has no points of
	// (result.Result.EndpointSeriesOmitted), or on the live page all but
	// the busiest (ReportData.ForLive).
	EndpointsNote string `json:"endpoints_note,omitempty"`

	// Bands and Marks are the periods and moments of the run's findings
	// that the charts shade and mark (the report's timeline only).
	Bands []Band `json:"bands"`
	Marks []Mark `json:"marks"`

	// Server are the charts of the monitored servers (the report's
	// timeline only), on the same points.
	Server []ServerChart `json:"server,omitempty"`
}

// ClassValues is the per-second count of one class of events: failures of
// an error class, or streams that ended for one cause.
type ClassValues struct {
	Class  string `json:"class"`
	Values Values `json:"values"`
}

// NewTimeline builds the timeline of r with at most limit points, with
// the bands and marks of its findings.
//
// When the run has more intervals than limit, consecutive intervals are
// merged into buckets of equal count. Within a bucket, rates are the
// bucket's counts over its length (the time-weighted mean of the per-second
// rates); p50, p95 and p99 are the means of the intervals' values weighted by
// their requests; max is the largest, so a spike never disappears; users and
// busy users are the most seen; CPU is the time-weighted mean and lag the
// largest. Open streams are the most seen, and events and streams opened
// or ended are rates.
func NewTimeline(r *result.Result, limit int) *Timeline {
	tl := newTimeline(r, bucketSize(len(chartPoints(r)), limit))
	annotate(tl, r)
	tl.Server = serverCharts(r, tl, pickedSeries(r))
	return tl
}

// chartPoints are the intervals of r that charts draw.
func chartPoints(r *result.Result) []*result.Point {
	var pts []*result.Point
	for i := range r.Series {
		if r.Series[i].DurationS >= minChartIntervalS {
			pts = append(pts, &r.Series[i])
		}
	}
	return pts
}

// bucketSize is how many intervals of n make one point, for at most limit
// points.
func bucketSize(n, limit int) int {
	limit = max(limit, 1)
	return max(1, (n+limit-1)/limit)
}

// newTimeline builds the timeline of r with size intervals in each point.
func newTimeline(r *result.Result, size int) *Timeline {
	pts := chartPoints(r)
	tl := &Timeline{StepS: float64(size), Intervals: len(pts), OpenModel: openModel(r)}
	classes := errorClasses(r)
	tl.Errors = make([]ClassValues, len(classes))
	for i, c := range classes {
		tl.Errors[i].Class = c
	}
	tl.Streams = newStreamTimeline(pts)
	eps := newEndpointTimelines(r, pts)
	for lo := 0; lo < len(pts); lo += size {
		b := pts[lo:min(lo+size, len(pts))]
		durS := tl.add(b, classes)
		if eps != nil {
			eps.add(b, durS)
		}
	}
	if eps != nil {
		tl.Endpoints = eps.rows
		if n := r.EndpointSeriesOmitted; n > 0 {
			tl.EndpointsNote = fmt.Sprintf("%d more endpoints had requests; the series keeps points of their own for the first %d only (their requests are in every total).", n, len(eps.rows))
		}
	}
	if tl.Intervals > 0 && size == 1 {
		tl.StepS = medianDuration(pts)
	}
	return tl
}

// add appends one point made of the intervals in b and returns its length
// in seconds.
func (tl *Timeline) add(b []*result.Point, classes []string) float64 {
	var durS, cpu, latW, p50, p95, p99 float64
	var users, busy, reqs, fails, drops int64
	maxMs, lag := math.NaN(), 0.0
	errs := make([]int64, len(classes))
	for _, p := range b {
		durS += p.DurationS
		users = max(users, p.Users)
		busy = max(busy, p.Busy)
		reqs += p.Requests
		fails += p.Failures
		drops += p.Dropped
		cpu += p.Generator.CPUPercent * p.DurationS
		lag = max(lag, p.Generator.LagP99Ms)
		if p.Requests > 0 {
			w := float64(p.Requests)
			latW += w
			p50 += w * p.Latency.P50
			p95 += w * p.Latency.P95
			p99 += w * p.Latency.P99
			if math.IsNaN(maxMs) || p.Latency.Max > maxMs {
				maxMs = p.Latency.Max
			}
		}
		for i, c := range classes {
			if c == "dropped" {
				errs[i] += p.Dropped
			} else {
				errs[i] += p.Errors[c]
			}
		}
	}
	rate := func(n int64) float64 { return float64(n) / durS }
	tl.T = append(tl.T, b[0].T)
	tl.Users = append(tl.Users, float64(users))
	tl.Busy = append(tl.Busy, float64(busy))
	tl.Offered = append(tl.Offered, rate(reqs+drops))
	tl.OK = append(tl.OK, rate(reqs-fails))
	tl.Failed = append(tl.Failed, rate(fails))
	tl.Dropped = append(tl.Dropped, rate(drops))
	nan := math.NaN()
	if latW == 0 {
		p50, p95, p99, latW = nan, nan, nan, 1
	}
	tl.P50 = append(tl.P50, p50/latW)
	tl.P95 = append(tl.P95, p95/latW)
	tl.P99 = append(tl.P99, p99/latW)
	tl.Max = append(tl.Max, maxMs)
	errPct := nan
	if reqs+drops > 0 {
		errPct = 100 * float64(fails+drops) / float64(reqs+drops)
	}
	tl.ErrorPct = append(tl.ErrorPct, errPct)
	for i := range classes {
		tl.Errors[i].Values = append(tl.Errors[i].Values, rate(errs[i]))
	}
	tl.CPU = append(tl.CPU, cpu/durS)
	tl.LagP99 = append(tl.LagP99, lag)
	if tl.Streams != nil {
		tl.Streams.add(b, durS)
	}
	return durS
}

// openModel reports whether r's load follows an arrival schedule.
func openModel(r *result.Result) bool {
	return r.Totals.Dropped > 0 || len(r.Run.Load) >= 10 && r.Run.Load[:10] == "open model"
}

// errorClasses lists the error classes of r, most frequent first: those of
// the error table, then any only the series know.
func errorClasses(r *result.Result) []string {
	var out []string
	seen := map[string]bool{}
	for _, e := range r.Errors {
		if !seen[e.Class] {
			seen[e.Class] = true
			out = append(out, e.Class)
		}
	}
	var extra []string
	for i := range r.Series {
		for c := range r.Series[i].Errors {
			if !seen[c] {
				seen[c] = true
				extra = append(extra, c)
			}
		}
		if r.Series[i].Dropped > 0 && !seen["dropped"] {
			seen["dropped"] = true
			extra = append(extra, "dropped")
		}
	}
	sort.Strings(extra)
	return append(out, extra...)
}

// medianDuration is the typical length of an interval in seconds.
func medianDuration(pts []*result.Point) float64 {
	d := make([]float64, len(pts))
	for i, p := range pts {
		d[i] = p.DurationS
	}
	sort.Float64s(d)
	return round3(d[len(d)/2])
}
