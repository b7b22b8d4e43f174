package report

import (
	"math"
	"testing"

	"github.com/surge-load/surge/result"
)

// longRun is a result with n one-second intervals of 100 requests each, one
// second of which (spikeAt) has a 5 s maximum, followed by the drain's
// sliver.
func longRun(n, spikeAt int) *result.Result {
	r := &result.Result{Run: result.Run{DurationS: float64(n), Load: "closed model: 10 users"}}
	for i := 0; i < n; i++ {
		p := result.Point{T: float64(i), DurationS: 1, Users: 10, Requests: 100, Failures: int64(i % 2), RPS: 100,
			Latency: result.Percentiles{P50: 10, P95: 20, P99: 30, Max: 40}, Errors: map[string]int64{"http_5xx": int64(i % 2)}}
		if i == spikeAt {
			p.Latency.Max = 5000
		}
		r.Series = append(r.Series, p)
	}
	r.Series = append(r.Series, result.Point{T: float64(n), DurationS: 0.02, Requests: 7, RPS: 350})
	return r
}

func TestTimelineDownsamplesLongRuns(t *testing.T) {
	const n = 4 * 3600 // four hours
	tl := NewTimeline(longRun(n, 7777), MaxChartPoints)
	if len(tl.T) > MaxChartPoints || len(tl.T) < MaxChartPoints/2 {
		t.Fatalf("%d points, want at most %d and not far fewer", len(tl.T), MaxChartPoints)
	}
	if tl.Intervals != n || tl.StepS != 10 {
		t.Errorf("intervals %d, step %v s; want %d and 10", tl.Intervals, tl.StepS, n)
	}
	for name, v := range map[string]Values{"users": tl.Users, "ok": tl.OK, "failed": tl.Failed, "p95": tl.P95, "max": tl.Max} {
		if len(v) != len(tl.T) {
			t.Errorf("%s has %d points, t has %d", name, len(v), len(tl.T))
		}
	}
	// Rates are averages: the counts survive downsampling.
	var ok, failed float64
	for i := range tl.T {
		ok += tl.OK[i] * tl.StepS
		failed += tl.Failed[i] * tl.StepS
	}
	if math.Abs(ok-float64(n*100-n/2)) > 1e-6*ok || math.Abs(failed-float64(n/2)) > 1e-6 {
		t.Errorf("downsampled counts: ok %v, failed %v; want %d and %d", ok, failed, n*100-n/2, n/2)
	}
	// The one-second spike survives in max; percentiles average.
	peak := 0.0
	for _, v := range tl.Max {
		peak = max(peak, v)
	}
	if peak != 5000 || tl.P95[777] != 20 {
		t.Errorf("max peak %v, p95 %v; want 5000 (kept) and 20", peak, tl.P95[777])
	}
	if tl.Errors[0].Class != "http_5xx" || tl.Errors[0].Values[0] != 0.5 {
		t.Errorf("errors %v, want http_5xx at 0.5/s", tl.Errors[0].Class)
	}
}

func TestTimelineLeavesOutTheDrainSliver(t *testing.T) {
	tl := NewTimeline(longRun(20, 3), MaxChartPoints)
	if len(tl.T) != 20 || tl.StepS != 1 {
		t.Fatalf("%d points of %v s; want 20 of 1 s (the 0.02 s sliver left out)", len(tl.T), tl.StepS)
	}
	if tl.OK[0] != 100 || tl.Failed[1] != 1 || tl.Max[3] != 5000 {
		t.Errorf("ok %v failed %v max %v", tl.OK[0], tl.Failed[1], tl.Max[3])
	}
}

func TestValuesEncodeGapsAsNull(t *testing.T) {
	b, _ := Values{1, math.NaN(), 2.00049, -0.0001, 1e6}.MarshalJSON()
	if string(b) != "[1,null,2,0,1000000]" {
		t.Errorf("got %s", b)
	}
}
