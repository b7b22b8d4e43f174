package report

import (
	"math"
	"strings"
	"testing"

	"github.com/surge-load/surge/result"
)

// pair compares two synthetic runs.
func pair(t *testing.T, a, b synth) *Comparison {
	t.Helper()
	c, err := Compare([]Labeled{{Label: "base", Result: a.result()}, {Label: "new", Result: b.result()}})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// steady is a one-endpoint run without spikes or failures.
func steady(seed uint64, rps, medianMs float64) synth {
	return synth{seed: seed, seconds: 45, endpoints: []synthEndpoint{{name: "GET /", rps: rps, medianMs: medianMs, sigma: 0.4}}}
}

func verdicts(c *Comparison, section string) map[string]string {
	s, _ := c.Section(section)
	out := map[string]string{}
	for _, r := range s.Rows {
		out[r.Metric] = r.Changes[0].Verdict
	}
	return out
}

func TestChangeWithinNoiseIsNotSignificant(t *testing.T) {
	// The same system twice: every difference is noise.
	for seed := uint64(1); seed <= 5; seed += 2 {
		c := pair(t, steady(seed, 200, 20), steady(seed+1, 200, 20))
		for m, v := range verdicts(c, "Total") {
			if v != NotSignificant && v != Same {
				row, _ := c.Sections[0].Row(m)
				t.Errorf("seed %d: %s %v changed %s, marked %q; want ~ (not significant)", seed, m, row.Text, row.Changes[0].Text, v)
			}
		}
	}
	// A 1% rise in throughput is within the noise of 200/s for 60 s.
	c := pair(t, steady(1, 200, 20), steady(2, 202, 20))
	if v := verdicts(c, "")["rps"]; v != NotSignificant {
		t.Errorf("a 1%% change in rps marked %q, want ~", v)
	}
	var b strings.Builder
	CompareTable(&b, c)
	if !strings.Contains(b.String(), "~ not significant") {
		t.Errorf("table does not explain ~:\n%s", b.String())
	}
}

func TestClearChangesAreMarked(t *testing.T) {
	c := pair(t, steady(1, 200, 20), steady(2, 200, 26)) // 30% slower
	v := verdicts(c, "")
	for _, m := range []string{"p50", "p90", "p95", "p99"} {
		if v[m] != Worse {
			t.Errorf("30%% slower: %s marked %q, want worse", m, v[m])
		}
	}
	if v["rps"] == Worse || v["rps"] == Better {
		t.Errorf("rps unchanged, marked %q", v["rps"])
	}
	c = pair(t, steady(1, 200, 20), steady(2, 300, 15)) // faster and more throughput
	v = verdicts(c, "")
	if v["rps"] != Better || v["p50"] != Better {
		t.Errorf("improvement marked rps %q, p50 %q; want better", v["rps"], v["p50"])
	}
	failing := steady(2, 200, 20)
	failing.endpoints[0].failRate = 0.05
	if v := verdicts(pair(t, steady(1, 200, 20), failing), "")["errors"]; v != Worse {
		t.Errorf("errors 0%% → 5%% marked %q, want worse", v)
	}
}

func TestNoiseIgnoresRamps(t *testing.T) {
	// A ramp from 0 to 200/s over 30 s is a trend, not noise.
	ramp := steady(1, 200, 20)
	ramp.rampS = 30
	n := NoiseOf(ramp.result())
	if rel := float64(n.Rel["rps"]); rel <= 0 || rel > 0.02 {
		t.Errorf("relative noise of rps during a ramp %.4f, want small (the per-second noise of ~√200)", rel)
	}
}

func TestNoiseLeavesOutTheWarmup(t *testing.T) {
	// The warm-up's seconds are in the series but not in the totals
	// compared, so its cold start is not noise either.
	run := steady(1, 200, 20)
	all := NoiseOf(run.result()).Intervals
	run.warmupS = 5
	if n := NoiseOf(run.result()).Intervals; n != all-5 {
		t.Errorf("%d steady intervals with a 5 s warm-up, want %d", n, all-5)
	}
}

func TestShortRunsHaveUnknownNoise(t *testing.T) {
	short := steady(1, 100, 10)
	short.seconds = 3
	c := pair(t, short, steady(2, 100, 10))
	if c.Runs[0].Noise.Known() {
		t.Fatal("3 s run has known noise")
	}
	var b strings.Builder
	CompareTable(&b, c)
	if !strings.Contains(b.String(), "noise is unknown") {
		t.Errorf("table does not say the noise is unknown:\n%s", b.String())
	}
}

func TestCompareMissingEndpoint(t *testing.T) {
	a, b := shop, shop
	b.seed = 2
	b.endpoints = shop.endpoints[:2]
	c := pair(t, a, b)
	s, ok := c.Section("PATCH /api/v1/folders/{id}")
	if !ok {
		t.Fatal("no section for the endpoint only the base has")
	}
	if r := s.Rows[0]; !math.IsNaN(r.Values[1]) || r.Text[1] != "—" || r.Changes[0].Verdict != NoVerdict {
		t.Errorf("missing endpoint row %+v", r)
	}
	if _, err := Compare([]Labeled{{Label: "x", Result: &result.Result{}}}); err == nil {
		t.Error("Compare of one run: no error")
	}
}

func TestFailOnParse(t *testing.T) {
	good := map[string]FailOn{
		"p95>+10%":             {Metric: "p95", Above: true, Bound: 10},
		"p99 > 10%":            {Metric: "p99", Above: true, Bound: 10},
		"rps<-5%":              {Metric: "rps", Bound: -5},
		"errors>+0.5pp":        {Metric: "errors", Above: true, Bound: 0.5, Points: true},
		"errors>+50%":          {Metric: "errors", Above: true, Bound: 50},
		"GET /a:b:max>+100%":   {Endpoint: "GET /a:b", Metric: "max", Above: true, Bound: 100},
		"POST /api/x:P50>+20%": {Endpoint: "POST /api/x", Metric: "p50", Above: true, Bound: 20},
	}
	for expr, want := range good {
		got, err := ParseFailOn(expr)
		want.Expr = expr
		if err != nil || got != want {
			t.Errorf("ParseFailOn(%q) = %+v, %v; want %+v", expr, got, err, want)
		}
	}
	bad := map[string]string{
		"p95":            "want METRIC",
		"p95>10ms":       "needs a unit",
		"p95>+10pp":      "errors only",
		"p42>+10%":       "unknown metric",
		"latency>+10%":   "unknown metric",
		"p95>+ten%":      "not a number",
		":p95>+10%":      "empty endpoint",
		"rps<-NaN%":      "not a number",
		"errors>+0.5pp%": "not a number",
	}
	for expr, msg := range bad {
		if _, err := ParseFailOn(expr); err == nil || !strings.Contains(err.Error(), msg) || strings.Contains(err.Error(), "\n") {
			t.Errorf("ParseFailOn(%q) error %v; want one line saying %q", expr, err, msg)
		}
	}
}

func TestFailOnCheck(t *testing.T) {
	slower := pair(t, steady(1, 200, 20), steady(2, 200, 26))
	check := func(c *Comparison, expr string) FailOnResult {
		t.Helper()
		f, err := ParseFailOn(expr)
		if err != nil {
			t.Fatal(err)
		}
		res, err := f.Check(c)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	if r := check(slower, "p95>+10%"); !r.Failed || !strings.Contains(r.Message, "p95 +") {
		t.Errorf("30%% slower against p95>+10%%: %+v, want failed", r)
	}
	if r := check(slower, "GET /:p50>+10%"); !r.Failed {
		t.Errorf("endpoint bound: %+v, want failed", r)
	}
	if r := check(slower, "p95>+50%"); r.Failed {
		t.Errorf("30%% slower against p95>+50%%: %+v, want passed", r)
	}
	if r := check(slower, "rps<-5%"); r.Failed {
		t.Errorf("unchanged rps against rps<-5%%: %+v, want passed", r)
	}
	// Past the bound but within noise: not failed.
	same := pair(t, steady(1, 200, 20), steady(2, 200, 20))
	if r := check(same, "p99>+0%"); r.Failed {
		t.Errorf("noise against p99>+0%%: %+v, want not failed", r)
	}
	f, _ := ParseFailOn("GET /nope:p95>+10%")
	if _, err := f.Check(slower); err == nil || !strings.Contains(err.Error(), "no endpoint") {
		t.Errorf("unknown endpoint: %v", err)
	}
	// Several runs: the last against the one before it.
	seq := sequence(t)
	if r := check(seq, "POST /api/v1/logs:p95>+10%"); r.Failed {
		t.Errorf("flushfix improved on bulk2000, yet %+v", r)
	}
}
