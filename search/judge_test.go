package search

import (
	"strings"
	"testing"
	"time"

	"github.com/surge-load/surge"
	"github.com/surge-load/surge/result"
	"github.com/surge-load/surge/scenario"
)

func TestLevels(t *testing.T) {
	seq := func(c Config, from float64, n int) []float64 {
		out := []float64{from}
		for range n - 1 {
			out = append(out, c.next(out[len(out)-1]))
		}
		return out
	}
	cases := []struct {
		name string
		c    Config
		from float64
		want []float64
	}{
		{"users double", Config{Search: scenario.Search{Model: Users, Factor: 2}}, 1, []float64{1, 2, 4, 8, 16}},
		{"users by 1.2 still grow", Config{Search: scenario.Search{Model: Users, Factor: 1.2}}, 1, []float64{1, 2, 3, 4, 5}},
		{"users add", Config{Search: scenario.Search{Model: Users, Add: 10}}, 10, []float64{10, 20, 30}},
		{"users capped", Config{Search: scenario.Search{Model: Users, Factor: 2, Max: 6}}, 2, []float64{2, 4, 6, 6}},
		{"rate factor", Config{Search: scenario.Search{Model: Rate, Factor: 1.5}}, 10, []float64{10, 15, 22.5, 33.8, 50.7, 76.1, 114}},
		{"rate add", Config{Search: scenario.Search{Model: Rate, Add: 0.25}}, 1, []float64{1, 1.3, 1.6}},
	}
	for _, tc := range cases {
		got := seq(tc.c, tc.from, len(tc.want))
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
				break
			}
		}
	}
	mids := []struct {
		c         Config
		good, bad float64
		want      float64
		ok        bool
	}{
		{Config{Search: scenario.Search{Model: Users}, Resolution: 0.05}, 4, 8, 6, true},
		{Config{Search: scenario.Search{Model: Users}, Resolution: 0.05}, 4, 5, 0, false},
		{Config{Search: scenario.Search{Model: Users}, Resolution: 0.05}, 4, 6, 5, true},
		{Config{Search: scenario.Search{Model: Rate}, Resolution: 0.05}, 200, 400, 300, true},
		{Config{Search: scenario.Search{Model: Rate}, Resolution: 0.05}, 380, 395, 0, false},
		{Config{Search: scenario.Search{Model: Rate}, Resolution: 0.1}, 150, 160, 0, false},
		{Config{Search: scenario.Search{Model: Rate}, Resolution: 0.05}, 3, 4, 3.5, true},
	}
	for _, m := range mids {
		got, ok := m.c.mid(m.good, m.bad)
		if got != m.want || ok != m.ok {
			t.Errorf("%s mid(%g, %g) = %g, %v; want %g, %v", m.c.Model, m.good, m.bad, got, ok, m.want, m.ok)
		}
	}
}

func TestPlateauRule(t *testing.T) {
	cases := []struct {
		l1, r1, l2, r2 float64
		want           bool
	}{
		{100, 100, 200, 195, false}, // throughput follows the load
		{4, 142, 8, 147, true},      // +100% load, +3.5%: below a quarter
		{4, 150, 5, 151, true},      // +25% load, +0.7%: below 3%
		{4, 140, 5, 155, false},     // +25% load, +11%: more than a quarter
		{100, 100, 105, 100, false}, // +5% load is too little to judge
		{100, 100, 110, 102, true},  // +10% load, +2%
		{100, 0, 200, 0, false},     // nothing to compare with
	}
	for _, c := range cases {
		if got := plateau(c.l1, c.r1, c.l2, c.r2); got != c.want {
			t.Errorf("plateau(%g→%g, %g→%g rps) = %v, want %v", c.l1, c.l2, c.r1, c.r2, got, c.want)
		}
	}
}

// point is one second of a step with the generator's CPU at cpu percent.
func point(t float64, cpu float64) result.Point {
	return result.Point{T: t, DurationS: 1, Requests: 100, Generator: result.GeneratorPoint{CPUPercent: cpu}}
}

func newTrial(level, okRPS float64, thresholds ...result.ThresholdResult) *trial {
	return &trial{
		step:   result.CapacityStep{Level: level, OKRPS: okRPS, RPS: okRPS},
		res:    &result.Result{Thresholds: thresholds},
		judged: []result.Point{point(1, 20), point(2, 20)},
	}
}

var (
	p95Broken    = result.ThresholdResult{Expr: "p95<1000ms", Metric: "p95", Unit: "ms", Actual: 1500}
	errorsBroken = result.ThresholdResult{Expr: "errors<1%", Metric: "errors", Unit: "%", Actual: 12.5}
)

func TestJudge(t *testing.T) {
	s := &searcher{cfg: Config{Search: scenario.Search{Model: Rate}}}
	good := newTrial(100, 100)
	cases := []struct {
		name     string
		t        *trial
		dominant string
		good     *trial
		reason   string
	}{
		{"passes", newTrial(200, 199), "", good, ""},
		{"latency", newTrial(200, 199, p95Broken), "", good, result.ReasonLatency},
		{"errors before latency", newTrial(200, 150, p95Broken, errorsBroken), "http_5xx", good, result.ReasonErrors},
		{"drops come from a slow service", newTrial(200, 150, p95Broken, errorsBroken), "dropped", good, result.ReasonLatency},
		{"errors alone, even dropped", newTrial(200, 150, errorsBroken), "dropped", good, result.ReasonErrors},
		{"rps objective", newTrial(200, 150, result.ThresholdResult{Expr: "rps>300", Metric: "rps", Unit: "/s", Actual: 150}), "", good, result.ReasonObjective},
		{"plateau", newTrial(200, 101), "", good, result.ReasonPlateau},
		{"no plateau without a good step, but not sustained", newTrial(200, 101), "", nil, result.ReasonNotSustained},
		// find-max named 240/s at 153 rps completed, against a server that
		// completes 160/s: not a plateau against 120/s, but not sustained.
		{"not sustained", newTrial(240, 153), "", newTrial(120, 120), result.ReasonNotSustained},
		{"within the margin", newTrial(200, 181), "", good, ""},
		{"stopped answering", newTrial(200, 2, errorsBroken), "connect_refused", good, result.ReasonStopped},
	}
	for _, c := range cases {
		c.t.step.DominantError = c.dominant
		s.judge(c.t, c.good)
		if c.t.step.Reason != c.reason || c.t.step.OK != (c.reason == "") {
			t.Errorf("%s: reason %q, ok %v (%s); want %q", c.name, c.t.step.Reason, c.t.step.OK, c.t.step.Detail, c.reason)
		}
	}

	// A window that starts with the load (a short warm-up) misses the
	// completions of the first arrivals, one latency later: at 85/s with
	// 100 ms of latency over 2 s, 80.75/s could complete, and 76 is within
	// the margin; the same step judged from its second second is not.
	edge := newTrial(85, 76)
	edge.judged = []result.Point{point(0, 5), point(1, 5)}
	edge.judged[0].Latency.P50 = 100
	s.judge(edge, newTrial(40, 40))
	if !edge.step.OK {
		t.Errorf("a window from the load's start: %s (%s); want it sustained", edge.step.Reason, edge.step.Detail)
	}
	late := newTrial(85, 76)
	late.judged[0].Latency.P50 = 100
	s.judge(late, newTrial(40, 40))
	if late.step.Reason != result.ReasonNotSustained {
		t.Errorf("a window after the load's start: %q (%s); want not sustained", late.step.Reason, late.step.Detail)
	}

	// Operations that waited for the generator before they were sent
	// (latency far above service time) do not blame the service.
	lateSend := newTrial(240, 153)
	lateSend.res.Totals.Latency.Mean, lateSend.res.Totals.ServiceTime.Mean = 300, 4
	s.judge(lateSend, good)
	if lateSend.step.Reason == result.ReasonNotSustained {
		t.Errorf("sent late by the generator: %s (%s); want the service not blamed", lateSend.step.Reason, lateSend.step.Detail)
	}

	// A saturated generator outweighs everything else: the step says
	// nothing about the service.
	starved := newTrial(200, 2, p95Broken, errorsBroken)
	starved.judged = []result.Point{point(1, 97), point(2, 99)}
	s.judge(starved, good)
	if starved.step.Reason != result.ReasonGenerator || !strings.Contains(starved.step.Detail, "cpu") {
		t.Errorf("starved generator: reason %q (%s)", starved.step.Reason, starved.step.Detail)
	}
	if len(starved.step.Broken) != 2 {
		t.Errorf("the broken objectives are still listed: %q", starved.step.Broken)
	}
}

func TestVerdict(t *testing.T) {
	s := &searcher{cfg: Config{Search: scenario.Search{Model: Users}, Resolution: 0.05}}
	good := newTrial(4, 155)
	good.step.Latency.P95 = 26
	bad := newTrial(8, 156)
	bad.step.RPS, bad.step.Latency.Mean = 156, 51.3
	s.judge(bad, good)
	v := s.verdict(good, bad, "")
	if v.Reason != result.ReasonPlateau || !v.Conclusive || v.MaxLevel != 4 || v.FailedLevel != 8 {
		t.Fatalf("verdict %+v", v)
	}
	if v.Concurrency < 7.9 || v.Concurrency > 8.1 {
		t.Errorf("Little's law: L = %g, want 156 rps × 51.3 ms = 8.0", v.Concurrency)
	}
	for _, want := range []string{"maximum sustainable load 4 users (155.0 rps, p95 26.0ms)", "at 8 users throughput reached a plateau", "Little's law 8.0"} {
		if !strings.Contains(v.Detail, want) {
			t.Errorf("detail %q lacks %q", v.Detail, want)
		}
	}

	starved := newTrial(1, 50)
	starved.step.Reason, starved.step.Detail = result.ReasonGenerator, "generator saturated (cpu) from 0s into the step"
	v = s.verdict(nil, starved, "")
	if v.Conclusive || v.MaxLevel != 0 || !strings.HasPrefix(v.Detail, "inconclusive: generator saturated at 1 user") {
		t.Errorf("starved from the start: %+v", v)
	}

	rate := &searcher{cfg: Config{Search: scenario.Search{Model: Rate}, Resolution: 0.05}}
	short := newTrial(240, 153)
	rate.judge(short, nil)
	v = rate.verdict(nil, short, "")
	if v.Reason != result.ReasonNotSustained || !v.Conclusive || !strings.Contains(v.Detail, "at 240/s the load was not sustained: 153.0 rps completed of 240/s offered") {
		t.Errorf("not sustained at the first level: %+v", v)
	}

	v = s.verdict(good, nil, result.ReasonMaxReached)
	if v.Reason != result.ReasonMaxReached || v.Conclusive || v.MaxLevel != 4 {
		t.Errorf("max reached: %+v", v)
	}
}

func nopBuild(float64, time.Duration) (*surge.Plan, error) { return nil, nil }

func TestConfigChecks(t *testing.T) {
	ok := Config{Search: scenario.Search{Model: Rate, Start: 10}, Build: nopBuild}
	if c, err := ok.withDefaults(); err != nil || c.Factor != DefaultFactor || c.Step != DefaultStep || len(c.Objectives) != 2 {
		t.Errorf("defaults: %+v, %v", c, err)
	}
	bad := []struct {
		change func(*Config)
		msg    string
	}{
		{func(c *Config) { c.Model = "bursts" }, "model"},
		{func(c *Config) { c.Build = nil }, "Build"},
		{func(c *Config) { c.Start = 0 }, "start"},
		{func(c *Config) { c.Factor, c.Add = 2, 5 }, "not both"},
		{func(c *Config) { c.Factor = 1 }, "more than 1"},
		{func(c *Config) { c.Max = 5 }, "below the first level"},
		{func(c *Config) { c.Step, c.Warmup = time.Second, time.Second }, "shorter than step"},
		{func(c *Config) { c.Step, c.Budget = time.Minute, time.Second }, "shorter than one step"},
		{func(c *Config) { c.Resolution = 1 }, "resolution"},
	}
	for _, b := range bad {
		c := ok
		b.change(&c)
		if _, err := c.withDefaults(); err == nil || !strings.Contains(err.Error(), b.msg) {
			t.Errorf("want an error about %q, got %v", b.msg, err)
		}
	}
}
