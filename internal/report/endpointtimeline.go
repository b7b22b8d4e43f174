package report

import (
	"fmt"
	"math"
	"slices"

	"github.com/surge-load/surge/analysis"
	"github.com/surge-load/surge/result"
)

// An EndpointTimeline is one statistics row's share of the timeline, on the
// same points: its successes and failures per second and its latency
// percentiles, from the result's per-endpoint points (result.EndpointPoint).
// A point in which the row completed nothing has 0 per second and no
// latency (null).
type EndpointTimeline struct {
	Name string `json:"name"`
	// Requests counts the row's operations over the series (the warm-up's
	// included, as in the charts): the page picks the busiest to draw first.
	Requests int64 `json:"requests"`
	// Events counts the endpoint's own dips and spikes
	// (analysis.EndpointExcursions): the page draws those endpoints first.
	Events int `json:"events,omitempty"`
	// Bands shade those dips (on the chart of successes) and spikes (on
	// the latency chart) while the endpoint is drawn.
	Bands  []Band `json:"bands,omitempty"`
	OK     Values `json:"ok_s"`
	Failed Values `json:"failed_s"`
	P50    Values `json:"p50_ms"`
	P95    Values `json:"p95_ms"`
	P99    Values `json:"p99_ms"`
}

// endpointTimelines accumulates the rows' shares of the timeline's points.
type endpointTimelines struct {
	rows  []EndpointTimeline
	index map[string]int
	// Of the point being built, by row: requests, failures, and the sums
	// of the percentiles weighted by requests.
	reqs, fails   []int64
	p50, p95, p99 []float64
}

// newEndpointTimelines returns the accumulator of the rows that have points
// in r's series, in the order of r's endpoint table (rows only the series
// has come after), or nil if the series has no per-endpoint points (a
// result from before surge kept them).
func newEndpointTimelines(r *result.Result, pts []*result.Point) *endpointTimelines {
	e := &endpointTimelines{index: map[string]int{}}
	add := func(name string) {
		if _, ok := e.index[name]; !ok {
			e.index[name] = len(e.rows)
			e.rows = append(e.rows, EndpointTimeline{Name: name})
		}
	}
	seen := map[string]bool{}
	for _, p := range pts {
		for _, ep := range p.Endpoints {
			seen[ep.Name] = true
		}
	}
	if len(seen) == 0 {
		return nil
	}
	// Rows without points (beyond the series' first 100) are left out,
	// not drawn as zeros.
	for _, ep := range r.Endpoints {
		if seen[ep.Name] {
			add(ep.Name)
		}
	}
	for _, p := range pts {
		for _, ep := range p.Endpoints {
			add(ep.Name)
		}
	}
	for _, ev := range analysis.EndpointExcursions(r) {
		i, ok := e.index[ev.Endpoint]
		if !ok {
			continue
		}
		row := &e.rows[i]
		row.Events++
		chart := "endpoint-throughput"
		if ev.Series == result.Latency {
			chart = "endpoint-latency"
		}
		row.Bands = append(row.Bands, Band{Kind: "endpoint", From: Number(ev.AtS), To: Number(ev.AtS + ev.LastedS),
			Label: ev.Kind, Chart: chart,
			Text: fmt.Sprintf("%s: %s %s at %s for %.0f s", ev.Endpoint, ev.Series, ev.Kind, Clock(ev.AtS), ev.LastedS)})
	}
	n := len(e.rows)
	e.reqs, e.fails = make([]int64, n), make([]int64, n)
	e.p50, e.p95, e.p99 = make([]float64, n), make([]float64, n), make([]float64, n)
	return e
}

// add appends one point made of the intervals in b, durS seconds long:
// rates are the point's counts over its length, percentiles the means of
// the intervals' weighted by their requests (as the timeline's own).
func (e *endpointTimelines) add(b []*result.Point, durS float64) {
	clear(e.reqs)
	clear(e.fails)
	clear(e.p50)
	clear(e.p95)
	clear(e.p99)
	for _, p := range b {
		for _, ep := range p.Endpoints {
			i := e.index[ep.Name]
			w := float64(ep.Requests)
			e.reqs[i] += ep.Requests
			e.fails[i] += ep.Failures
			e.p50[i] += w * ep.Latency.P50
			e.p95[i] += w * ep.Latency.P95
			e.p99[i] += w * ep.Latency.P99
		}
	}
	for i := range e.rows {
		row := &e.rows[i]
		row.Requests += e.reqs[i]
		row.OK = append(row.OK, float64(e.reqs[i]-e.fails[i])/durS)
		row.Failed = append(row.Failed, float64(e.fails[i])/durS)
		w := float64(e.reqs[i])
		if w == 0 {
			row.P50, row.P95, row.P99 = append(row.P50, math.NaN()), append(row.P95, math.NaN()), append(row.P99, math.NaN())
			continue
		}
		row.P50, row.P95, row.P99 = append(row.P50, e.p50[i]/w), append(row.P95, e.p95[i]/w), append(row.P99, e.p99[i]/w)
	}
}

// firstToDraw orders endpoints as the page picks them: those with dips or
// spikes of their own first, then the busiest.
func firstToDraw(a, b EndpointTimeline) int {
	if (a.Events > 0) != (b.Events > 0) {
		if a.Events > 0 {
			return -1
		}
		return 1
	}
	return int(min(max(b.Requests-a.Requests, -1), 1))
}

// LiveEndpoints is how many endpoints the live page charts: the busiest.
// Its data is sent every second, and every endpoint's chart data is up to
// MaxChartPoints points of five series.
const LiveEndpoints = 10

// ForLive marks d as the live page's (ReportData.Live) and keeps, of the
// charts by endpoint, the LiveEndpoints busiest (those with dips or spikes
// of their own first), saying so.
func (d *ReportData) ForLive() {
	d.Live = true
	tl := d.Charts
	if tl == nil || len(tl.Endpoints) <= LiveEndpoints {
		return
	}
	busiest := slices.Clone(tl.Endpoints)
	slices.SortStableFunc(busiest, firstToDraw)
	keep := map[string]bool{}
	for _, e := range busiest[:LiveEndpoints] {
		keep[e.Name] = true
	}
	n := len(tl.Endpoints)
	tl.Endpoints = slices.DeleteFunc(slices.Clone(tl.Endpoints), func(e EndpointTimeline) bool { return !keep[e.Name] })
	tl.EndpointsNote = fmt.Sprintf("The live page charts %d of %d endpoints (those that dipped or spiked on their own, then the busiest); the report written at the end has them all.", LiveEndpoints, n)
}
