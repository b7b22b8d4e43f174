package report

import (
	"io"
	"math"
	"sort"

	"github.com/surge-load/surge/atomicfile"
)

// CompareData is the data section of the HTML comparison, built by
// NewCompareData: the runs, the comparison's tables, the --fail-on verdicts
// and the runs' charts overlaid on one time axis.
type CompareData struct {
	Kind     string          `json:"kind"` // "compare"
	Title    string          `json:"title"`
	Runs     []CompareRun    `json:"runs"`
	Sections []Section       `json:"sections"`
	FailOn   []FailOnResult  `json:"fail_on"`
	Legend   string          `json:"legend"`
	Notes    []string        `json:"notes"`
	Charts   OverlayTimeline `json:"charts"`
}

// A CompareRun describes one compared run, or one side of several runs:
// File lists a side's files and Requests counts the requests of all its
// runs; Run describes its first run.
type CompareRun struct {
	Label    string  `json:"label"`
	File     string  `json:"file"`
	Run      RunInfo `json:"run"`
	Requests int64   `json:"requests"`
	Noise    string  `json:"noise"`
}

// An OverlayTimeline holds the charts of several runs on one time axis, in
// seconds since each run's start; a run shorter than another has nulls.
type OverlayTimeline struct {
	T         Values    `json:"t"`
	StepS     float64   `json:"step_s"`
	Intervals int       `json:"intervals"` // of the longest run
	Charts    []Overlay `json:"charts"`
}

// An Overlay is one chart: a metric with one series per run.
type Overlay struct {
	Key   string   `json:"key"`
	Title string   `json:"title"`
	Unit  string   `json:"unit"`
	Runs  []Values `json:"runs"`
}

// overlays are the charts of a comparison: a title, a unit, and the series
// of a timeline drawn.
var overlays = []struct {
	key, title, unit string
	pick             func(*Timeline) Values
}{
	{"ok_s", "Throughput: successful requests per second", "req/s", func(t *Timeline) Values { return t.OK }},
	{"p50_ms", "Latency p50", "ms", func(t *Timeline) Values { return t.P50 }},
	{"p95_ms", "Latency p95", "ms", func(t *Timeline) Values { return t.P95 }},
	{"p99_ms", "Latency p99", "ms", func(t *Timeline) Values { return t.P99 }},
	{"error_pct", "Error rate: failed and dropped of all attempts", "%", func(t *Timeline) Values { return t.ErrorPct }},
	{"users", "Virtual users", "users", func(t *Timeline) Values { return t.Users }},
}

// NewCompareData builds the data section of c's page; checks are the
// verdicts of --fail-on, if any.
func NewCompareData(c *Comparison, checks []FailOnResult) *CompareData {
	d := &CompareData{
		Kind:     "compare",
		Sections: c.Sections,
		FailOn:   checks,
		Legend:   legend,
		Notes:    c.notes(),
	}
	if d.FailOn == nil {
		d.FailOn = []FailOnResult{}
	}
	if d.Notes == nil {
		d.Notes = []string{}
	}
	for i := range c.Runs {
		r := &c.Runs[i]
		if i > 0 {
			d.Title += " vs "
		}
		d.Title += r.Label
		files, requests := r.filesAndRequests()
		d.Runs = append(d.Runs, CompareRun{
			Label:    r.Label,
			File:     files,
			Run:      runInfo(r.Result),
			Requests: requests,
			Noise:    noiseText(r),
		})
	}
	d.Charts = overlayTimeline(c)
	return d
}

// overlayTimeline puts the runs' timelines on one axis. Every run is
// downsampled with the same bucket size, so their points line up.
func overlayTimeline(c *Comparison) OverlayTimeline {
	longest := 0
	for _, r := range c.Runs {
		longest = max(longest, len(chartPoints(r.Result)))
	}
	size := bucketSize(longest, MaxChartPoints)
	tls := make([]*Timeline, len(c.Runs))
	index := map[float64]bool{}
	for i, r := range c.Runs {
		tls[i] = newTimeline(r.Result, size)
		for _, t := range tls[i].T {
			index[round3(t)] = true
		}
	}
	ot := OverlayTimeline{StepS: float64(size), Intervals: longest}
	for t := range index {
		ot.T = append(ot.T, t)
	}
	sort.Float64s(ot.T)
	if size == 1 && len(tls) > 0 && len(tls[0].T) > 0 {
		ot.StepS = tls[0].StepS
	}
	pos := map[float64]int{}
	for i, t := range ot.T {
		pos[t] = i
	}
	for _, o := range overlays {
		ch := Overlay{Key: o.key, Title: o.title, Unit: o.unit}
		for _, tl := range tls {
			v := make(Values, len(ot.T))
			for i := range v {
				v[i] = math.NaN()
			}
			src := o.pick(tl)
			for j, t := range tl.T {
				v[pos[round3(t)]] = src[j]
			}
			ch.Runs = append(ch.Runs, v)
		}
		ot.Charts = append(ot.Charts, ch)
	}
	return ot
}

// CompareHTML writes c as one self-contained HTML page: the runs, the
// comparison tables, the --fail-on verdicts in checks, and the runs' charts
// overlaid.
func CompareHTML(w io.Writer, c *Comparison, checks []FailOnResult) error {
	d := NewCompareData(c, checks)
	return writePage(w, "surge compare · "+d.Title, d, pageOptions{})
}

// WriteCompareHTML writes c's page to the file path.
func WriteCompareHTML(path string, c *Comparison, checks []FailOnResult) error {
	return atomicfile.Write(path, func(w io.Writer) error { return CompareHTML(w, c, checks) })
}
