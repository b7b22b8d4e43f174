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
		fmt.Fprintf(w, "\n%s\n", untrustworthyLine(s))
	}
	if r.Capacity != nil {
		CapacityTable(w, r.Capacity)
	}
}

// untrustworthyLine says from when a run's figures may describe its
// saturated generator rather than the service, as in "Not trustworthy from
// 1m12s on: the generator itself was saturated (cpu, lag) for 20 s in all;
// …".
func untrustworthyLine(s *metrics.Saturation) string {
	return fmt.Sprintf("Not trustworthy from %s on: the generator itself was saturated (%s) for %.0f s in all; figures from then on may describe the generator, not the service",
		Clock(s.TrustworthyUntilS), strings.Join(s.Causes, ", "), s.SaturatedS)
}
