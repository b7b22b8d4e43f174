package expr

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/expr-lang/expr/types"
)

// draws evaluates src n times with a generator seeded with seed.
func draws(t *testing.T, src string, n int, seed uint64) []any {
	t.Helper()
	x, err := NewFuncs(nil).Compile(src, &Scope{Types: types.Map{}})
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	e := &Evaluator{Env: map[string]any{RandVar: NewRand(seed, 0, 0)}}
	out := make([]any, n)
	for i := range out {
		if out[i], err = e.Eval(x); err != nil {
			t.Fatalf("%s: %v", src, err)
		}
	}
	return out
}

func floatsOf(vs []any) []float64 {
	out := make([]float64, len(vs))
	for i, v := range vs {
		out[i], _ = Number(v)
	}
	return out
}

func meanSD(xs []float64) (mean, sd float64) {
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	for _, x := range xs {
		sd += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(sd / float64(len(xs)-1))
}

// near fails unless got is within k standard errors se of want.
func near(t *testing.T, what string, got, want, se float64) {
	t.Helper()
	if math.Abs(got-want) > 4*se {
		t.Errorf("%s = %.4f, want %.4f ± %.4f (4 standard errors)", what, got, want, 4*se)
	}
}

const nDraws = 20000

func TestNormal(t *testing.T) {
	xs := floatsOf(draws(t, "normal(10, 2)", nDraws, 1))
	mean, sd := meanSD(xs)
	near(t, "mean", mean, 10, 2/math.Sqrt(nDraws))
	near(t, "sd", sd, 2, 2/math.Sqrt(2*nDraws))
	within := 0 // 68.27% within one sd
	for _, x := range xs {
		if math.Abs(x-10) < 2 {
			within++
		}
	}
	p := 0.6827
	near(t, "share within 1 sd", float64(within)/nDraws, p, math.Sqrt(p*(1-p)/nDraws))
}

func TestLognormal(t *testing.T) {
	xs := floatsOf(draws(t, "lognormal(1, 0.5)", nDraws, 2))
	logs := make([]float64, len(xs))
	for i, x := range xs {
		if x <= 0 {
			t.Fatalf("lognormal drew %v", x)
		}
		logs[i] = math.Log(x)
	}
	mean, sd := meanSD(logs)
	near(t, "mean of the log", mean, 1, 0.5/math.Sqrt(nDraws))
	near(t, "sd of the log", sd, 0.5, 0.5/math.Sqrt(2*nDraws))
	m, s := meanSD(xs) // mean exp(mu + sigma²/2)
	near(t, "mean", m, math.Exp(1.125), s/math.Sqrt(nDraws))
}

func TestExponential(t *testing.T) {
	xs := floatsOf(draws(t, "exponential(5)", nDraws, 3))
	mean, _ := meanSD(xs)
	near(t, "mean", mean, 5, 5/math.Sqrt(nDraws))
	over := 0
	for _, x := range xs {
		if x < 0 {
			t.Fatalf("exponential drew %v", x)
		}
		if x > 5 {
			over++
		}
	}
	p := math.Exp(-1)
	near(t, "share above the mean", float64(over)/nDraws, p, math.Sqrt(p*(1-p)/nDraws))
}

// TestZipf compares the ranks drawn with the exact probabilities k^-s / H,
// for exponents below, at and above 1, by chi-square and rank by rank.
func TestZipf(t *testing.T) {
	for _, c := range []struct {
		n int
		s string
	}{{10, "1.2"}, {10, "1"}, {50, "0.8"}, {3, "2.5"}} {
		vs := draws(t, "zipf("+strconv.Itoa(c.n)+", "+c.s+")", nDraws, 4)
		s, _ := strconv.ParseFloat(c.s, 64)
		counts := make([]int, c.n+1)
		for _, v := range vs {
			k, ok := v.(int)
			if !ok || k < 1 || k > c.n {
				t.Fatalf("zipf(%d, %s) drew %v", c.n, c.s, v)
			}
			counts[k]++
		}
		h := 0.0
		for k := 1; k <= c.n; k++ {
			h += math.Pow(float64(k), -s)
		}
		chi := 0.0
		for k := 1; k <= c.n; k++ {
			p := math.Pow(float64(k), -s) / h
			exp := p * nDraws
			chi += (float64(counts[k]) - exp) * (float64(counts[k]) - exp) / exp
			if k <= 3 {
				near(t, fmt.Sprintf("zipf(%d, %s) share of rank %d", c.n, c.s, k), float64(counts[k])/nDraws, p, math.Sqrt(p*(1-p)/nDraws))
			}
		}
		// The 99.9th percentile of chi-square with df degrees of freedom is
		// below df + 4.5*sqrt(2 df) + 10 for these df.
		df := float64(c.n - 1)
		if limit := df + 4.5*math.Sqrt(2*df) + 10; chi > limit {
			t.Errorf("zipf(%d, %s): chi-square %.1f over %v degrees of freedom exceeds %.1f", c.n, c.s, chi, df, limit)
		}
	}
}

func TestPickw(t *testing.T) {
	vs := draws(t, `pickw(["a", "b", "c", "never"], [6, 3, 1, 0])`, nDraws, 5)
	counts := map[any]int{}
	for _, v := range vs {
		counts[v]++
	}
	if counts["never"] != 0 {
		t.Errorf("an item of weight 0 was picked %d times", counts["never"])
	}
	for item, p := range map[string]float64{"a": 0.6, "b": 0.3, "c": 0.1} {
		near(t, "share of "+item, float64(counts[item])/nDraws, p, math.Sqrt(p*(1-p)/nDraws))
	}
}

// TestSeedRepeats checks that a generator of the same seed, scenario and
// user draws the same values, and that any of the three changes them.
func TestSeedRepeats(t *testing.T) {
	src := `[randInt(1, 1000000), normal(0, 1), zipf(100, 1), pickw([1, 2], [1, 1]), uuid(), exponential(1), randFloat(0, 1)]`
	x, err := NewFuncs(nil).Compile(src, &Scope{Types: types.Map{}})
	if err != nil {
		t.Fatal(err)
	}
	run := func(seed uint64, sc, id int) string {
		e := &Evaluator{Env: map[string]any{RandVar: NewRand(seed, sc, id)}}
		var b strings.Builder
		for range 20 {
			v, err := e.Eval(x)
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprint(&b, v)
		}
		return b.String()
	}
	a := run(7, 0, 3)
	if b := run(7, 0, 3); a != b {
		t.Error("the same seed, scenario and user drew different values")
	}
	for _, other := range []string{run(8, 0, 3), run(7, 1, 3), run(7, 0, 4)} {
		if other == a {
			t.Error("a different seed, scenario or user drew the same values")
		}
	}
}

func TestRandomErrors(t *testing.T) {
	f := NewFuncs(nil)
	for src, want := range map[string]string{
		"normal(1)":          "normal takes 2 argument(s), not 1; call it as normal(mean, sd)",
		"zipf(10)":           "zipf takes 2 argument(s), not 1; call it as zipf(n, s), a rank from 1 to n",
		"pickw([1], [1], 2)": "pickw takes 2 argument(s), not 3",
	} {
		_, err := f.Compile(src, &Scope{Types: types.Map{}})
		if err == nil || !strings.Contains(err.Error()+"; "+err.(*Error).Fix, want) {
			t.Errorf("%s: %v, want %q", src, err, want)
		}
	}
	e := &Evaluator{Env: map[string]any{RandVar: NewRand(1, 0, 0)}}
	for src, want := range map[string]string{
		"zipf(0, 1)":                "want n of 1 or more",
		"zipf(10, 0)":               "s above 0",
		"normal(1, -1)":             "standard deviation is negative",
		"exponential(0)":            "mean must be positive",
		`pickw(["a"], [1, 2])`:      "1 items and 2 weights",
		`pickw(["a", "b"], [0, 0])`: "add up to 0",
		`pickw(["a"], [-1])`:        "negative",
	} {
		x, err := f.Compile(src, &Scope{Types: types.Map{}})
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		if _, err := e.Eval(x); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", src, err, want)
		}
	}
}
