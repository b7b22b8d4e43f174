package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/surge-load/surge/result"
)

// Markdown writes a summary of r that pastes into a pull request or a blog
// post: the run in one line, the endpoint table with the summary's numbers,
// the error rate, the streams, the thresholds, the errors, a collapse, the
// generator's saturation and warnings, and a capacity search's table and
// verdict.
func Markdown(w io.Writer, r *result.Result) {
	fmt.Fprintf(w, "**%s %s** · `%s` · %s · started %s · %.1fs",
		r.Tool.Name, r.Tool.Version, r.Run.Target, r.Run.Load, r.Run.Start.Format(startLayout), r.Run.DurationS)
	if r.Run.Incomplete {
		fmt.Fprintf(w, " · **incomplete: a checkpoint of the first %.0fs**", r.Run.CoveredS)
	} else if r.Run.Interrupted {
		fmt.Fprint(w, " · **interrupted**")
	}
	fmt.Fprint(w, "\n\n")
	if wu := r.Warmup; wu != nil && wu.DurationS > 0 {
		fmt.Fprintf(w, "Warm-up: %s.\n\n", warmupText(wu))
	}
	rows := [][]string{{"Endpoint", "Requests", "Failures", "RPS", "p50", "p90", "p95", "p99", "max"}}
	add := func(name string, s *result.Stats) {
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
	if st := newStreamsData(r); st != nil {
		markdownStreams(w, st)
	}
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
	for _, f := range findingsOf(r) {
		fmt.Fprintf(w, "\n> ⚠️ **%s**\n", f.Text)
	}
	for _, warn := range r.Generator.Warnings {
		fmt.Fprintf(w, "\n> ⚠️ %s\n", warn)
	}
	for i := range r.Timeline {
		_, text := changeText(&r.Timeline[i])
		fmt.Fprintf(w, "\n> Changed while running: %s\n", text)
	}
	for _, l := range outputLines(r) {
		fmt.Fprintf(w, "\n> Output %s\n", l)
	}
	if r.Capacity != nil {
		markdownCapacity(w, newCapacityData(r.Capacity))
	}
}

// markdownStreams writes the streams of a run: its key figures, the streams
// of each endpoint and how they ended, and their timings.
func markdownStreams(w io.Writer, st *StreamsData) {
	fmt.Fprintf(w, "\n**Streams:** %s opened · %s open at most · %s events (%s/s) · %s reconnections · %s received\n\n",
		st.Opened, st.OpenMax, st.Events, st.EventsPerSec, st.Reconnects, st.BytesIn)
	head := []string{"Endpoint", "Opened", "Events", "Events/s"}
	for _, e := range st.Ends {
		head = append(head, "ended: "+strings.ReplaceAll(e, "_", " "))
	}
	rows := [][]string{append(head, "Close codes")}
	add := func(name string, r *StreamRow) {
		rows = append(rows, append(append([]string{name, r.Opened, r.Events, r.EventsPerSec}, r.Ends...), r.CloseCodes))
	}
	for i := range st.Rows {
		add(st.Rows[i].Name, &st.Rows[i])
	}
	if st.Total != nil {
		add("**Total**", st.Total)
	}
	writeMarkdownTable(w, "lrrr"+strings.Repeat("r", len(st.Ends))+"l", rows)
	fmt.Fprintln(w)
	rows = [][]string{{"Endpoint", "Time", "p50", "p90", "p95", "p99", "max"}}
	for _, t := range st.Timings {
		name := t.Name
		if st.Total != nil && name == st.Total.Name {
			name = "**" + name + "**"
		}
		rows = append(rows, []string{name, t.Measure, t.P50, t.P90, t.P95, t.P99, t.Max})
	}
	writeMarkdownTable(w, "llrrrrr", rows)
}

// markdownCapacity writes the capacity table of a search, by level, and
// its verdict.
func markdownCapacity(w io.Writer, c *CapacityData) {
	fmt.Fprintf(w, "\n**Capacity** (%s)\n\n", c.Heading)
	rows := [][]string{{"Load", "Throughput", "Successful", "p50", "p95", "p99", "Errors", "Verdict"}}
	for _, st := range c.Steps {
		t := st.Text
		rows = append(rows, []string{t.Load, t.Throughput, t.OKRPS, t.P50, t.P95, t.P99, t.Errors, t.Verdict})
	}
	writeMarkdownTable(w, "rrrrrrrl", rows)
	fmt.Fprintf(w, "\n**%s:** %s\n", c.Verdict.Label, c.Verdict.Detail)
}
