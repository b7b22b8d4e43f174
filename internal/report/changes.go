package report

import (
	"fmt"
	"io"
	"strconv"

	"github.com/surge-load/surge/result"
)

// MarkChange marks a change made to the run while it went (the result's
// timeline).
const MarkChange = "change"

// changeText says in words what a timeline event did.
func changeText(e *result.Event) (label, text string) {
	switch e.Kind {
	case "load":
		label = "→ " + strconv.FormatFloat(e.Level, 'f', -1, 64) + " " + e.Unit
	default:
		label = e.Kind
	}
	text = fmt.Sprintf("%s: %s", Clock(e.T), label)
	if e.Scenario != "" {
		text += " (" + e.Scenario + ")"
	}
	return label, text + " from " + e.By
}

// markChanges adds a mark for every change of r's timeline.
func markChanges(tl *Timeline, r *result.Result) {
	for i := range r.Timeline {
		e := &r.Timeline[i]
		label, text := changeText(e)
		tl.Marks = append(tl.Marks, Mark{Kind: MarkChange, At: Number(e.T), Value: nan, Label: label, Text: "changed at " + text})
	}
}

// changes writes the terminal summary's lines of the timeline.
func changes(w io.Writer, r *result.Result) {
	if len(r.Timeline) == 0 {
		return
	}
	fmt.Fprintln(w, "\nChanged while running")
	for i := range r.Timeline {
		_, text := changeText(&r.Timeline[i])
		fmt.Fprintln(w, "  "+text)
	}
}
