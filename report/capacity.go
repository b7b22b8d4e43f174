package report

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/surge-load/surge/metrics"
)

// Level formats a load level of a capacity search for people: "40 users"
// in the "users" model, "375/s" in the "rate" model.
func Level(model string, level float64) string {
	v := strconv.FormatFloat(level, 'f', -1, 64)
	if model == "users" {
		if level == 1 {
			return "1 user"
		}
		return v + " users"
	}
	return v + "/s"
}

// CapacityStepLine describes one step of a capacity search in one line,
// for progress while the search runs.
func CapacityStepLine(model string, st *metrics.CapacityStep) string {
	return fmt.Sprintf("%-6s %10s  %8.1f rps  p50 %-7s p95 %-7s errors %6.2f%%  %s",
		st.Phase, Level(model, st.Level), st.RPS, Ms(st.Latency.P50), Ms(st.Latency.P95), 100*st.ErrorRate, stepVerdict(st))
}

// stepVerdict is "ok", or why the step failed.
func stepVerdict(st *metrics.CapacityStep) string {
	if st.OK {
		return "ok"
	}
	return st.Detail
}

// CapacityTable writes the capacity table of a search, load against
// throughput, latency and errors, by level, followed by the verdict.
func CapacityTable(w io.Writer, c *metrics.Capacity) {
	model := "closed model, users"
	if c.Model == "rate" {
		model = "open model, arrivals per second"
	}
	fmt.Fprintf(w, "\nCapacity (%s; objectives %s; steps of %gs, the first %gs of each not judged)\n",
		model, strings.Join(c.Objectives, ", "), c.StepS, c.WarmupS)
	steps := slices.Clone(c.Steps)
	slices.SortStableFunc(steps, func(a, b metrics.CapacityStep) int {
		switch {
		case a.Level < b.Level:
			return -1
		case a.Level > b.Level:
			return 1
		}
		return 0
	})
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  Load\tThroughput\tp50\tp95\tErrors\tVerdict")
	for i := range steps {
		st := &steps[i]
		fmt.Fprintf(tw, "  %s\t%.1f rps\t%s\t%s\t%.2f%%\t%s\n",
			Level(c.Model, st.Level), st.RPS, Ms(st.Latency.P50), Ms(st.Latency.P95), 100*st.ErrorRate, stepVerdict(st))
	}
	tw.Flush()
	label := "Verdict"
	switch c.Verdict.Reason {
	case metrics.ReasonGenerator, metrics.ReasonInterrupted:
		label = "Verdict (inconclusive)"
	case metrics.ReasonMaxReached, metrics.ReasonBudget:
		label = "Verdict (no breaking point found)"
	}
	fmt.Fprintf(w, "%s: %s\n", label, c.Verdict.Detail)
}
