package analysis

import (
	"strings"
	"testing"

	"github.com/surge-load/surge/result"
)

func TestJudgeGenerator(t *testing.T) {
	var pts []result.Point
	for i := range 10 {
		g := result.GeneratorPoint{CPUPercent: 40, LagP99Ms: 1}
		if i >= 6 {
			g.CPUPercent = 97
		}
		if i == 7 || i == 9 {
			g.LagP99Ms, g.Arrivals, g.LateArrivals = 80, 100, 3
		}
		if i == 2 { // one bad second alone does not count
			g.RunqP99Ms = 120
		}
		pts = append(pts, result.Point{T: float64(i), DurationS: 1, Generator: g})
	}
	r := &result.Result{Series: pts, Generator: result.Generator{Warnings: []string{"pre-flight"}}}
	JudgeGenerator(r)
	s := r.Generator.Saturation
	if s == nil {
		t.Fatal("no saturation")
	}
	if s.TrustworthyUntilS != 6 || s.SaturatedS != 4 || strings.Join(s.Causes, ",") != "cpu,lag" {
		t.Errorf("saturation %+v; want trustworthy until 6s, 4 s saturated, causes cpu and lag", s)
	}
	if s.Cause != result.CauseGenerator || len(s.Intervals) != 1 || s.Intervals[0] != (result.Span{FromS: 6, ToS: 10}) {
		t.Errorf("saturation %+v; want the generator's own, from 6s to 10s", s)
	}
	w := r.Generator.Warnings
	if len(w) != 3 || w[0] != "pre-flight" || !strings.Contains(w[1], "CPU at 90% or more from 6s on (4 s in all)") || !strings.Contains(w[2], "50ms late or more (p99) from 7s on (2 s in all)") {
		t.Errorf("warnings %q", w)
	}

	// Sends delayed while the generator was idle: the machine was busy,
	// and only those seconds are untrustworthy. Think times that
	// overslept (lag without late arrivals) delay nothing measured.
	var idle []result.Point
	for i := range 90 {
		g := result.GeneratorPoint{CPUPercent: 2, LagP99Ms: 300}
		if i >= 40 && i < 43 {
			g.RunqP99Ms = 80
		}
		idle = append(idle, result.Point{T: float64(i), DurationS: 1, Generator: g})
	}
	busy := &result.Result{Series: idle}
	JudgeGenerator(busy)
	if s := busy.Generator.Saturation; s == nil || s.Cause != result.CauseMachineBusy || s.SaturatedS != 3 ||
		len(s.Intervals) != 1 || s.Intervals[0] != (result.Span{FromS: 40, ToS: 43}) {
		t.Errorf("think-time run on a busy machine: saturation %+v; want machine_busy for 40s–43s only", s)
	}

	healthy := &result.Result{Series: pts[:6]}
	JudgeGenerator(healthy)
	if healthy.Generator.Saturation != nil || len(healthy.Generator.Warnings) != 0 {
		t.Errorf("healthy generator judged saturated: %+v", healthy.Generator)
	}
}
