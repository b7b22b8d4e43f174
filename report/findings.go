package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/surge-load/surge/metrics"
)

// findings writes what the analysis of r found beyond its thresholds: a
// collapse of the service, from when the generator's own saturation makes
// the figures untrustworthy, and a capacity search.
func findings(w io.Writer, r *metrics.Result) {
	if c := r.Collapse; c != nil {
		fmt.Fprintf(w, "\nCollapse: %s\n", CollapseLine(c))
	}
	if s := r.Generator.Saturation; s != nil {
		fmt.Fprintf(w, "\nNot trustworthy from %s on: the generator itself was saturated (%s) for %.0f s in all; figures from then on may describe the generator, not the service\n",
			Clock(s.TrustworthyUntilS), strings.Join(s.Causes, ", "), s.SaturatedS)
	}
	if r.Capacity != nil {
		CapacityTable(w, r.Capacity)
	}
}
