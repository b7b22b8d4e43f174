package report

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/surge-load/surge/result"
)

// ReportData is the data section of the HTML report: everything the page
// shows, computed from one result by NewReportData. The page's script draws
// its tables and charts from this object alone, so a test of it is a test of
// what the page says.
type ReportData struct {
	Kind      string        `json:"kind"` // "report"
	Run       RunInfo       `json:"run"`
	Verdict   Verdict       `json:"verdict"`
	Totals    EndpointRow   `json:"totals"`
	Endpoints []EndpointRow `json:"endpoints"`
	Timing    []TimingRow   `json:"timing"`
	Errors    []ErrorRow    `json:"errors"`
	Charts    *Timeline     `json:"charts"`
	// Streams, in a run with long-lived connections, are their tables.
	Streams *StreamsData `json:"streams,omitempty"`
	// Capacity, in the result of a breaking-point search, is its table
	// and verdict.
	Capacity *CapacityData `json:"capacity,omitempty"`
	// Live is true on the live page of a run going on.
	Live bool `json:"live,omitempty"`
}

// RunInfo describes a run for people.
type RunInfo struct {
	Title       string  `json:"title"`
	Scenario    string  `json:"scenario"`
	Target      string  `json:"target"`
	Load        string  `json:"load"`
	Start       string  `json:"start"` // as the summary prints it
	StartISO    string  `json:"start_iso"`
	DurationS   float64 `json:"duration_s"`
	Duration    string  `json:"duration"`
	Tool        string  `json:"tool"`
	Host        string  `json:"host"`
	ID          string  `json:"id"`
	Segment     string  `json:"segment"` // where the result sits in a split run (SegmentLabel)
	Interrupted bool    `json:"interrupted"`
	StopReason  string  `json:"stop_reason,omitempty"`
	// Warmup, if the run had a warm-up, says how long it was and what it
	// held.
	Warmup string `json:"warmup,omitempty"`
}

// Verdict is the run's outcome: its thresholds, what the analysis of its
// series found, and whether the generator could be trusted.
type Verdict struct {
	// Status is "pass" (every threshold passed), "fail" (one failed),
	// "interrupted" or "none" (no thresholds).
	Status     string         `json:"status"`
	Headline   string         `json:"headline"`
	Thresholds []ThresholdRow `json:"thresholds"`
	Findings   []Finding      `json:"findings"`
	Generator  GeneratorInfo  `json:"generator"`
}

// A Finding is something the analysis of a run found beyond its
// thresholds, in one sentence.
type Finding struct {
	// Kind is "collapse" (the service collapsed after a peak),
	// "untrustworthy" (the generator itself was saturated), "syn_backlog",
	// "event" (a dip or spike of the run), "endpoint_event" (of one
	// endpoint) or "moved".
	Kind string `json:"kind"`
	Text string `json:"text"`
}

// A ThresholdRow is one threshold and its verdict.
type ThresholdRow struct {
	Expr   string `json:"expr"`
	OK     bool   `json:"ok"`
	Actual string `json:"actual"`
	Note   string `json:"note,omitempty"`
}

// GeneratorInfo is the load generator's health.
type GeneratorInfo struct {
	Healthy  bool     `json:"healthy"`
	Text     string   `json:"text"`
	Warnings []string `json:"warnings"`
}

// An EndpointRow is one row of the endpoint table: numbers for sorting and
// the cells as the summary prints them.
type EndpointRow struct {
	Name         string             `json:"name"`
	Requests     int64              `json:"requests"`
	Failures     int64              `json:"failures"`
	Dropped      int64              `json:"dropped"`
	RPS          float64            `json:"rps"`
	ErrorRatePct float64            `json:"error_rate_pct"`
	LatencyMs    result.Percentiles `json:"latency_ms"`
	BytesIn      int64              `json:"bytes_in"`
	BytesOut     int64              `json:"bytes_out"`
	Text         statsCells         `json:"text"`
	ErrorRate    string             `json:"error_rate"`
	Traffic      string             `json:"traffic"` // bytes in and out
}

// A TimingRow is the mean time of each phase of one endpoint's operations.
type TimingRow struct {
	Name   string      `json:"name"`
	Phases []PhaseCell `json:"phases"`
	Total  PhaseCell   `json:"total"` // the sum of the phases' means
}

// A PhaseCell is the mean of one phase.
type PhaseCell struct {
	Phase  string  `json:"phase"`
	MeanMs float64 `json:"mean_ms"`
	MaxMs  float64 `json:"max_ms"`
	Text   string  `json:"text"`
}

// An ErrorRow is one error class.
type ErrorRow struct {
	Class     string           `json:"class"`
	Count     int64            `json:"count"`
	SharePct  float64          `json:"share_pct"` // of all failures and drops
	Hint      string           `json:"hint"`
	Statuses  string           `json:"statuses"`
	Endpoints string           `json:"endpoints"`
	Samples   []result.Message `json:"samples"`
}

// phaseNames are the timing phases in the order they happen.
var phaseNames = []string{"blocked", "dns", "connect", "tls", "send", "wait", "receive"}

func phasesOf(t *result.TimingStats) []result.PhaseStats {
	return []result.PhaseStats{t.Blocked, t.DNS, t.Connect, t.TLS, t.Send, t.Wait, t.Receive}
}

// NewReportData builds the data section of r's report.
func NewReportData(r *result.Result) *ReportData {
	d := &ReportData{
		Kind:      "report",
		Run:       runInfo(r),
		Verdict:   verdictOf(r),
		Totals:    endpointRow("Total", &r.Totals),
		Endpoints: []EndpointRow{},
		Timing:    []TimingRow{},
		Errors:    []ErrorRow{},
		Charts:    NewTimeline(r, MaxChartPoints),
		Streams:   newStreamsData(r),
	}
	if r.Capacity != nil {
		d.Capacity = newCapacityData(r.Capacity)
	}
	for i := range r.Endpoints {
		e := &r.Endpoints[i]
		d.Endpoints = append(d.Endpoints, endpointRow(e.Name, &e.Stats))
		d.Timing = append(d.Timing, timingRow(e.Name, &e.Timing))
	}
	if len(r.Endpoints) != 1 {
		d.Timing = append(d.Timing, timingRow("Total", &r.Totals.Timing))
	}
	bad := r.Totals.Failures + r.Totals.Dropped
	for _, e := range r.Errors {
		row := ErrorRow{
			Class:     e.Class,
			Count:     e.Count,
			Hint:      e.Hint,
			Statuses:  counted(e.Statuses),
			Endpoints: counted(e.Endpoints),
			Samples:   e.Samples,
		}
		if row.Samples == nil {
			row.Samples = []result.Message{}
		}
		if bad > 0 {
			row.SharePct = round3(100 * float64(e.Count) / float64(bad))
		}
		d.Errors = append(d.Errors, row)
	}
	return d
}

// runInfo describes r's run.
func runInfo(r *result.Result) RunInfo {
	scenario := scenarioOf(r.Plan)
	title := r.Run.Target
	if len(r.Endpoints) == 1 {
		title = r.Endpoints[0].Name + " · " + r.Run.Target
	}
	var warmup string
	if r.Warmup != nil {
		warmup = warmupText(r.Warmup)
	}
	return RunInfo{
		Title:       title,
		Scenario:    scenario,
		Target:      r.Run.Target,
		Load:        r.Run.Load,
		Start:       r.Run.Start.Format(startLayout),
		StartISO:    r.Run.Start.Format("2006-01-02T15:04:05.000Z07:00"),
		DurationS:   round3(r.Run.DurationS),
		Duration:    fmt.Sprintf("%.1fs", r.Run.DurationS),
		Tool:        strings.TrimSpace(r.Tool.Name + " " + r.Tool.Version),
		Host:        r.Run.Host,
		ID:          r.Run.ID,
		Segment:     strings.TrimPrefix(SegmentLabel(&r.Run), " · "),
		Interrupted: r.Run.Interrupted,
		StopReason:  r.Run.StopReason,
		Warmup:      warmup,
	}
}

// incompleteNote says what a checkpoint holds, for a result whose run did
// not write its final document.
func incompleteNote(r *result.Result) string {
	return fmt.Sprintf("Incomplete: a checkpoint of the first %.0fs; the run did not write its final result (killed or crashed?)", r.Run.CoveredS)
}

// startLayout is how the summary prints a run's start.
const startLayout = "2006-01-02 15:04:05 MST"

// scenarioOf says what the recorded plan ran: the names of its scenarios,
// or the request of a single-URL test.
func scenarioOf(plan json.RawMessage) string {
	var p struct {
		Scenarios []struct {
			Name string `json:"name"`
		} `json:"scenarios"`
		Request struct {
			Method string `json:"method"`
			URL    string `json:"url"`
		} `json:"request"`
	}
	if len(plan) == 0 || json.Unmarshal(plan, &p) != nil {
		return ""
	}
	var names []string
	for _, s := range p.Scenarios {
		names = append(names, s.Name)
	}
	if len(names) > 0 {
		return strings.Join(names, ", ")
	}
	if p.Request.URL != "" {
		return strings.TrimSpace("single request: " + p.Request.Method + " " + p.Request.URL)
	}
	return ""
}

func verdictOf(r *result.Result) Verdict {
	v := Verdict{Thresholds: []ThresholdRow{}, Findings: findingsOf(r), Generator: generatorInfo(r)}
	failed := 0
	for i := range r.Thresholds {
		t := &r.Thresholds[i]
		v.Thresholds = append(v.Thresholds, ThresholdRow{Expr: t.Expr, OK: t.OK, Actual: thresholdActual(t), Note: t.Note})
		if !t.OK {
			failed++
		}
	}
	switch {
	case r.Run.Incomplete:
		v.Status = "interrupted"
		v.Headline = incompleteNote(r)
	case r.Run.Interrupted:
		v.Status = "interrupted"
		v.Headline = "Interrupted: the run stopped before its plan ended"
		if r.Run.StopReason != "" {
			v.Headline += " (" + r.Run.StopReason + ")"
		}
	case len(r.Thresholds) == 0:
		v.Status = "none"
		v.Headline = "No thresholds were set"
	case failed > 0:
		v.Status = "fail"
		v.Headline = fmt.Sprintf("Failed: %d of %d thresholds", failed, len(r.Thresholds))
	default:
		v.Status = "pass"
		v.Headline = fmt.Sprintf("Passed: all %d thresholds", len(r.Thresholds))
	}
	return v
}

// findingsOf lists what the analysis of r's series found: a collapse, and
// from when the generator's saturation makes the figures untrustworthy.
func findingsOf(r *result.Result) []Finding {
	out := []Finding{}
	if c := r.Collapse; c != nil {
		out = append(out, Finding{Kind: "collapse", Text: "Collapse: " + CollapseLine(c)})
	}
	if s := r.Generator.Saturation; s != nil {
		out = append(out, Finding{Kind: "untrustworthy", Text: untrustworthyLine(s)})
	}
	if line := SYNBacklogLine(r); line != "" {
		out = append(out, Finding{Kind: "syn_backlog", Text: line})
	}
	for _, l := range EventLines(r) {
		out = append(out, Finding{Kind: "event", Text: l})
	}
	for _, l := range EndpointEventLines(r) {
		out = append(out, Finding{Kind: "endpoint_event", Text: "By endpoint: " + l})
	}
	for _, m := range r.Moved {
		out = append(out, Finding{Kind: "moved", Text: "What moved: " + capital(m.Line)})
	}
	return out
}

func generatorInfo(r *result.Result) GeneratorInfo {
	g := r.Generator
	text := generatorLine(r)
	warnings := g.Warnings
	if warnings == nil {
		warnings = []string{}
	}
	return GeneratorInfo{Healthy: len(g.Warnings) == 0, Text: text, Warnings: warnings}
}

func endpointRow(name string, s *result.Stats) EndpointRow {
	return EndpointRow{
		Name:         name,
		Requests:     s.Requests,
		Failures:     s.Failures,
		Dropped:      s.Dropped,
		RPS:          s.RPS,
		ErrorRatePct: 100 * s.ErrorRate,
		LatencyMs:    s.Latency,
		BytesIn:      s.BytesIn,
		BytesOut:     s.BytesOut,
		Text:         cellsOf(s),
		ErrorRate:    percent(s.ErrorRate),
		Traffic:      Bytes(s.BytesIn) + " in, " + Bytes(s.BytesOut) + " out",
	}
}

func timingRow(name string, t *result.TimingStats) TimingRow {
	row := TimingRow{Name: name}
	var sum float64
	for i, p := range phasesOf(t) {
		row.Phases = append(row.Phases, PhaseCell{Phase: phaseNames[i], MeanMs: p.Mean, MaxMs: p.Max, Text: Ms(p.Mean)})
		sum += p.Mean
	}
	row.Total = PhaseCell{Phase: "total", MeanMs: round3(sum), Text: Ms(sum)}
	return row
}

// counted formats counts by key, largest first: "500×13, 503×2".
func counted(m map[string]int64) string { return countedAs(m, "%s×%d") }

// countedAs formats counts by key, largest first, each with format.
func countedAs(m map[string]int64, format string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if m[keys[i]] != m[keys[j]] {
			return m[keys[i]] > m[keys[j]]
		}
		return keys[i] < keys[j]
	})
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf(format, k, m[k])
	}
	return strings.Join(parts, ", ")
}
