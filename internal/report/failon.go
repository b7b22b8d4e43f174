package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// A FailOn is a bound on the change between two runs that fails a
// comparison in CI: [ENDPOINT:]METRIC>+N% (the metric rose by more than N
// percent), METRIC<-N% (it fell by more than N percent), or, for the error
// rate, errors>+Npp (it rose by more than N percentage points).
type FailOn struct {
	Expr     string
	Endpoint string // "" for the whole run
	Metric   string // a key of Metrics
	Above    bool   // true for >, false for <
	Bound    float64
	Points   bool // the bound is in percentage points, not percent
}

// ParseFailOn parses a --fail-on expression.
func ParseFailOn(expr string) (FailOn, error) {
	f := FailOn{Expr: expr}
	s := strings.TrimSpace(expr)
	op := strings.IndexAny(s, "<>")
	if op < 0 {
		return f, fmt.Errorf("--fail-on %q: want METRIC>+N%% or METRIC<-N%%, such as 'p95>+10%%', 'rps<-5%%' or 'errors>+0.5pp'", expr)
	}
	lhs, rhs := strings.TrimSpace(s[:op]), strings.TrimSpace(s[op+1:])
	f.Above = s[op] == '>'
	if i := strings.LastIndex(lhs, ":"); i >= 0 {
		f.Endpoint, lhs = strings.TrimSpace(lhs[:i]), strings.TrimSpace(lhs[i+1:])
		if f.Endpoint == "" {
			return f, fmt.Errorf("--fail-on %q: empty endpoint before ':'", expr)
		}
	}
	m, ok := metricByKey(strings.ToLower(lhs))
	if !ok {
		return f, fmt.Errorf("--fail-on %q: unknown metric %q; use one of %s", expr, lhs, metricKeys())
	}
	f.Metric = m.Key
	var num string
	switch {
	case strings.HasSuffix(rhs, "pp"):
		num, f.Points = strings.TrimSuffix(rhs, "pp"), true
		if !m.Points {
			return f, fmt.Errorf("--fail-on %q: percentage points (pp) apply to errors only; give %s's change in percent, such as %s>+10%%", expr, m.Key, m.Key)
		}
	case strings.HasSuffix(rhs, "%"):
		num = strings.TrimSuffix(rhs, "%")
	default:
		return f, fmt.Errorf("--fail-on %q: the bound needs a unit: %% (relative change) or, for errors, pp (percentage points)", expr)
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return f, fmt.Errorf("--fail-on %q: %q is not a number", expr, num)
	}
	f.Bound = v
	return f, nil
}

func metricKeys() string {
	keys := make([]string, len(Metrics))
	for i, m := range Metrics {
		keys[i] = m.Key
	}
	return strings.Join(keys, ", ")
}

// A FailOnResult is a bound checked against a comparison.
type FailOnResult struct {
	Expr string `json:"expr"`
	// Failed is true when the change passed the bound and is beyond the
	// runs' noise.
	Failed bool `json:"failed"`
	// Message says what changed, in words.
	Message string `json:"message"`
}

// Check judges the change of the last run of c against the run before it.
// A change past the bound fails only if it is significant: a change within
// the runs' noise does not fail CI. It returns an error if c has no such
// endpoint.
func (f *FailOn) Check(c *Comparison) (FailOnResult, error) {
	res := FailOnResult{Expr: f.Expr}
	sec, ok := c.Section(f.Endpoint)
	if !ok {
		var names []string
		for _, s := range c.Sections {
			names = append(names, s.Name)
		}
		return res, fmt.Errorf("--fail-on %q: no endpoint %q in the compared runs; they have %q", f.Expr, f.Endpoint, names)
	}
	row, _ := sec.Row(f.Metric)
	n := len(row.Values)
	ch := row.Changes[n-2]
	where := sec.Name + " " + f.Metric
	from, to := row.Text[n-2], row.Text[n-1]
	if ch.Verdict == NoVerdict {
		res.Message = fmt.Sprintf("%s: %s is missing from %s or %s", f.Expr, where, c.Runs[n-2].Label, c.Runs[n-1].Label)
		return res, nil
	}
	change := float64(ch.Pct)
	if f.Points {
		change = float64(ch.Delta)
	}
	past := !math.IsNaN(change) && (f.Above && change > f.Bound || !f.Above && change < f.Bound)
	if math.IsNaN(change) && float64(ch.Delta) != 0 {
		// From zero: any rise passes a bound above, any fall one below.
		past = f.Above == (ch.Delta > 0)
	}
	desc := fmt.Sprintf("%s %s (%s → %s)", where, ch.Text, from, to)
	switch {
	case past && ch.Verdict == NotSignificant:
		res.Message = fmt.Sprintf("%s: %s passes the bound but is within the runs' noise; not failed", f.Expr, desc)
	case past:
		res.Failed = true
		res.Message = fmt.Sprintf("%s: %s", f.Expr, desc)
	default:
		res.Message = fmt.Sprintf("%s: %s is within the bound", f.Expr, desc)
	}
	return res, nil
}
