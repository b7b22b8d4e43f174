package report

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/surge-load/surge/result"
)

// CapacityStepLine describes one step of a capacity search in one line,
// for progress while the search runs.
func CapacityStepLine(model string, st *result.CapacityStep) string {
	c := capacityCellsOf(model, st)
	return fmt.Sprintf("%-6s %10s  %8.1f rps  p50 %-7s p95 %-7s errors %7s  %s",
		st.Phase, c.Load, st.RPS, c.P50, c.P95, c.Errors, c.Verdict)
}

// capacityCells are the cells of one step of a capacity table as every
// view prints them: the terminal, the Markdown summary and the HTML report.
type capacityCells struct {
	Load       string `json:"load"`
	Throughput string `json:"throughput"` // completed operations per second
	OKRPS      string `json:"ok_rps"`     // successful operations per second
	P50        string `json:"p50"`
	P95        string `json:"p95"`
	P99        string `json:"p99"`
	Errors     string `json:"errors"`
	CPU        string `json:"cpu"` // the generator's busiest judged second
	Verdict    string `json:"verdict"`
}

// capacityCellsOf formats st, a step of a search in model.
func capacityCellsOf(model string, st *result.CapacityStep) capacityCells {
	return capacityCells{
		Load:       Level(model, st.Level),
		Throughput: fmt.Sprintf("%.1f rps", st.RPS),
		OKRPS:      fmt.Sprintf("%.1f rps", st.OKRPS),
		P50:        Ms(st.Latency.P50),
		P95:        Ms(st.Latency.P95),
		P99:        Ms(st.Latency.P99),
		Errors:     fmt.Sprintf("%.2f%%", 100*st.ErrorRate),
		CPU:        fmt.Sprintf("%.0f%%", st.GeneratorCPUPercent),
		Verdict:    stepVerdict(st),
	}
}

// stepVerdict is "ok", or why the step failed.
func stepVerdict(st *result.CapacityStep) string {
	if st.OK {
		return "ok"
	}
	return st.Detail
}

// stepsByLevel returns the steps of c from the lowest level to the highest;
// steps at one level stay in the order run.
func stepsByLevel(c *result.Capacity) []result.CapacityStep {
	steps := slices.Clone(c.Steps)
	slices.SortStableFunc(steps, func(a, b result.CapacityStep) int {
		switch {
		case a.Level < b.Level:
			return -1
		case a.Level > b.Level:
			return 1
		}
		return 0
	})
	return steps
}

// capacityHeading describes how c searched: the model, the objectives and
// the steps.
func capacityHeading(c *result.Capacity) string {
	model := "closed model, users"
	if c.Model == "rate" {
		model = "open model, arrivals per second"
	}
	return fmt.Sprintf("%s; objectives %s; steps of %gs, the first %gs of each not judged",
		model, strings.Join(c.Objectives, ", "), c.StepS, c.WarmupS)
}

// capacityVerdictLabel introduces the verdict of a search: "Verdict", or
// says that it is inconclusive or found no breaking point.
func capacityVerdictLabel(v *result.CapacityVerdict) string {
	switch v.Reason {
	case result.ReasonGenerator, result.ReasonInterrupted:
		return "Verdict (inconclusive)"
	case result.ReasonMaxReached, result.ReasonBudget:
		return "Verdict (no breaking point found)"
	}
	return "Verdict"
}

// CapacityTable writes the capacity table of a search, load against
// throughput, latency and errors, by level, followed by the verdict.
func CapacityTable(w io.Writer, c *result.Capacity) {
	fmt.Fprintf(w, "\nCapacity (%s)\n", capacityHeading(c))
	steps := stepsByLevel(c)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  Load\tThroughput\tp50\tp95\tErrors\tVerdict")
	for i := range steps {
		cc := capacityCellsOf(c.Model, &steps[i])
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\t%s\n", cc.Load, cc.Throughput, cc.P50, cc.P95, cc.Errors, cc.Verdict)
	}
	tw.Flush()
	fmt.Fprintf(w, "%s: %s\n", capacityVerdictLabel(&c.Verdict), c.Verdict.Detail)
}
