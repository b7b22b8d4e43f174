package report

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"github.com/surge-load/surge/result"
)

// A Labeled result is one run to compare, with the name tables give it.
type Labeled struct {
	Label  string
	File   string // where it was read from, for people; may be empty
	Result *result.Result
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

// A ComparedRun is one run of a comparison.
type ComparedRun struct {
	Label  string         `json:"label"`
	File   string         `json:"file"`
	Result *result.Result `json:"-"`
	Noise  Noise          `json:"noise"`
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
	Verdict   string `json:"verdict"`
	// Text is the change as tables print it: "+12.3%" or "+0.50pp".
	Text string `json:"text"`
}

// Compare compares runs, in order; each run's changes are against the run
// before it.
func Compare(runs []Labeled) (*Comparison, error) {
	if len(runs) < 2 {
		return nil, errors.New("compare needs at least two results")
	}
	c := &Comparison{}
	for _, r := range runs {
		if r.Result == nil {
			return nil, fmt.Errorf("compare %s: no result", r.Label)
		}
		c.Runs = append(c.Runs, ComparedRun{Label: r.Label, File: r.File, Result: r.Result, Noise: NoiseOf(r.Result)})
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

// section compares the stats that pick returns from each run (nil where a
// run lacks them).
func (c *Comparison) section(name string, pick func(*result.Result) *result.Stats) Section {
	s := Section{Name: name}
	for _, m := range Metrics {
		row := Row{Metric: m.Key}
		stderr := make([]float64, len(c.Runs))
		for i := range c.Runs {
			run := &c.Runs[i]
			st := pick(run.Result)
			if st == nil {
				row.Values = append(row.Values, math.NaN())
				row.Text = append(row.Text, "—")
				continue
			}
			v := m.value(st)
			row.Values = append(row.Values, v)
			row.Text = append(row.Text, m.format(v))
			stderr[i] = run.Noise.StdErr(m, st, &run.Result.Totals)
		}
		for i := 1; i < len(c.Runs); i++ {
			row.Changes = append(row.Changes, change(m, row.Values[i-1], row.Values[i], stderr[i-1], stderr[i]))
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

// runRow compares a figure of the whole runs.
func (c *Comparison) runRow(m RunMetric) Row {
	row := Row{Metric: m.Key}
	stderr := make([]float64, len(c.Runs))
	for i := range c.Runs {
		v := m.value(c.Runs[i].Result)
		row.Values = append(row.Values, v)
		if math.IsNaN(v) {
			row.Text = append(row.Text, "—")
		} else {
			row.Text = append(row.Text, m.format(v))
		}
		stderr[i] = m.stderr(c.Runs[i].Result)
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
			row.Changes = append(row.Changes, change(judge, old, new, stderr[i-1], stderr[i]))
		}
	}
	return row
}

// change judges the change of m from old to new, whose standard errors are
// seOld and seNew: a change within Significance standard errors of the
// difference is not significant.
func change(m Metric, old, new, seOld, seNew float64) Change {
	if math.IsNaN(old) || math.IsNaN(new) {
		return Change{Delta: Number(math.NaN()), Pct: Number(math.NaN()), Noise: Number(math.NaN()), Verdict: NoVerdict, Text: "—"}
	}
	delta := new - old
	pct := math.NaN()
	if old != 0 {
		pct = 100 * delta / math.Abs(old)
	}
	noise := Significance * math.Hypot(seOld, seNew)
	ch := Change{Delta: Number(delta), Pct: Number(pct), Noise: Number(noise), NoiseText: m.format(noise)}
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
	case math.Abs(delta) <= noise:
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
