package report

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/surge-load/surge/analysis"
	"github.com/surge-load/surge/result"
)

// maxEventLines bounds the single events the summary lists.
const maxEventLines = 10

// EventLines say what dips and spikes the run had: one line per periodic
// group ("Throughput dipped 3 times, every 20 s (at 12s, 32s, 52s; 1–2 s
// each; 480/s → 0/s)") and one per other event, up to ten.
func EventLines(r *result.Result) []string {
	var out []string
	grouped := map[int]bool{}
	for _, p := range r.Periodic {
		var at []string
		lo, hi := 0.0, 0.0
		var base, ext []float64
		for i, e := range r.Excursions {
			if e.Series != p.Series || e.Kind != p.Kind {
				continue
			}
			grouped[i] = true
			at = append(at, Clock(e.AtS))
			if lo == 0 || e.LastedS < lo {
				lo = e.LastedS
			}
			hi = max(hi, e.LastedS)
			base, ext = append(base, e.Baseline), append(ext, e.Extreme)
		}
		lasted := fmt.Sprintf("%.0f s each", lo)
		if hi != lo {
			lasted = fmt.Sprintf("%.0f–%.0f s each", lo, hi)
		}
		if len(at) > 6 {
			at = append(at[:5], "…")
		}
		out = append(out, fmt.Sprintf("%s %s %d times, every %.0f s (at %s; %s; %s → %s)", capital(p.Series), eventVerb(p.Kind), p.Count,
			p.EveryS, strings.Join(at, ", "), lasted, eventValue(p.Series, middle(base)), eventValue(p.Series, middle(ext))))
	}
	n := 0
	for i, e := range r.Excursions {
		if grouped[i] {
			continue
		}
		if n++; n > maxEventLines {
			out = append(out, fmt.Sprintf("… and %d more dips and spikes (the result's events)", len(r.Excursions)-len(grouped)-maxEventLines))
			break
		}
		out = append(out, fmt.Sprintf("%s %s at %s for %.0f s: %s → %s", capital(e.Series), e.Kind, Clock(e.AtS), e.LastedS,
			eventValue(e.Series, e.Baseline), eventValue(e.Series, e.Extreme)))
	}
	return out
}

// EndpointEventLines say which endpoints stalled or slowed on their own
// (analysis.EndpointExcursions), one line each, up to ten: "GET /stall:
// throughput dip at 12s for 2 s: 95/s → 0/s; no other endpoint dipped".
func EndpointEventLines(r *result.Result) []string {
	evs := analysis.EndpointExcursions(r)
	var out []string
	for i, e := range evs {
		if i == maxEventLines {
			out = append(out, fmt.Sprintf("… and %d more (the charts by endpoint in the HTML report show them)", len(evs)-maxEventLines))
			break
		}
		line := fmt.Sprintf("%s: %s %s at %s for %.0f s: %s → %s", e.Endpoint, e.Series, e.Kind, Clock(e.AtS), e.LastedS,
			eventValue(e.Series, e.Baseline), eventValue(e.Series, e.Extreme))
		alone := true
		for j, o := range evs {
			if j != i && o.Series == e.Series && o.Kind == e.Kind && o.AtS < e.AtS+e.LastedS && e.AtS < o.AtS+o.LastedS {
				alone = false
			}
		}
		if alone {
			line += fmt.Sprintf("; no other endpoint %s", eventVerb(e.Kind))
		}
		out = append(out, line)
	}
	return out
}

func eventVerb(kind string) string {
	if kind == result.Dip {
		return "dipped"
	}
	return "spiked"
}

func capital(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// eventValue formats a throughput (per second) or latency (p95, ms).
func eventValue(series string, v float64) string {
	if series == result.Throughput {
		return fmt.Sprintf("%.0f/s", v)
	}
	return "p95 " + Ms(v)
}

// middle is the median of xs (not empty).
func middle(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

// events writes the dips and spikes and what moved with them.
func events(w io.Writer, r *result.Result) {
	if lines := EventLines(r); len(lines) > 0 {
		fmt.Fprintln(w, "\nDips and spikes")
		for _, l := range lines {
			fmt.Fprintf(w, "  %s\n", l)
		}
	}
	if lines := EndpointEventLines(r); len(lines) > 0 {
		fmt.Fprintln(w, "\nDips and spikes by endpoint")
		for _, l := range lines {
			fmt.Fprintf(w, "  %s\n", l)
		}
	}
	if len(r.Moved) > 0 {
		fmt.Fprintln(w, "\nWhat moved")
		for _, m := range r.Moved {
			fmt.Fprintf(w, "  %s\n", capital(m.Line))
		}
	}
}
