package report

import (
	"math"
	"strings"
	"testing"

	"github.com/surge-load/surge/result"
)

// A side of several runs weighs each by its own noise plus the spread
// between the runs: a run whose own noise is wide (a stall) weighs little,
// and runs that differ beyond their own noise widen the side's.
func TestSideValue(t *testing.T) {
	// Three agreeing runs and one stalled run, with wide noise of its own.
	v, se, w := sideValue([]float64{11.4, 11.5, 11.3, 127}, []float64{0.1, 0.1, 0.1, 80}, 0)
	if math.Abs(v-11.4) > 0.2 || w[3] > 0.01 {
		t.Errorf("value %.2f with weights %.3f; want about 11.4, the stalled run weighing little", v, w)
	}
	if se > 0.1 {
		t.Errorf("standard error %.3f; want at most one run's 0.1", se)
	}
	// Runs that each say ±0.1 but differ by 2: the between-run variance
	// widens the side's noise far beyond 0.1/√2.
	_, se, _ = sideValue([]float64{10, 12}, []float64{0.1, 0.1}, 0)
	if se < 0.5 {
		t.Errorf("two runs 2 apart, each ±0.1: standard error %.3f; want the spread between them to count", se)
	}
	// Runs that agree within their noise keep it: the mean of two is
	// 1/√2 as noisy as one.
	_, se, _ = sideValue([]float64{10, 10.05}, []float64{0.1, 0.1}, 0)
	if math.Abs(se-0.1/math.Sqrt2) > 1e-9 {
		t.Errorf("two agreeing runs: standard error %.4f; want %.4f", se, 0.1/math.Sqrt2)
	}
	// Unknown noise in all but one run: the plain mean; with only two runs
	// its noise is unknown.
	if _, se, _ := sideValue([]float64{10, 11}, []float64{math.Inf(1), 0.1}, Drift); !math.IsInf(se, 1) {
		t.Errorf("two runs, one of unknown noise: standard error %v; want unknown", se)
	}
}

// A run's seconds cannot show how much a second run would differ: a single
// run's noise is at least Drift of its value, and a side whose runs agree
// more closely than that still takes it.
func TestDriftBetweenRuns(t *testing.T) {
	// One run that says ±0.015 ms at 11.5 ms (its seconds agree closely)
	// is known to ±1% (0.115 ms), not ±0.13%.
	if _, se, _ := sideValue([]float64{11.5}, []float64{0.015}, Drift); math.Abs(se-math.Hypot(0.015, 0.115)) > 1e-9 {
		t.Errorf("one run ±0.015 at 11.5: standard error %.4f; want %.4f", se, math.Hypot(0.015, 0.115))
	}
	// Three runs that agree within their noise: the spread between runs
	// is taken as 1% of the value, so the mean of three is known to about
	// √(0.01² + 0.115²)/√3, not 0.01/√3.
	_, se, _ := sideValue([]float64{11.5, 11.5, 11.5}, []float64{0.01, 0.01, 0.01}, Drift)
	if want := math.Hypot(0.01, 0.115) / math.Sqrt(3); math.Abs(se-want) > 1e-9 {
		t.Errorf("three agreeing runs ±0.01 at 11.5: standard error %.4f; want %.4f", se, want)
	}
	// The error rate, in percentage points, takes none: 0 errors against
	// 0 errors stays exact.
	if _, se, _ := sideValue([]float64{0}, []float64{0}, 0); se != 0 {
		t.Errorf("an error rate of 0: standard error %v; want 0", se)
	}
	// A 1.5% difference of p90 between two single runs whose seconds say
	// ±0.15% is within the noise; 20% is not.
	m, _ := metricByKey("p90")
	_, a, _ := sideValue([]float64{11.47}, []float64{0.016}, m.drift())
	_, b, _ := sideValue([]float64{11.64}, []float64{0.016}, m.drift())
	if ch := change(m, 11.47, 11.64, a, b, 0); ch.Verdict != NotSignificant {
		t.Errorf("p90 11.47 → 11.64 ms, each ±0.016: %q; want ~", ch.Verdict)
	}
	if ch := change(m, 11.47, 13.76, a, b, 0); ch.Verdict != Worse {
		t.Errorf("p90 11.47 → 13.76 ms (+20%%), each ±0.016: %q; want worse", ch.Verdict)
	}
}

// A side of three runs of a system against three of one 20% slower: the
// latency is worse beyond the noise; three runs against three more of the
// same system: nothing is.
func TestSidesOfSeveralRuns(t *testing.T) {
	side := func(seed uint64, medianMs float64) Labeled {
		l := Labeled{Label: "side", Result: steady(seed, 200, medianMs).result()}
		for k := uint64(1); k <= 2; k++ {
			l.Repeats = append(l.Repeats, Labeled{Label: "repeat", Result: steady(seed+10*k, 200, medianMs).result()})
		}
		return l
	}
	c, err := Compare([]Labeled{side(1, 20), side(2, 24)})
	if err != nil {
		t.Fatal(err)
	}
	if v := verdicts(c, ""); v["p50"] != Worse || v["ok_p50"] != Worse {
		t.Errorf("20%% slower: p50 %q, ok_p50 %q; want worse", v["p50"], v["ok_p50"])
	}
	c, err = Compare([]Labeled{side(3, 20), side(4, 20)})
	if err != nil {
		t.Fatal(err)
	}
	for m, v := range verdicts(c, "") {
		if v == Worse || v == Better {
			t.Errorf("the same system: %s marked %s", m, v)
		}
	}
	if len(c.Runs[0].Repeats) != 2 {
		t.Errorf("the side has %d repeats, want 2", len(c.Runs[0].Repeats))
	}
}

// The generator's own delays are never blamed on the server: a latency
// rise that the same percentile of the generator's scheduling lag rose by
// as much is within the noise.
func TestGeneratorLagExplainsLatency(t *testing.T) {
	m, _ := metricByKey("p99")
	if ch := change(m, 4, 69, 1, 2, 58.7); ch.Verdict != NotSignificant {
		t.Errorf("p99 4 → 69 ms with the lag 58.7 ms higher, noise ±2: %q; want ~", ch.Verdict)
	}
	if ch := change(m, 4, 69, 1, 2, 0); ch.Verdict != Worse {
		t.Errorf("p99 4 → 69 ms, the lag unchanged: %q; want worse", ch.Verdict)
	}
	// A lag that fell does not make a rise larger.
	if ch := change(m, 10, 12, 0.3, 0.3, -5); ch.Verdict != Worse || ch.Text != "+20.0%" {
		t.Errorf("p99 10 → 12 ms with the lag 5 ms lower: %q %s; want worse, +20.0%%", ch.Verdict, ch.Text)
	}
}

// A stall in one of a short run's seconds makes its p99 uncertain: run
// again, it might not be there. The bootstrap over seconds says so; a run
// of steady seconds keeps a narrow p99.
func TestBootstrapSeesAStallSecond(t *testing.T) {
	tops := make([]int64, 1000)
	for i := range tops {
		tops[i] = int64(i+1) * 1000 // bucket i holds up to i+1 ms
	}
	sec := func(fast, slow int64) second {
		s := second{idx: []int32{9}, counts: []int64{fast}, total: fast + slow} // 10 ms
		if slow > 0 {
			s.idx, s.counts = append(s.idx, 299), append(s.counts, slow) // 300 ms
		}
		return s
	}
	steady := []second{sec(100, 0), sec(100, 0), sec(100, 0), sec(100, 0), sec(100, 0)}
	stalled := []second{sec(100, 0), sec(90, 10), sec(100, 0), sec(100, 0), sec(100, 0)}
	if rel := bootstrapNoise(steady, tops)["p99"]; rel > 0.01 {
		t.Errorf("steady seconds: p99 relative noise %.3f; want about 0", rel)
	}
	// The stalled run's p99 is 300 ms from 10 of its 500 requests; without
	// the stall second it would be 10 ms.
	if rel := bootstrapNoise(stalled, tops)["p99"]; rel < 0.3 {
		t.Errorf("a stall second: p99 relative noise %.3f; want it wide (the stall may not recur)", rel)
	}
	if n := bootstrapNoise(steady[:4], tops); n != nil {
		t.Errorf("four seconds: %v; want no estimate", n)
	}
}

// A run in which the generator's machine delayed sends is named in the
// notes, with how long: its latency describes the machine too.
func TestCompareNotesABusyMachine(t *testing.T) {
	a, b := steady(1, 200, 20).result(), steady(2, 200, 20).result()
	b.Generator.Saturation = &result.Saturation{SaturatedS: 3, Causes: []string{"lag"}, Cause: result.CauseMachineBusy}
	c, err := Compare([]Labeled{{Label: "a", Result: a}, {Label: "b", Result: b}})
	if err != nil {
		t.Fatal(err)
	}
	notes := strings.Join(c.notes(), "\n")
	if !strings.Contains(notes, "in b its machine was busy for 3 s") || strings.Contains(notes, "in a ") {
		t.Errorf("notes %q; want b's busy machine named, not a", notes)
	}
}

// A row with too few requests (setup requests) is never worse or better,
// however much it changed.
func TestFewSamplesAreNeverWorse(t *testing.T) {
	a, b := steady(1, 200, 20).result(), steady(2, 200, 20).result()
	setup := func(ms float64) result.EndpointStats {
		e := result.EndpointStats{Name: "POST /login"}
		e.Requests, e.RPS, e.OKRPS = 10, 10.0/45, 10.0/45
		e.Latency = result.Percentiles{Min: ms, Mean: ms, P50: ms, P90: ms, P95: ms, P99: ms, P999: ms, Max: ms}
		e.OKLatency = e.Latency
		return e
	}
	a.Endpoints = append(a.Endpoints, setup(50))
	b.Endpoints = append(b.Endpoints, setup(400))
	c, err := Compare([]Labeled{{Label: "a", Result: a}, {Label: "b", Result: b}})
	if err != nil {
		t.Fatal(err)
	}
	for m, v := range verdicts(c, "POST /login") {
		if v == Worse || v == Better {
			t.Errorf("the setup request's %s (10 requests each, 50 → 400 ms) marked %s; want ~", m, v)
		}
	}
}

// A side of several runs weighs its runs for each metric by that metric's
// noise, so its percentiles could come out of order: three nginx runs of
// bench/compare-aa.sh (testdata/sides) gave a side whose max, 1.275 ms,
// was below its p99, 1.353 ms. They are put in order.
func TestSideKeepsPercentilesInOrder(t *testing.T) {
	read := func(name string) Labeled {
		r, err := result.ReadFile("testdata/sides/" + name + ".json")
		if err != nil {
			t.Fatal(err)
		}
		return Labeled{Label: name, Result: r}
	}
	a := read("nginx-a1")
	a.Repeats = []Labeled{read("nginx-a2"), read("nginx-a3")}
	c, err := Compare([]Labeled{a, read("nginx-b1")})
	if err != nil {
		t.Fatal(err)
	}
	s, _ := c.Section("")
	for _, family := range orderedPercentiles {
		prev, prevKey := math.Inf(-1), ""
		for _, key := range family {
			r, _ := s.Row(key)
			if r.Values[0] < prev {
				t.Errorf("the side's %s %.4f ms is below its %s %.4f ms", key, r.Values[0], prevKey, prev)
			}
			prev, prevKey = r.Values[0], key
		}
	}
	// The single run of the other side is read from one histogram and
	// left as it is.
	b := c.Runs[1].Result.Totals.Latency
	if r, _ := s.Row("p99"); r.Values[1] != b.P99 {
		t.Errorf("the single run's p99 %.4f; want its own %.4f", r.Values[1], b.P99)
	}
}
