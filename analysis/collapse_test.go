package analysis

import (
	"testing"

	"github.com/surge-load/surge/result"
)

// second is one second of a run: ok successful operations, failed ones of
// class, and whether load was offered (users busy).
func second(t float64, ok, failed int64, class string) result.Point {
	p := result.Point{T: t, DurationS: 1, Requests: ok + failed, Failures: failed, Busy: 10, Users: 10}
	if failed > 0 {
		p.Errors = map[string]int64{class: failed}
	}
	return p
}

func resultOf(points ...result.Point) *result.Result {
	return &result.Result{Run: result.Run{DurationS: float64(len(points))}, Series: points}
}

func TestCollapseStoppedAnswering(t *testing.T) {
	var pts []result.Point
	for i := range 10 { // climbing to a peak of about 800/s
		pts = append(pts, second(float64(i), int64(400+40*i), 0, ""))
	}
	pts = append(pts, second(10, 790, 0, ""), second(11, 300, 20, "closed"))
	for i := 12; i < 20; i++ { // refused from then on
		pts = append(pts, second(float64(i), 0, 2000, "connect_refused"))
	}
	c := DetectCollapse(resultOf(pts...))
	if c == nil {
		t.Fatal("no collapse")
	}
	if c.Kind != result.CollapseStopped || c.DominantError != "connect_refused" || c.Recovered {
		t.Errorf("collapse %+v; want stopped answering, connect_refused, not recovered", c)
	}
	if c.PeakRPS < 750 || c.PeakRPS > 800 || c.PeakAtS != 9 {
		t.Errorf("peak %.0f rps at %gs; want about 760 at 9s", c.PeakRPS, c.PeakAtS)
	}
	if c.AtS != 11 && c.AtS != 12 {
		t.Errorf("collapse at %gs; want 11 or 12", c.AtS)
	}
	if c.AfterPeakS != c.AtS-c.PeakAtS || c.LastedS < 8 {
		t.Errorf("after the peak %gs, lasted %gs", c.AfterPeakS, c.LastedS)
	}
}

func TestCollapseErrorsTakeOverAndRecover(t *testing.T) {
	var pts []result.Point
	for i := range 5 {
		pts = append(pts, second(float64(i), 100, 0, ""))
	}
	for i := 5; i < 9; i++ { // half the requests fail, some still answered
		pts = append(pts, second(float64(i), 40, 60, "http_5xx"))
	}
	for i := 9; i < 14; i++ {
		pts = append(pts, second(float64(i), 100, 0, ""))
	}
	c := DetectCollapse(resultOf(pts...))
	if c == nil {
		t.Fatal("no collapse")
	}
	if c.Kind != result.CollapseErrors || c.DominantError != "http_5xx" || !c.Recovered || c.AtS != 5 || c.LastedS != 4 {
		t.Errorf("collapse %+v; want errors from 5s, http_5xx, recovered after 4 s", c)
	}
	if c.ErrorRate != 0.6 {
		t.Errorf("error rate %g, want 0.6", c.ErrorRate)
	}
}

func TestNoCollapse(t *testing.T) {
	steady := func() []result.Point {
		var pts []result.Point
		for i := range 8 {
			pts = append(pts, second(float64(i), 100, 0, ""))
		}
		return pts
	}
	cases := map[string][]result.Point{
		"steady": steady(),
		"ramp down to zero users": append(steady(),
			result.Point{T: 8, DurationS: 1}, result.Point{T: 9, DurationS: 1}, result.Point{T: 10, DurationS: 1}, result.Point{T: 11, DurationS: 1}),
		"a two-second dip": append(steady(), second(8, 0, 0, ""), second(9, 0, 0, ""), second(10, 100, 0, ""), second(11, 100, 0, "")),
		"failing from the start": {second(0, 10, 90, "http_5xx"), second(1, 10, 90, "http_5xx"), second(2, 10, 90, "http_5xx"),
			second(3, 10, 90, "http_5xx"), second(4, 10, 90, "http_5xx"), second(5, 10, 90, "http_5xx"), second(6, 10, 90, "http_5xx")},
		"too short": {second(0, 100, 0, ""), second(1, 0, 50, "reset")},
	}
	for name, pts := range cases {
		if c := DetectCollapse(resultOf(pts...)); c != nil {
			t.Errorf("%s: collapse %+v", name, c)
		}
	}
	// The drain after the active period is not judged.
	r := resultOf(append(steady(), second(8, 0, 10, "interrupted"), second(9, 0, 10, "interrupted"), second(10, 0, 10, "interrupted"))...)
	r.Run.DurationS = 8
	if c := DetectCollapse(r); c != nil {
		t.Errorf("drain: collapse %+v", c)
	}
}
