package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/surge-load/surge/result"
)

// CompareTable writes c as terminal tables: the runs, then for the whole
// run and each endpoint every metric in every run with its change from the
// run before, each change marked better, worse, or ~ (within the runs'
// noise: not significant).
func CompareTable(w io.Writer, c *Comparison) {
	fmt.Fprintf(w, "\nsurge compare · %s\n\n", c.headline())
	var runs [][]string
	for _, r := range c.Runs {
		runs = append(runs, runCells(&r))
	}
	writeColumns(w, "  ", runs)
	for _, s := range c.Sections {
		fmt.Fprintln(w)
		writeColumns(w, "", sectionCells(c, &s, plainVerdict))
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, legend)
	for _, n := range c.notes() {
		fmt.Fprintln(w, n)
	}
}

// CompareMarkdown writes c as Markdown tables that paste into a pull
// request.
func CompareMarkdown(w io.Writer, c *Comparison) {
	fmt.Fprintf(w, "**surge compare** · %s\n\n", c.headline())
	rows := [][]string{{"run", "file", "started", "duration", "requests", "load", "noise (1 s.e.)"}}
	for _, r := range c.Runs {
		rows = append(rows, runCells(&r))
	}
	writeMarkdownTable(w, "lllrrll", rows)
	align := "l" + strings.Repeat("rrr", len(c.Runs))
	for _, s := range c.Sections {
		fmt.Fprintln(w)
		writeMarkdownTable(w, align, sectionCells(c, &s, markdownVerdict))
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, legend)
	for _, n := range c.notes() {
		fmt.Fprintln(w)
		fmt.Fprintln(w, n)
	}
}

// headline counts the runs, or the sides and their runs, and says what
// each change is against.
func (c *Comparison) headline() string {
	runs, sides := 0, false
	for i := range c.Runs {
		runs += len(c.Runs[i].Repeats) + 1
		sides = sides || len(c.Runs[i].Repeats) > 0
	}
	if sides {
		return fmt.Sprintf("%d sides of %d runs · each change is against the side before it", len(c.Runs), runs)
	}
	return fmt.Sprintf("%d runs · each change is against the run before it", runs)
}

// legend explains the marks of changes.
const legend = "better / worse: a change beyond the noise of both runs (3 standard errors, from their seconds and a spread between runs of at least 1%, or the measured spread between the runs of a side); " +
	"~ not significant: a change within it, or one the generator's own scheduling lag explains. Error rates change in percentage points (pp)."

// runCells describes one run in a row: label, file, start, duration,
// requests, load and noise.
func runCells(r *ComparedRun) []string {
	res := r.Result
	if len(r.Repeats) == 0 {
		return []string{
			r.Label,
			r.File,
			res.Run.Start.Format(startLayout),
			fmt.Sprintf("%.1fs", res.Run.DurationS),
			fmt.Sprintf("%d requests", res.Totals.Requests),
			res.Run.Load,
			noiseText(r),
		}
	}
	files, requests := r.filesAndRequests()
	return []string{
		r.Label,
		files,
		res.Run.Start.Format(startLayout) + " (first)",
		fmt.Sprintf("%.1fs (first)", res.Run.DurationS),
		fmt.Sprintf("%d requests in %d runs", requests, len(r.Repeats)+1),
		res.Run.Load,
		noiseText(r),
	}
}

// noiseText summarises a run's noise, or a side's, for people.
func noiseText(r *ComparedRun) string {
	if len(r.Repeats) > 0 {
		return fmt.Sprintf("%d runs: each metric their random-effects mean, with the noise of the spread between them", len(r.Repeats)+1)
	}
	n := &r.Noise
	if !n.Known() {
		return fmt.Sprintf("noise unknown (%d steady seconds)", n.Intervals)
	}
	return fmt.Sprintf("noise ±%.1f%% rps, ±%.1f%% p95, ±%.2fpp errors", 100*float64(n.Rel["rps"]), 100*float64(n.Rel["p95"]), float64(n.Rel["errors"]))
}

// sectionCells lays out a section: a header row naming the runs, then one
// row per metric with each run's value and, after the first, its change.
func sectionCells(c *Comparison, s *Section, mark func(*Change) string) [][]string {
	head := []string{s.Name, c.Runs[0].Label}
	for _, r := range c.Runs[1:] {
		head = append(head, r.Label, "change")
	}
	rows := [][]string{head}
	for _, row := range s.Rows {
		cells := []string{row.Metric, row.Text[0]}
		for i := 1; i < len(row.Text); i++ {
			cells = append(cells, row.Text[i], mark(&row.Changes[i-1]))
		}
		rows = append(rows, cells)
	}
	return rows
}

func plainVerdict(ch *Change) string {
	switch ch.Verdict {
	case Better, Worse, NotSignificant:
		return ch.Text + " " + ch.Verdict
	}
	return ch.Text
}

func markdownVerdict(ch *Change) string {
	switch ch.Verdict {
	case Worse:
		return ch.Text + " **worse**"
	case Better, NotSignificant:
		return ch.Text + " " + ch.Verdict
	}
	return ch.Text
}

// notes are what the reader of a comparison must know beyond the table:
// runs whose noise is unknown, and runs in which the generator or its
// machine delayed sends.
func (c *Comparison) notes() []string {
	var out []string
	for i := range c.Runs {
		side := &c.Runs[i]
		for _, r := range side.members() {
			if sat := r.Result.Generator.Saturation; sat != nil && sat.SaturatedS > 0 {
				whose := "the generator was saturated"
				if sat.Cause == result.CauseMachineBusy {
					whose = "its machine was busy"
				}
				out = append(out, fmt.Sprintf("Note: in %s %s for %.0f s of %.0f s (%s): the latency of those seconds describes the generator's machine as much as the server (run again on a quieter machine to tell).",
					r.Label, whose, sat.SaturatedS, r.Result.Run.DurationS, strings.Join(sat.Causes, ", ")))
			}
			switch {
			case r.Noise.Known():
			case len(side.Repeats) > 0:
				out = append(out, fmt.Sprintf("Note: %s (of %s) has %d steady seconds, fewer than %d: its own noise is unknown, and the side's comes from the others and the spread between its runs.",
					r.File, side.Label, r.Noise.Intervals, MinNoiseIntervals))
			default:
				out = append(out, fmt.Sprintf("Note: %s has %d steady seconds, fewer than %d: its noise is unknown, so its changes are marked ~ (run longer to tell).",
					r.Label, r.Noise.Intervals, MinNoiseIntervals))
			}
		}
	}
	return out
}
