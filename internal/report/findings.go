package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/surge-load/surge/result"
)

// findings writes what the analysis of r found beyond its thresholds: a
// collapse of the service, from when the generator's own saturation makes
// the figures untrustworthy, and a capacity search.
func findings(w io.Writer, r *result.Result) {
	if c := r.Collapse; c != nil {
		fmt.Fprintf(w, "\nCollapse: %s\n", CollapseLine(c))
	}
	if s := r.Generator.Saturation; s != nil {
		fmt.Fprintf(w, "\n%s\n", untrustworthyLine(s))
	}
	if line := SYNBacklogLine(r); line != "" {
		fmt.Fprintf(w, "\n%s\n", line)
	}
	if r.Capacity != nil {
		CapacityTable(w, r.Capacity)
	}
}

// SYNBacklogLine says, if connects took about 1 s, 3 s or 7 s, that those
// were SYN retransmissions and what they mean; it is empty otherwise.
func SYNBacklogLine(r *result.Result) string {
	n := r.Totals.Timing.ConnectSYNRetransmits
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("SYN retransmissions: %d connects took about 1 s, 3 s or 7 s (max %s): the server's listen backlog overflowed, so its kernel dropped SYNs and the client sent them again. Raise the server's listen backlog (net.core.somaxconn, net.ipv4.tcp_max_syn_backlog and the backlog its listen call asks for) or make it accept faster",
		n, Ms(r.Totals.Timing.Connect.Max))
}

// untrustworthyLine says from when a run's figures may describe its
// saturated generator rather than the service, as in "Not trustworthy from
// 1m12s on: the generator itself was saturated (cpu, lag) for 20 s in all;
// …".
func untrustworthyLine(s *result.Saturation) string {
	if len(s.Intervals) == 0 { // a result written before intervals were kept
		return fmt.Sprintf("Not trustworthy from %s on: %s (%s) for %.0f s in all; figures from then on may describe the generator, not the service",
			Clock(s.TrustworthyUntilS), saturationCause(s), strings.Join(s.Causes, ", "), s.SaturatedS)
	}
	spans := make([]string, 0, len(s.Intervals))
	for i, sp := range s.Intervals {
		if i == 5 {
			spans = append(spans, fmt.Sprintf("and %d more", len(s.Intervals)-i))
			break
		}
		spans = append(spans, Clock(sp.FromS)+"–"+Clock(sp.ToS))
	}
	return fmt.Sprintf("Not trustworthy for %.0f s (%s): %s (%s); figures of those seconds may describe the generator's machine, not the service",
		s.SaturatedS, strings.Join(spans, ", "), saturationCause(s), strings.Join(s.Causes, ", "))
}

// saturationCause says whose the delay of the sends was.
func saturationCause(s *result.Saturation) string {
	if s.Cause == result.CauseMachineBusy {
		return "the machine was busy: sends were delayed while the generator's own CPU was not (other processes or a CPU quota took it)"
	}
	return "the generator itself was saturated"
}
