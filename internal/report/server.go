package report

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/surge-load/surge/result"
)

// serverSummary writes one line per monitored source: its main series over
// the measured period, and its gaps.
func serverSummary(w io.Writer, r *result.Result) {
	if r.Monitor == nil || len(r.Monitor.Sources) == 0 {
		return
	}
	fmt.Fprintln(w, "\nServer")
	for i := range r.Monitor.Sources {
		fmt.Fprintf(w, "  %s\n", ServerLine(r, &r.Monitor.Sources[i]))
	}
}

// summaryRows are the series a source's summary line shows, and how.
var summaryRows = map[string][]struct{ series, label, agg string }{
	"process": {{"cpu", "cpu", "mean,max"}, {"memory", "memory", "max"}, {"fds", "fds", "max"}, {"threads", "threads", "max"}, {"tcp_established", "tcp established", "max"}},
	"cgroup":  {{"cpu", "cpu", "mean,max"}, {"memory", "memory", "max"}, {"pids", "pids", "max"}, {"throttled_ms", "throttled", "max"}},
	"host": {{"cpu", "cpu", "mean,max"}, {"memory", "memory", "max"}, {"load1", "load", "max"},
		{"listen_overflows", "listen overflows", "sum"}, {"syn_drops", "SYN drops", "sum"}, {"tcp_retransmits", "retransmits", "max"}},
}

// ServerLine describes one monitored source in a line, as in "api
// (process:nginx): cpu mean 34%, max 80% of one core · memory max 120 MiB
// (0.5% of the limit) · fds max 230 · no gaps".
func ServerLine(r *result.Result, s *result.MonitorSource) string {
	parts := []string{}
	for _, row := range summaryRows[s.Kind] {
		ser := s.Find(row.series)
		if ser == nil {
			continue
		}
		xs := s.Within(r, ser.Values)
		if len(xs) == 0 {
			continue
		}
		var vals []string
		for _, agg := range strings.Split(row.agg, ",") {
			v := reduce(xs, agg)
			if agg == "sum" {
				v *= s.IntervalS // a rate per second over the intervals: the count
				vals = append(vals, fmt.Sprintf("%.0f", v))
				continue
			}
			vals = append(vals, agg+" "+formatServer(v, ser.Unit))
		}
		text := row.label + " " + strings.Join(vals, ", ")
		switch {
		case row.series == "cpu":
			text += " of one core"
		case row.series == "memory" && s.MemoryLimitBytes > 0:
			text += fmt.Sprintf(" (%.1f%% of %s)", 100*slices.Max(xs)/float64(s.MemoryLimitBytes), Bytes(s.MemoryLimitBytes))
		}
		parts = append(parts, text)
	}
	if s.Kind == "prometheus" {
		parts = append(parts, fmt.Sprintf("%d series", len(s.Series)))
	}
	parts = append(parts, fmt.Sprintf("%d samples", len(s.T)))
	parts = append(parts, gapsText(s))
	return fmt.Sprintf("%s (%s): %s", s.Name, s.Spec, strings.Join(parts, " · "))
}

// gapsText says how much of the run a source missed, and why.
func gapsText(s *result.MonitorSource) string {
	if len(s.Gaps) == 0 {
		return "no gaps"
	}
	var total float64
	by := map[string]float64{}
	var order []string
	for _, g := range s.Gaps {
		total += g.DurationS
		if _, ok := by[g.Reason]; !ok {
			order = append(order, g.Reason)
		}
		by[g.Reason] += g.DurationS
	}
	var rs []string
	for _, reason := range order {
		rs = append(rs, fmt.Sprintf("%s for %.0f s", reason, by[reason]))
	}
	return fmt.Sprintf("GAPS %.0f s: %s", total, strings.Join(rs, "; "))
}

// reduce is mean, max, min or sum of xs.
func reduce(xs []float64, agg string) float64 {
	switch agg {
	case "max":
		return slices.Max(xs)
	case "min":
		return slices.Min(xs)
	}
	var s float64
	for _, x := range xs {
		s += x
	}
	if agg == "mean" {
		return s / float64(len(xs))
	}
	return s
}

// formatServer formats a monitored value in its unit.
func formatServer(v float64, unit string) string {
	switch unit {
	case "%":
		return fmt.Sprintf("%.0f%%", v)
	case "bytes":
		return Bytes(int64(v))
	case "bytes/s":
		return Bytes(int64(v)) + "/s"
	case "/s":
		return fmt.Sprintf("%.1f/s", v)
	case "ms/s":
		return fmt.Sprintf("%.0f ms/s", v)
	}
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.3g", v)
}

// pickedSeries are the monitored series the report draws first: those
// named by thresholds, as SOURCE.SERIES.
func pickedSeries(r *result.Result) []string {
	var out []string
	for _, t := range r.Thresholds {
		if t.Source != "" {
			series, _, _ := strings.Cut(t.Metric, "}")
			if strings.Contains(t.Metric, "{") {
				series += "}"
			} else if i := strings.LastIndexByte(t.Metric, '.'); i > 0 {
				series = t.Metric[:i]
			}
			out = append(out, t.Source+"."+series)
		}
	}
	return out
}
