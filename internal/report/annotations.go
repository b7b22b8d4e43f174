package report

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/surge-load/surge/result"
)

// The kinds of Band and Mark.
const (
	BandWarmup        = "warmup"        // the warm-up, kept out of the totals
	BandUntrustworthy = "untrustworthy" // the generator was saturated
	BandCollapse      = "collapse"      // the service had collapsed
	MarkPeak          = "peak"          // the peak before a collapse
	MarkCollapse      = "collapse"      // the start of a collapse
	MarkRecovered     = "recovered"     // the end of a collapse it recovered from
	MarkMaxLevel      = "max"           // the maximum sustainable load of a capacity search
	MarkFailedLevel   = "failed"        // the lowest level that failed
)

// A Band is a stretch of a chart's x axis that the page shades: on the
// charts over time, the warm-up, the time from which the generator was
// saturated and a collapse.
type Band struct {
	Kind string `json:"kind"`
	From Number `json:"from"`
	To   Number `json:"to"`
	// Label names the band on the chart; Text says what it means, in the
	// key beside the charts.
	Label string `json:"label"`
	Text  string `json:"text"`
	// Chart is the key of the only chart that shows the band; empty for
	// every chart.
	Chart string `json:"chart,omitempty"`
}

// A Mark is a point of a chart's x axis that the page marks with a
// vertical line: the peak and the start of a collapse on the throughput
// chart, the maximum and the failed level on the capacity chart.
type Mark struct {
	Kind string `json:"kind"`
	At   Number `json:"at"`
	// Value, if not null, is drawn as a dot on the line, on the chart's
	// left axis: the peak's throughput.
	Value Number `json:"value"`
	Label string `json:"label"`
	Text  string `json:"text"`
	Chart string `json:"chart,omitempty"`
}

// annotate adds to tl the bands and marks of r's findings: the warm-up,
// the generator's saturation and a collapse.
func annotate(tl *Timeline, r *result.Result) {
	tl.Bands, tl.Marks = []Band{}, []Mark{}
	if w := r.Warmup; w != nil && w.DurationS > 0 {
		tl.Bands = append(tl.Bands, Band{Kind: BandWarmup, From: 0, To: Number(w.DurationS), Label: "warm-up",
			Text: "warm-up: " + warmupText(w)})
	}
	if s := r.Generator.Saturation; s != nil {
		spans := s.Intervals
		if len(spans) == 0 { // a result written before intervals were kept
			spans = []result.Span{{FromS: s.TrustworthyUntilS, ToS: seriesEnd(r)}}
		}
		for _, sp := range spans {
			tl.Bands = append(tl.Bands, Band{Kind: BandUntrustworthy, From: Number(sp.FromS), To: Number(sp.ToS),
				Label: "not trustworthy", Text: fmt.Sprintf("not trustworthy from %s to %s: %s (%s)",
					Clock(sp.FromS), Clock(sp.ToS), saturationCause(s), strings.Join(s.Causes, ", "))})
		}
	}
	if c := r.Collapse; c != nil {
		what := "stopped answering"
		if c.Kind == result.CollapseErrors {
			what = "errors took over"
		}
		end := c.AtS + c.LastedS
		tl.Bands = append(tl.Bands, Band{Kind: BandCollapse, From: Number(c.AtS), To: Number(end), Label: "collapse",
			Text: fmt.Sprintf("collapse: %s from %s for %.0f s", what, Clock(c.AtS), c.LastedS), Chart: "throughput"})
		tl.Marks = append(tl.Marks,
			Mark{Kind: MarkPeak, At: Number(c.PeakAtS), Value: Number(c.PeakRPS), Chart: "throughput",
				Label: fmt.Sprintf("peak %.0f rps", c.PeakRPS), Text: fmt.Sprintf("peak: %.0f successful requests per second (mean of three seconds) at %s", c.PeakRPS, Clock(c.PeakAtS))},
			Mark{Kind: MarkCollapse, At: Number(c.AtS), Value: nan, Chart: "throughput",
				Label: what, Text: fmt.Sprintf("collapse at %s: %s", Clock(c.AtS), what)})
		if c.Recovered {
			tl.Marks = append(tl.Marks, Mark{Kind: MarkRecovered, At: Number(end), Value: nan, Chart: "throughput",
				Label: "recovered", Text: fmt.Sprintf("recovered at %s, after %.0f s", Clock(end), c.LastedS)})
		}
	}
	markChanges(tl, r)
}

// warmupText says how long the warm-up of a run was and what it held.
func warmupText(w *result.Warmup) string {
	s := fmt.Sprintf("the first %s, %d requests (%d failed", seconds(w.DurationS), w.Requests, w.Failures)
	if w.Dropped > 0 {
		s += fmt.Sprintf(", %d dropped", w.Dropped)
	}
	return s + "), kept out of the totals, tables and thresholds"
}

// seconds formats a length of time in seconds to the millisecond, as in
// "500ms", "2s" or "1m30s".
func seconds(s float64) string {
	return time.Duration(s * float64(time.Second)).Round(time.Millisecond).String()
}

// seriesEnd is when the last interval of r's series ends, in seconds since
// its start; the active load period if that is later.
func seriesEnd(r *result.Result) float64 {
	end := r.Run.DurationS
	if n := len(r.Series); n > 0 {
		end = max(end, r.Series[n-1].T+r.Series[n-1].DurationS)
	}
	return end
}

// nan is a Number that encodes as null.
var nan = Number(math.NaN())
