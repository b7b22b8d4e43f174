package report

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"github.com/surge-load/surge/result"
)

// A Labeled result is one run to compare, with the name tables give it,
// or one side of several runs of the same system (surge compare a1 a2 a3
// -- b1 b2): Result and its Repeats.
type Labeled struct {
	Label  string
	File   string // where it was read from, for people; may be empty
	Result *result.Result
	// Repeats are more runs of what Result ran. A side's value of each
	// metric is the mean over its runs, and its standard error comes from
	// the variance between them (see Compare).
	Repeats []Labeled
}

// LabelOf names the result read from path: the file's name without its
// directory and extension.
func LabelOf(path string) string {
	return strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
}

// A Comparison puts two or more runs side by side: for the whole run and for
// each endpoint, each metric's value in every run and its change from the
// run before.
type Comparison struct {
	Runs     []ComparedRun `json:"runs"`
	Sections []Section     `json:"sections"`
}

// A ComparedRun is one run of a comparison, or one side of several runs:
// Result (its first run, which the charts show) and Repeats.
type ComparedRun struct {
	Label   string         `json:"label"`
	File    string         `json:"file"`
	Result  *result.Result `json:"-"`
	Noise   Noise          `json:"noise"`
	Repeats []ComparedRun  `json:"repeats,omitempty"`
}

// members are the runs of r: r itself and its repeats.
func (r *ComparedRun) members() []*ComparedRun {
	out := []*ComparedRun{r}
	for i := range r.Repeats {
		out = append(out, &r.Repeats[i])
	}
	return out
}

// filesAndRequests are the files of r's runs, joined by ", ", and the
// requests of all of them.
func (r *ComparedRun) filesAndRequests() (files string, requests int64) {
	names := []string{}
	for _, m := range r.members() {
		names = append(names, m.File)
		requests += m.Result.Totals.Requests
	}
	return strings.Join(names, ", "), requests
}

// A Section is the comparison of the whole run or of one endpoint.
type Section struct {
	Name string `json:"name"`
	Rows []Row  `json:"rows"`
}

// A Row is one metric across the runs.
type Row struct {
	Metric string `json:"metric"`
	// Values holds the metric of each run, NaN where the run lacks the
	// endpoint; Text the same as the summary prints them ("—" if missing).
	Values Values   `json:"values"`
	Text   []string `json:"text"`
	// Changes[i-1] is the change from run i-1 to run i.
	Changes []Change `json:"changes"`
}

// add appends a run's value v to the row, and its text: format(v), or
// "—" if v is NaN (the run lacks it).
func (r *Row) add(v float64, format func(float64) string) {
	r.Values = append(r.Values, v)
	if math.IsNaN(v) {
		r.Text = append(r.Text, "—")
	} else {
		r.Text = append(r.Text, format(v))
	}
}

// Verdicts of a change.
const (
	Better         = "better"
	Worse          = "worse"
	NotSignificant = "~" // within the noise of the runs
	Same           = "same"
	NoVerdict      = "n/a" // a run lacks the value
)

// A Change is the difference of a metric between two runs.
type Change struct {
	// Delta is new minus old in the metric's unit (percentage points for
	// the error rate); Pct is Delta relative to old, in percent (NaN when
	// old is zero).
	Delta Number `json:"delta"`
	Pct   Number `json:"pct"`
	// Noise is the smallest change that counts: Significance times the
	// standard error of the difference.
	Noise Number `json:"noise"`
	// NoiseText is Noise as tables print the metric.
	NoiseText string `json:"noise_text"`
	// GeneratorLag, for a latency, is how much the same percentile of the
	// generator's own scheduling lag changed (NaN for other metrics): the
	// part of Delta it explains is not judged the server's.
	GeneratorLag Number `json:"generator_lag"`
	Verdict      string `json:"verdict"`
	// Text is the change as tables print it: "+12.3%" or "+0.50pp".
	Text string `json:"text"`
}

// Compare compares runs, in order; each run's changes are against the run
// before it.
//
// A run with Repeats is a side of several runs of the same system. Its
// value of a metric is the random-effects mean of its runs' values: each
// run weighs by the inverse of its own variance (NoiseOf) plus the
// variance between the runs, estimated from how much more they differ than
// their own noise says (DerSimonian and Laird), and the side's standard
// error is that of this mean. So drift from run to run, which no single
// run shows, widens the noise, and a run whose own noise is wide weighs
// little. The spread between runs is taken to be at least Drift of the
// value: a single run per side adds it to its own noise, since its seconds
// cannot show how much a second run would differ.
func Compare(runs []Labeled) (*Comparison, error) {
	if len(runs) < 2 {
		return nil, errors.New("compare needs at least two results")
	}
	c := &Comparison{}
	for _, r := range runs {
		cr, err := comparedRun(r)
		if err != nil {
			return nil, err
		}
		c.Runs = append(c.Runs, cr)
	}
	if name, ok := commonSingleEndpoint(runs); ok {
		c.Sections = append(c.Sections, c.section("Total · "+name, func(r *result.Result) *result.Stats { return &r.Totals }))
		c.Sections = append(c.Sections, serverSections(c.Runs)...)
		return c, nil
	}
	c.Sections = append(c.Sections, c.section("Total", func(r *result.Result) *result.Stats { return &r.Totals }))
	for _, name := range endpointNames(runs) {
		c.Sections = append(c.Sections, c.section(name, func(r *result.Result) *result.Stats {
			for i := range r.Endpoints {
				if r.Endpoints[i].Name == name {
					return &r.Endpoints[i].Stats
				}
			}
			return nil
		}))
	}
	c.Sections = append(c.Sections, serverSections(c.Runs)...)
	return c, nil
}

// comparedRun makes the compared run, or side, of r.
func comparedRun(r Labeled) (ComparedRun, error) {
	if r.Result == nil {
		return ComparedRun{}, fmt.Errorf("compare %s: no result", r.Label)
	}
	cr := ComparedRun{Label: r.Label, File: r.File, Result: r.Result, Noise: NoiseOf(r.Result)}
	for _, rep := range r.Repeats {
		if len(rep.Repeats) > 0 {
			return ComparedRun{}, fmt.Errorf("compare %s: a repeat of %s has repeats of its own", rep.Label, r.Label)
		}
		m, err := comparedRun(rep)
		if err != nil {
			return ComparedRun{}, err
		}
		cr.Repeats = append(cr.Repeats, m)
	}
	return cr, nil
}

// sideValue combines the values of one metric in the runs of a side, with
// their standard errors, into the side's value and standard error (see
// Compare), and returns the weight of each run in it. drift is the least
// spread between runs, relative to the value (Drift, or 0 for a metric in
// percentage points): a single run adds it to its own noise, and a side of
// several takes it when its runs differ less. Runs without the value are
// left out; with none, the value is NaN.
func sideValue(vals, ses []float64, drift float64) (value, se float64, weights []float64) {
	weights = make([]float64, len(vals))
	switch len(vals) {
	case 0:
		return math.NaN(), math.Inf(1), nil
	case 1:
		weights[0] = 1
		return vals[0], math.Hypot(ses[0], drift*vals[0]), weights
	}
	// A random-effects mean (DerSimonian and Laird): each run weighs by
	// the inverse of its own variance plus the variance between runs τ²,
	// estimated from how much more the runs differ than their own noise
	// says. A run whose own noise is wide (a stall in a few of its
	// seconds) weighs little; runs that differ beyond their noise widen
	// the side's.
	var w, wv, w2 float64
	var known []int
	for i, v := range vals {
		e := ses[i]
		if math.IsInf(e, 0) || math.IsNaN(e) {
			continue
		}
		e = max(e, 1e-9*math.Abs(v), 1e-12)
		ses[i] = e
		known = append(known, i)
		w += 1 / (e * e)
		wv += v / (e * e)
		w2 += 1 / (e * e * e * e)
	}
	if len(known) < 2 {
		// Too few runs with their own noise: the plain mean, with the
		// spread between the runs if there are three or more.
		k := float64(len(vals))
		var sum float64
		for i, v := range vals {
			sum += v
			weights[i] = 1 / k
		}
		mean := sum / k
		if len(vals) < 3 {
			return mean, math.Inf(1), weights
		}
		var between float64
		for _, v := range vals {
			between += (v - mean) * (v - mean)
		}
		return mean, math.Sqrt(max(between/(k-1), drift*drift*mean*mean) / k), weights
	}
	fixed := wv / w
	var q float64
	for _, i := range known {
		d := vals[i] - fixed
		q += d * d / (ses[i] * ses[i])
	}
	tau2 := max(0, (q-float64(len(known)-1))/(w-w2/w), drift*drift*fixed*fixed)
	var ws, wsv float64
	for _, i := range known {
		weights[i] = 1 / (ses[i]*ses[i] + tau2)
		ws += weights[i]
		wsv += weights[i] * vals[i]
	}
	for i := range weights {
		weights[i] /= ws
	}
	return wsv / ws, math.Sqrt(1 / ws), weights
}

// section compares the stats that pick returns from each run (nil where a
// run lacks them).
func (c *Comparison) section(name string, pick func(*result.Result) *result.Stats) Section {
	s := Section{Name: name}
	sides := make([]sideMetrics, len(c.Runs))
	for i := range c.Runs {
		sides[i] = c.Runs[i].metrics(pick)
	}
	for k, m := range Metrics {
		row := Row{Metric: m.Key}
		for i := range sides {
			row.add(sides[i].values[k], m.format)
		}
		for i := 1; i < len(sides); i++ {
			a, b := sides[i-1], sides[i]
			row.Changes = append(row.Changes, change(m, a.values[k], b.values[k], a.stderr[k], b.stderr[k], b.lags[k]-a.lags[k]))
		}
		s.Rows = append(s.Rows, row)
	}
	if strings.HasPrefix(name, "Total") {
		for _, m := range RunMetrics {
			s.Rows = append(s.Rows, c.runRow(m))
		}
	}
	return s
}

// sideMetrics are a side's value, standard error and generator lag of
// each of Metrics, in its order.
type sideMetrics struct {
	values, stderr, lags []float64
}

// metrics combines the side's runs (sideValue) into its value of each
// metric of the stats pick returns. A side of several runs weighs its runs
// for each metric by that metric's noise, so its percentiles could come
// out in the wrong order (a p95 below its p90, a max below its p99): they
// are put in order by a weighted isotonic fit (orderedPercentiles), which
// a single run's, read from one histogram, already are.
func (r *ComparedRun) metrics(pick func(*result.Result) *result.Stats) sideMetrics {
	n := len(Metrics)
	sm := sideMetrics{values: make([]float64, n), stderr: make([]float64, n), lags: make([]float64, n)}
	for k, m := range Metrics {
		var vals, ses, lag []float64
		for _, run := range r.members() {
			if st := pick(run.Result); st != nil {
				vals = append(vals, m.value(st))
				ses = append(ses, run.Noise.StdErr(m, st, &run.Result.Totals))
				if m.lag != nil {
					lag = append(lag, m.lag(run.Result))
				}
			}
		}
		v, se, weights := sideValue(vals, ses, m.drift())
		// The side's lag is weighed as its value is.
		sm.lags[k] = math.NaN()
		if m.lag != nil && len(vals) > 0 {
			sm.lags[k] = 0
			for j, w := range weights {
				sm.lags[k] += w * lag[j]
			}
		}
		sm.values[k], sm.stderr[k] = v, se
	}
	if len(r.Repeats) > 0 {
		for _, family := range orderedPercentiles {
			sm.order(family)
		}
	}
	return sm
}

// orderedPercentiles are the families of metrics whose values must not
// decrease in the order given.
var orderedPercentiles = [][]string{
	{"p50", "p90", "p95", "p99", "max"},
	{"ok_p50", "ok_p95", "ok_p99"},
}

// order fits the values of the metrics keys, in order, with the closest
// non-decreasing values (weighted least squares, each value weighing by
// the inverse of its variance: pool adjacent violators). Values in order
// are left as they are; missing ones (NaN) are skipped.
func (sm *sideMetrics) order(keys []string) {
	var at []int
	for _, key := range keys {
		for k, m := range Metrics {
			if m.Key == key && !math.IsNaN(sm.values[k]) {
				at = append(at, k)
			}
		}
	}
	type block struct {
		sum, weight float64
		n           int
	}
	var blocks []block
	for _, k := range at {
		w := 1e-12
		if se := sm.stderr[k]; !math.IsInf(se, 0) && !math.IsNaN(se) {
			w = 1 / (se*se + 1e-12)
		}
		blocks = append(blocks, block{sm.values[k] * w, w, 1})
		for len(blocks) > 1 {
			a, b := blocks[len(blocks)-2], blocks[len(blocks)-1]
			if a.sum/a.weight <= b.sum/b.weight {
				break
			}
			blocks = blocks[:len(blocks)-1]
			blocks[len(blocks)-1] = block{a.sum + b.sum, a.weight + b.weight, a.n + b.n}
		}
	}
	i := 0
	for _, b := range blocks {
		for j := range b.n {
			if b.n > 1 {
				sm.values[at[i+j]] = b.sum / b.weight
			}
		}
		i += b.n
	}
}

// runRow compares a figure of the whole runs.
func (c *Comparison) runRow(m RunMetric) Row {
	row := Row{Metric: m.Key}
	stderr := make([]float64, len(c.Runs))
	for i := range c.Runs {
		var vals, ses []float64
		for _, run := range c.Runs[i].members() {
			if v := m.value(run.Result); !math.IsNaN(v) {
				vals = append(vals, v)
				ses = append(ses, m.stderr(run.Result, &run.Noise))
			}
		}
		v, se, _ := sideValue(vals, ses, Drift)
		stderr[i] = se
		row.add(v, m.format)
	}
	judge := Metric{Key: m.Key, HigherIsBetter: m.HigherIsBetter, format: m.format}
	for i := 1; i < len(c.Runs); i++ {
		old, new := row.Values[i-1], row.Values[i]
		switch {
		case math.IsNaN(old) && math.IsNaN(new): // neither collapsed, say
			row.Changes = append(row.Changes, Change{Delta: Number(math.NaN()), Pct: Number(math.NaN()), Noise: Number(math.NaN()), Verdict: Same, Text: "—"})
		case math.IsNaN(old): // it happened now, and not before: later (never) is better
			row.Changes = append(row.Changes, Change{Delta: Number(math.NaN()), Pct: Number(math.NaN()), Noise: Number(math.NaN()), Verdict: Worse, Text: "new"})
		case math.IsNaN(new):
			row.Changes = append(row.Changes, Change{Delta: Number(math.NaN()), Pct: Number(math.NaN()), Noise: Number(math.NaN()), Verdict: Better, Text: "gone"})
		default:
			row.Changes = append(row.Changes, change(judge, old, new, stderr[i-1], stderr[i], math.NaN()))
		}
	}
	return row
}

// change judges the change of m from old to new, whose standard errors are
// seOld and seNew: a change within Significance standard errors of the
// difference is not significant. lag, for a latency, is how much the same
// percentile of the generator's scheduling lag changed (NaN otherwise):
// the generator's own delays are never blamed on the server, so a latency
// change is judged on what the lag does not explain (the change less the
// lag's change in the same direction, never more than the change itself).
func change(m Metric, old, new, seOld, seNew, lag float64) Change {
	if math.IsNaN(old) || math.IsNaN(new) {
		return Change{Delta: Number(math.NaN()), Pct: Number(math.NaN()), Noise: Number(math.NaN()), GeneratorLag: Number(math.NaN()), Verdict: NoVerdict, Text: "—"}
	}
	delta := new - old
	pct := math.NaN()
	if old != 0 {
		pct = 100 * delta / math.Abs(old)
	}
	noise := Significance * math.Hypot(seOld, seNew)
	ch := Change{Delta: Number(delta), Pct: Number(pct), Noise: Number(noise), NoiseText: m.format(noise), GeneratorLag: Number(lag)}
	judged := delta
	if !math.IsNaN(lag) && (lag > 0) == (delta > 0) {
		judged = delta - math.Copysign(min(math.Abs(lag), math.Abs(delta)), delta)
	}
	if math.IsInf(noise, 1) {
		ch.NoiseText = "unknown"
	}
	switch {
	case m.Points:
		ch.Text = fmt.Sprintf("%+.2fpp", delta)
		ch.NoiseText = fmt.Sprintf("%.2fpp", noise)
	case math.IsNaN(pct):
		ch.Text = "new"
	default:
		ch.Text = fmt.Sprintf("%+.1f%%", pct)
	}
	// A change that rounds to zero as printed is no change.
	zero := delta == 0 || m.Points && math.Abs(delta) < 0.005 || !m.Points && math.Abs(pct) < 0.05
	switch {
	case zero:
		ch.Verdict = Same
		if m.Points {
			ch.Text = "±0pp"
		} else {
			ch.Text = "±0%"
		}
	case math.Abs(judged) <= noise:
		ch.Verdict = NotSignificant
	case (delta > 0) == m.HigherIsBetter:
		ch.Verdict = Better
	default:
		ch.Verdict = Worse
	}
	return ch
}

// commonSingleEndpoint reports whether every run has exactly one endpoint,
// the same one; then the comparison shows the totals under its name.
func commonSingleEndpoint(runs []Labeled) (string, bool) {
	var name string
	for i, r := range runs {
		if len(r.Result.Endpoints) != 1 {
			return "", false
		}
		if i == 0 {
			name = r.Result.Endpoints[0].Name
		} else if r.Result.Endpoints[0].Name != name {
			return "", false
		}
	}
	return name, true
}

// endpointNames lists the endpoints of all runs in the order first seen.
func endpointNames(runs []Labeled) []string {
	var names []string
	seen := map[string]bool{}
	for _, r := range runs {
		for _, e := range r.Result.Endpoints {
			if !seen[e.Name] {
				seen[e.Name] = true
				names = append(names, e.Name)
			}
		}
	}
	return names
}

// Section returns the section named name: "Total" (or "", the whole run),
// or an endpoint's name.
func (c *Comparison) Section(name string) (*Section, bool) {
	for i := range c.Sections {
		s := &c.Sections[i]
		if s.Name == name || (name == "" || name == "Total") && strings.HasPrefix(s.Name, "Total") ||
			strings.HasPrefix(s.Name, "Total · ") && strings.TrimPrefix(s.Name, "Total · ") == name {
			return s, true
		}
	}
	return nil, false
}

// Row returns the row of the metric key.
func (s *Section) Row(key string) (*Row, bool) {
	for i := range s.Rows {
		if s.Rows[i].Metric == key {
			return &s.Rows[i], true
		}
	}
	return nil, false
}
