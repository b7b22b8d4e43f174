package report

import (
	"fmt"

	"github.com/surge-load/surge/result"
)

// CapacityData is the capacity section of the report of a breaking-point
// search (surge find-max): every step by level, the verdict, and what the
// chart of throughput and p95 against the load marks on it.
type CapacityData struct {
	Model string `json:"model"` // "users" or "rate"
	// LevelUnit says what a level counts, for the chart's axis.
	LevelUnit string `json:"level_unit"`
	// Heading says how the search went: the model, the objectives and the
	// steps, as the summary prints them.
	Heading string          `json:"heading"`
	Verdict CapacityVerdict `json:"verdict"`
	// Steps are every step, from the lowest level to the highest.
	Steps []CapacityRow `json:"steps"`
	// Marks are the maximum sustainable level and the lowest failed one.
	Marks []Mark `json:"marks"`
}

// CapacityVerdict is the outcome of a capacity search, in words.
type CapacityVerdict struct {
	// Label is "Verdict", or says that the verdict is inconclusive or
	// found no breaking point.
	Label      string `json:"label"`
	Detail     string `json:"detail"`
	Reason     string `json:"reason"`
	Conclusive bool   `json:"conclusive"`
}

// A CapacityRow is one step of a capacity search: numbers for the chart
// and the cells as the summary prints them.
type CapacityRow struct {
	Level float64 `json:"level"`
	Phase string  `json:"phase"` // "step" or "narrow"
	OK    bool    `json:"ok"`
	// Max marks the step at the maximum sustainable level, Failed the
	// step at the lowest level that failed.
	Max    bool          `json:"max"`
	Failed bool          `json:"failed"`
	RPS    Number        `json:"rps"`
	OKRPS  Number        `json:"ok_rps"`
	P95Ms  Number        `json:"p95_ms"`
	Text   capacityCells `json:"text"`
}

// newCapacityData builds the capacity section of a report from c.
func newCapacityData(c *result.Capacity) *CapacityData {
	v := &c.Verdict
	d := &CapacityData{
		Model:     c.Model,
		LevelUnit: "virtual users",
		Heading:   capacityHeading(c),
		Verdict:   CapacityVerdict{Label: capacityVerdictLabel(v), Detail: v.Detail, Reason: v.Reason, Conclusive: v.Conclusive},
		Steps:     []CapacityRow{},
		Marks:     []Mark{},
	}
	if c.Model == "rate" {
		d.LevelUnit = "arrivals per second"
	}
	var failed *result.CapacityStep
	for _, st := range stepsByLevel(c) {
		row := CapacityRow{Level: st.Level, Phase: st.Phase, OK: st.OK, RPS: Number(st.RPS), OKRPS: Number(st.OKRPS),
			P95Ms: Number(st.Latency.P95), Text: capacityCellsOf(c.Model, &st)}
		row.Max = st.OK && v.MaxLevel > 0 && st.Level == v.MaxLevel
		row.Failed = !st.OK && v.FailedLevel > 0 && st.Level == v.FailedLevel
		if row.Failed && failed == nil {
			failed = &st
		}
		d.Steps = append(d.Steps, row)
	}
	if v.MaxLevel > 0 {
		at := Level(c.Model, v.MaxLevel)
		d.Marks = append(d.Marks, Mark{Kind: MarkMaxLevel, At: Number(v.MaxLevel), Value: nan, Label: "max " + at,
			Text: fmt.Sprintf("maximum sustainable load: %s (%.1f rps, p95 %s)", at, v.MaxRPS, Ms(v.MaxP95Ms))})
	}
	if v.FailedLevel > 0 {
		at := Level(c.Model, v.FailedLevel)
		m := Mark{Kind: MarkFailedLevel, At: Number(v.FailedLevel), Value: nan, Label: "failed " + at,
			Text: "the lowest level that failed: " + at}
		if failed != nil {
			m.Text += ": " + failed.Detail
		}
		d.Marks = append(d.Marks, m)
	}
	return d
}
