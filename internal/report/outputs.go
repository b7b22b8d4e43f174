package report

import (
	"fmt"
	"io"

	"github.com/surge-load/surge/result"
)

// outputLines says, one line per output, what it sent and what it dropped.
func outputLines(r *result.Result) []string {
	var out []string
	for _, o := range r.Outputs {
		s := fmt.Sprintf("%s %s: %d of %d seconds sent", o.Kind, o.Target, o.Sent, o.Points)
		if o.Dropped > 0 {
			s += fmt.Sprintf(", %d seconds dropped (%d queue full: backend too slow; %d failed writes)", o.Dropped, o.DroppedQueue, o.DroppedFailed)
			if o.LastError != "" {
				s += "; last error: " + truncate(o.LastError, 160)
			}
		}
		if o.Note != "" {
			s += "; " + o.Note
		}
		out = append(out, s)
	}
	return out
}

// outputs writes the outputs' lines of the terminal summary.
func outputs(w io.Writer, r *result.Result) {
	lines := outputLines(r)
	if len(lines) == 0 {
		return
	}
	fmt.Fprintln(w, "\nOutputs (the result document is the source of truth)")
	for _, l := range lines {
		fmt.Fprintln(w, "  "+l)
	}
}
