package analysis

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/surge-load/surge/result"
)

// monitorThresholdRE matches a threshold on a monitored series:
// NAME.SERIES[.AGG] OP VALUE[UNIT], SERIES a built-in name or
// m:METRIC{label="v",…}.
var monitorThresholdRE = regexp.MustCompile(`^\s*([A-Za-z_][A-Za-z0-9_-]*)\.(m:[A-Za-z_:][A-Za-z0-9_:]*(?:\{[^}]*\})?|[a-z][a-z0-9_]*)(?:\.(mean|max|min|last|p\d+(?:\.\d+)?))?\s*(<=|>=|<|>)\s*([0-9][0-9.]*)\s*([A-Za-z%/]*)\s*$`)

// byteUnits are the sizes a limit on bytes may be given in.
var byteUnits = map[string]float64{"B": 1, "KB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12,
	"KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30, "TiB": 1 << 40}

// timeUnits are the durations a limit on a scraped *_seconds metric may
// be given in, in seconds.
var timeUnits = map[string]float64{"us": 1e-6, "µs": 1e-6, "ms": 1e-3, "s": 1, "m": 60}

// parseMonitorThreshold parses a threshold on a monitored series, or
// returns ok false if expr is not one.
func parseMonitorThreshold(expr string) (t Threshold, ok bool, err error) {
	m := monitorThresholdRE.FindStringSubmatch(expr)
	if m == nil {
		return Threshold{}, false, nil
	}
	t = Threshold{Expr: strings.TrimSpace(expr), Source: m[1], Series: m[2], Agg: m[3], Op: m[4], unit: m[6]}
	if t.Agg == "" {
		t.Agg = "max"
	}
	t.Metric = t.Series + "." + t.Agg
	fail := func(format string, args ...any) (Threshold, bool, error) {
		return Threshold{}, true, fmt.Errorf("threshold %q: %s", expr, fmt.Sprintf(format, args...))
	}
	if t.Agg[0] == 'p' {
		if p, _ := strconv.ParseFloat(t.Agg[1:], 64); p <= 0 || p > 100 {
			return fail("percentile %s is not between 0 and 100", t.Agg[1:])
		}
	}
	v, perr := strconv.ParseFloat(m[5], 64)
	if perr != nil {
		return fail("%q is not a number", m[5])
	}
	t.Limit = v
	u := t.unit
	isBytes := func() bool { _, ok := byteUnits[strings.TrimSuffix(u, "/s")]; return ok }
	switch name := t.Series; {
	case name == "cpu" || name == "cpu_limit":
		if u != "%" {
			return fail("give %s as a percentage: %s.%s<30%% (%s)", name, t.Source, name,
				map[bool]string{true: "percent of one core", false: "percent of the CPU limit: the cgroup's, else all cores"}[name == "cpu"])
		}
	case name == "memory":
		if u != "%" && !(isBytes() && !strings.HasSuffix(u, "/s")) {
			return fail("give memory as a percentage of the limit (%s.memory<50%%) or bytes (%s.memory<512MiB)", t.Source, t.Source)
		}
	case strings.HasPrefix(name, "m:"):
		_, isTime := timeUnits[u]
		if u != "" && u != "/s" && !isBytes() && !(isTime && strings.Contains(name, "_seconds")) {
			return fail("a scraped metric is compared in its own unit: give no unit, /s for a counter's rate, bytes (MiB) for a *_bytes metric or a duration for a *_seconds one")
		}
	default:
		if u != "" && u != "/s" && !isBytes() {
			return fail("%s is compared as a number (a count, or per second); give no unit, /s or bytes (MiB/s)", name)
		}
	}
	return t, true, nil
}

// evalMonitor judges a threshold on a monitored series.
func (t Threshold) evalMonitor(r *result.Result) result.ThresholdResult {
	out := result.ThresholdResult{Expr: t.Expr, Source: t.Source, Metric: t.Metric, Limit: t.Limit, Unit: t.unit}
	src := r.Monitor.Source(t.Source)
	if src == nil {
		out.Note = fmt.Sprintf("no data: the result has no monitor %q (in a split run only segment 0 monitors)", t.Source)
		return out
	}
	vals, unit, err := selectSeries(src, t.Series)
	if err != nil {
		out.Note = "no data: " + err.Error()
		if g := gapReasons(src); g != "" {
			out.Note += " (" + g + ")"
		}
		return out
	}
	xs := src.Within(r, vals)
	if len(xs) == 0 {
		out.Note = fmt.Sprintf("no data: monitor %s recorded no %s in the measured period", t.Source, t.Series)
		if g := gapReasons(src); g != "" {
			out.Note += " (" + g + ")"
		}
		return out
	}
	actual := aggregate(xs, t.Agg)
	// cmp and limit are compared; out shows the threshold's own unit.
	cmp, limit := actual, t.Limit
	out.Actual = actual
	switch {
	case t.unit == "%" && unit == "bytes":
		if src.MemoryLimitBytes <= 0 {
			out.Note = fmt.Sprintf("no data: monitor %s has no known memory limit to take a percentage of; give bytes (MiB)", t.Source)
			return out
		}
		cmp = 100 * actual / float64(src.MemoryLimitBytes)
		out.Actual = cmp
	case t.Series == "cpu_limit":
		if src.CPULimitCores <= 0 {
			out.Note = fmt.Sprintf("no data: monitor %s has no known CPU limit", t.Source)
			return out
		}
		cmp = actual / src.CPULimitCores
		out.Actual = cmp
	case t.unit != "" && t.unit != "%" && t.unit != "/s":
		u := strings.TrimSuffix(t.unit, "/s")
		f, ok := byteUnits[u]
		if !ok {
			f = timeUnits[u]
		}
		// Compared in the series' unit, where the limit is exact.
		limit = t.Limit * f
		out.Actual = actual / f
	}
	switch t.Op {
	case "<":
		out.OK = cmp < limit
	case "<=":
		out.OK = cmp <= limit
	case ">":
		out.OK = cmp > limit
	case ">=":
		out.OK = cmp >= limit
	}
	return out
}

// selectSeries returns the values of series on src, and their unit:
// cpu_limit is cpu; m:METRIC{labels} sums every scraped series of METRIC
// that has those labels.
func selectSeries(src *result.MonitorSource, series string) (result.MonitorValues, string, error) {
	if series == "cpu_limit" {
		series = "cpu"
	}
	if !strings.HasPrefix(series, "m:") {
		s := src.Find(series)
		if s == nil {
			return nil, "", fmt.Errorf("monitor %s has no series %s", src.Name, series)
		}
		return s.Values, s.Unit, nil
	}
	name, want := splitSelector(series)
	var matched []*result.MonitorSeries
	for i := range src.Series {
		s := &src.Series[i]
		n, labels := splitSelector(s.Name)
		if n != name {
			continue
		}
		if containsAll(labels, want) {
			matched = append(matched, s)
		}
	}
	if len(matched) == 0 {
		return nil, "", fmt.Errorf("monitor %s scraped no series %s", src.Name, series)
	}
	if len(matched) == 1 {
		return matched[0].Values, matched[0].Unit, nil
	}
	for _, s := range matched {
		if _, l := splitSelector(s.Name); slices.ContainsFunc(l, func(x string) bool { return strings.HasPrefix(x, "quantile=") }) {
			return nil, "", fmt.Errorf("%s matches %d quantile series; name the quantile, as in {quantile=\"0.95\"}", series, len(matched))
		}
	}
	sum := make(result.MonitorValues, len(matched[0].Values))
	for i := range sum {
		sum[i] = math.NaN()
		for _, s := range matched {
			if v := s.Values[i]; !math.IsNaN(v) {
				if math.IsNaN(sum[i]) {
					sum[i] = 0
				}
				sum[i] += v
			}
		}
	}
	return sum, matched[0].Unit, nil
}

// splitSelector splits m:NAME{a="x",b="y"} into NAME and its label pairs
// (as written, a="x").
func splitSelector(s string) (string, []string) {
	s = strings.TrimPrefix(s, "m:")
	name, rest, ok := strings.Cut(s, "{")
	if !ok {
		return name, nil
	}
	rest = strings.TrimSuffix(rest, "}")
	var out []string
	for len(rest) > 0 {
		// a label value may hold commas: cut at `",`.
		i := strings.Index(rest, `",`)
		if i < 0 {
			out = append(out, strings.TrimSpace(rest))
			break
		}
		out = append(out, strings.TrimSpace(rest[:i+1]))
		rest = rest[i+2:]
	}
	return name, out
}

func containsAll(have, want []string) bool {
	for _, w := range want {
		if !slices.Contains(have, w) {
			return false
		}
	}
	return true
}

// aggregate reduces xs (not empty) by agg: mean, max, min, last or pNN
// (nearest rank).
func aggregate(xs []float64, agg string) float64 {
	switch agg {
	case "last":
		return xs[len(xs)-1]
	case "mean":
		var s float64
		for _, x := range xs {
			s += x
		}
		return s / float64(len(xs))
	case "min":
		return slices.Min(xs)
	case "max":
		return slices.Max(xs)
	}
	p, _ := strconv.ParseFloat(agg[1:], 64)
	s := slices.Clone(xs)
	slices.Sort(s)
	rank := int(math.Ceil(p / 100 * float64(len(s))))
	return s[max(rank, 1)-1]
}

// gapReasons lists the distinct reasons of src's gaps.
func gapReasons(src *result.MonitorSource) string {
	var rs []string
	for _, g := range src.Gaps {
		if !slices.Contains(rs, g.Reason) {
			rs = append(rs, g.Reason)
		}
	}
	return strings.Join(rs, "; ")
}
