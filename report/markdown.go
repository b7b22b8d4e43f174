package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/surge-load/surge/metrics"
)

// Markdown writes a summary of r that pastes into a pull request or a blog
// post: the run in one line, the endpoint table with the summary's numbers,
// the error rate, the thresholds, the errors and any generator warnings.
func Markdown(w io.Writer, r *metrics.Result) {
	fmt.Fprintf(w, "**%s %s** · `%s` · %s · started %s · %.1fs",
		r.Tool.Name, r.Tool.Version, r.Run.Target, r.Run.Load, r.Run.Start.Format(startLayout), r.Run.DurationS)
	if r.Run.Interrupted {
		fmt.Fprint(w, " · **interrupted**")
	}
	fmt.Fprint(w, "\n\n")
	rows := [][]string{{"Endpoint", "Requests", "Failures", "RPS", "p50", "p90", "p95", "p99", "max"}}
	add := func(name string, s *metrics.Stats) {
		c := cellsOf(s)
		rows = append(rows, []string{name, c.Requests, c.Failures, c.RPS, c.P50, c.P90, c.P95, c.P99, c.Max})
	}
	for i := range r.Endpoints {
		add(r.Endpoints[i].Name, &r.Endpoints[i].Stats)
	}
	if len(r.Endpoints) != 1 {
		add("**Total**", &r.Totals)
	}
	writeMarkdownTable(w, "lrrrrrrrr", rows)
	fmt.Fprintf(w, "\nError rate %s", percent(r.Totals.ErrorRate))
	if r.Totals.Dropped > 0 {
		fmt.Fprintf(w, " (%d arrivals dropped)", r.Totals.Dropped)
	}
	fmt.Fprintf(w, " · %s in, %s out · latency counts from the intended start\n", Bytes(r.Totals.BytesIn), Bytes(r.Totals.BytesOut))
	if len(r.Thresholds) > 0 {
		fmt.Fprint(w, "\n**Thresholds:** ")
		parts := make([]string, len(r.Thresholds))
		for i := range r.Thresholds {
			t := &r.Thresholds[i]
			mark := "✅"
			if !t.OK {
				mark = "❌"
			}
			parts[i] = fmt.Sprintf("%s `%s` (%s)", mark, t.Expr, thresholdActual(t))
		}
		fmt.Fprintln(w, strings.Join(parts, " · "))
	}
	if len(r.Errors) > 0 {
		fmt.Fprintln(w)
		rows := [][]string{{"Error", "Count", "What it means"}}
		for _, e := range r.Errors {
			label := "`" + e.Class + "`"
			if len(e.Statuses) > 0 {
				label += " (" + counted(e.Statuses) + ")"
			}
			rows = append(rows, []string{label, fmt.Sprint(e.Count), e.Hint})
		}
		writeMarkdownTable(w, "lrl", rows)
	}
	for _, warn := range r.Generator.Warnings {
		fmt.Fprintf(w, "\n> ⚠️ %s\n", warn)
	}
}
