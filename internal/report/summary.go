// Package report presents results to people: the end-of-test summary and the
// live progress line in the terminal, the self-contained HTML report, CSV
// and Markdown exports, and the comparison of runs.
package report

import (
	"fmt"
	"github.com/surge-load/surge/sanitize"
	"io"
	"math"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/surge-load/surge/result"
)

// Summary writes the end-of-test summary of r: the run, an endpoint table,
// the timing breakdown, the errors with hints, the thresholds and the
// generator's health. It reads nothing but r, so a result file reprints
// the same summary.
func Summary(w io.Writer, r *result.Result) {
	fmt.Fprintf(w, "\n%s %s · %s\n", r.Tool.Name, r.Tool.Version, r.Run.Target)
	fmt.Fprintf(w, "%s · started %s · %.1fs", r.Run.Load, r.Run.Start.Format("2006-01-02 15:04:05 MST"), r.Run.DurationS)
	if r.Run.Incomplete {
		fmt.Fprintf(w, " · INCOMPLETE\n%s", incompleteNote(r))
	} else if r.Run.Interrupted {
		fmt.Fprintf(w, " · INTERRUPTED")
		if r.Run.StopReason != "" {
			fmt.Fprintf(w, " (%s)", r.Run.StopReason)
		}
	}
	fmt.Fprint(w, SegmentLabel(&r.Run))
	fmt.Fprintln(w)
	for _, m := range r.Run.Missing {
		fmt.Fprintf(w, "INCOMPLETE: segment %d of %d is missing (%s); the figures cover only the other segments\n", m.Index, r.Run.Segment.Count, m.Reason)
	}
	fmt.Fprintln(w)
	if wu := r.Warmup; wu != nil && wu.DurationS > 0 {
		fmt.Fprintf(w, "Warm-up: %s.\n\n", warmupText(wu))
	}
	endpoints(w, r)
	timing(w, r)
	streams(w, r)
	errorsTable(w, r)
	thresholds(w, r)
	serverSummary(w, r)
	findings(w, r)
	events(w, r)
	generator(w, r)
	changes(w, r)
	outputs(w, r)
}

func endpoints(w io.Writer, r *result.Result) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "Endpoint\tRequests\tFailures\tRPS\tp50\tp90\tp95\tp99\tmax\t")
	row := func(name string, s *result.Stats) {
		c := cellsOf(s)
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", name, c.Requests,
			c.Failures, c.RPS, c.P50, c.P90, c.P95, c.P99, c.Max)
	}
	for i := range r.Endpoints {
		row(r.Endpoints[i].Name, &r.Endpoints[i].Stats)
	}
	if len(r.Endpoints) != 1 {
		row("Total", &r.Totals)
	}
	tw.Flush()
	if r.Totals.Dropped > 0 {
		fmt.Fprintf(w, "Dropped arrivals: %d (never sent: no free virtual user)\n", r.Totals.Dropped)
	}
	fmt.Fprintf(w, "Error rate %s · %s in, %s out · service time p50 %s, p99 %s (latency counts from the intended start)\n",
		percent(r.Totals.ErrorRate), Bytes(r.Totals.BytesIn), Bytes(r.Totals.BytesOut), Ms(r.Totals.ServiceTime.P50), Ms(r.Totals.ServiceTime.P99))
	if r.Totals.Failures > 0 {
		fmt.Fprintln(w, SuccessLine(r))
	}
}

// SuccessLine says what the successes alone did: their throughput and
// latency, the busiest second and, if it happened, when successful
// throughput fell to zero for good. After a collapse, instant failures
// inflate the throughput of all operations and pull their latency down;
// these figures do not.
func SuccessLine(r *result.Result) string {
	t := ThroughputOf(r)
	var s string
	if r.Totals.Requests == r.Totals.Failures {
		// Nothing succeeded: there is no latency and no peak to give, and
		// "peak 0 rps at 0s" would read as one.
		s = "Successes: none"
	} else {
		ok := r.Totals.OKLatency
		s = fmt.Sprintf("Successes: %.1f rps, p50 %s, p95 %s, p99 %s", r.Totals.OKRPS, Ms(ok.P50), Ms(ok.P95), Ms(ok.P99))
		if t.PeakOKRPS > 0 {
			s += fmt.Sprintf(" · peak %.0f rps at %s", t.PeakOKRPS, seconds(t.PeakAtS))
		}
	}
	if c := r.Collapse; c != nil {
		s += fmt.Sprintf(" · collapsed at %s", seconds(c.AtS))
	}
	if !math.IsNaN(t.ZeroAtS) {
		s += fmt.Sprintf(" · zero from %s (%s after the peak)", seconds(t.ZeroAtS), seconds(t.ZeroAtS-t.PeakAtS))
	}
	return s
}

func failures(f, n int64) string {
	if n == 0 {
		return fmt.Sprint(f)
	}
	return fmt.Sprintf("%d (%.1f%%)", f, 100*float64(f)/float64(n))
}

func timing(w io.Writer, r *result.Result) {
	t := r.Totals.Timing
	fmt.Fprintf(w, "Timing, mean: blocked %s · dns %s · connect %s · tls %s · send %s · wait %s · receive %s\n",
		Ms(t.Blocked.Mean), Ms(t.DNS.Mean), Ms(t.Connect.Mean), Ms(t.TLS.Mean), Ms(t.Send.Mean), Ms(t.Wait.Mean), Ms(t.Receive.Mean))
}

func errorsTable(w io.Writer, r *result.Result) {
	if len(r.Errors) == 0 {
		return
	}
	fmt.Fprintln(w, "\nErrors")
	for _, e := range r.Errors {
		label := e.Class
		if len(e.Statuses) > 0 {
			codes := make([]string, 0, len(e.Statuses))
			for code, n := range e.Statuses {
				codes = append(codes, fmt.Sprintf("%s×%d", code, n))
			}
			sort.Strings(codes)
			label += " (" + strings.Join(codes, ", ") + ")"
		}
		fmt.Fprintf(w, "  %-28s %8d  %s\n", label, e.Count, e.Hint)
		for i, m := range e.Samples {
			if i == summaryMessages {
				fmt.Fprintf(w, "  %-28s %8s  … %d more causes in the result\n", "", "", len(e.Samples)-i)
				break
			}
			// Whole, on one line: the result's messages are escaped
			// (result.Sanitize), newlines included.
			fmt.Fprintf(w, "  %-28s %8d  %s%s\n", "", m.Count, sanitize.Text(m.Message), messageWhere(&m))
			if m.Example != "" && m.Example != m.Message {
				fmt.Fprintf(w, "  %-28s %8s    e.g. %s\n", "", "", sanitize.Text(m.Example))
			}
		}
	}
}

func thresholds(w io.Writer, r *result.Result) {
	if len(r.Thresholds) == 0 {
		return
	}
	fmt.Fprintln(w, "\nThresholds")
	for _, t := range r.Thresholds {
		mark := "PASS"
		if !t.OK {
			mark = "FAIL"
		}
		fmt.Fprintf(w, "  %s  %-30s actual %s", mark, t.Expr, thresholdActual(&t))
		if t.Note != "" {
			fmt.Fprintf(w, " (%s)", t.Note)
		}
		fmt.Fprintln(w)
	}
}

// thresholdActual formats the measured value of a threshold in its unit.
func thresholdActual(t *result.ThresholdResult) string {
	switch t.Unit {
	case "ms":
		return Ms(t.Actual)
	case "%":
		return fmt.Sprintf("%.2f%%", t.Actual)
	case "/s":
		return fmt.Sprintf("%.1f/s", t.Actual)
	case "":
	default:
		return fmt.Sprintf("%.4g %s", t.Actual, t.Unit)
	}
	return fmt.Sprintf("%g", t.Actual)
}

func generator(w io.Writer, r *result.Result) {
	fmt.Fprintf(w, "\nGenerator: %s\n", generatorLine(r))
	for _, warn := range r.Generator.Warnings {
		fmt.Fprintf(w, "  WARNING: %s\n", warn)
	}
}

// generatorLine describes the generator's health in one line.
func generatorLine(r *result.Result) string {
	g := r.Generator
	return fmt.Sprintf("CPU %.0f%% mean, %.0f%% max of %d cores · scheduling lag p99 %s, max %s · GC pauses %s · dropped %d",
		g.CPUPercentMean, g.CPUPercentMax, g.Cores, Ms(g.Lag.P99), Ms(g.Lag.Max), Ms(g.GCPauseTotalMs), r.Totals.Dropped)
}

// Bytes formats a byte count with a binary unit.
func Bytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// SegmentLabel says, after a " · ", where a result sits in a split run:
// "segment 1 of 4" for one segment's own part, "merged from 4 segments"
// (or "4 of 5 segments") for a merge, "merged from 3 parts" for a merge of
// unsplit runs; nothing for a plain run.
func SegmentLabel(run *result.Run) string {
	seg := run.Segment
	switch m := run.Merged; {
	case m != nil && len(m.Segments) == seg.Count && seg.Count > 1:
		return fmt.Sprintf(" · merged from %d segments", seg.Count)
	case m != nil && len(m.Segments) > 0:
		return fmt.Sprintf(" · merged from %d of %d segments", len(m.Segments), seg.Count)
	case m != nil:
		return fmt.Sprintf(" · merged from %d parts", m.Parts)
	case seg.Count > 1:
		return fmt.Sprintf(" · segment %d of %d", seg.Index, seg.Count)
	}
	return ""
}

// summaryMessages is how many message templates of each error class the
// terminal summary prints.
const summaryMessages = 5

// messageWhere names the endpoints a message template came from, most
// frequent first, when there are any.
func messageWhere(m *result.Message) string {
	if len(m.Endpoints) == 0 {
		return ""
	}
	names := make([]string, 0, len(m.Endpoints))
	for ep := range m.Endpoints {
		names = append(names, ep)
	}
	sort.Slice(names, func(i, j int) bool {
		a, b := m.Endpoints[names[i]], m.Endpoints[names[j]]
		return a > b || a == b && names[i] < names[j]
	})
	parts := make([]string, len(names))
	for i, ep := range names {
		parts[i] = fmt.Sprintf("%s ×%d", sanitize.Text(ep), m.Endpoints[ep])
	}
	return " (" + strings.Join(parts, ", ") + ")"
}
