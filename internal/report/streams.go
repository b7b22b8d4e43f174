package report

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/surge-load/surge/metrics"
	"github.com/surge-load/surge/result"
)

// streams writes the streams section of the summary: how many long-lived
// connections (SSE subscriptions, WebSockets) opened and stayed open, their
// connect time, time to first event, events per second, delivery delays,
// and how they ended. It writes nothing for a run without streams.
func streams(w io.Writer, r *result.Result) {
	st := r.Totals.Streams
	if st == nil {
		return
	}
	fmt.Fprintf(w, "\nStreams: %s opened", thousands(st.Opened))
	if st.Reconnects > 0 {
		fmt.Fprintf(w, " (%s reconnections)", thousands(st.Reconnects))
	}
	fmt.Fprintf(w, " · %s open at most · %s events (%.1f/s) · %s in", thousands(st.OpenMax), thousands(st.Events), st.EventsPerSec, Bytes(st.BytesIn))
	if st.Sent > 0 {
		fmt.Fprintf(w, " · %s messages sent", thousands(st.Sent))
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "  %s\n", streamTimes(st))
	fmt.Fprintf(w, "  ends: %s\n", streamEnds(st))
	n := 0
	for _, e := range r.Endpoints {
		if e.Streams != nil {
			n++
		}
	}
	if n < 2 {
		return
	}
	for _, e := range r.Endpoints {
		if s := e.Streams; s != nil {
			fmt.Fprintf(w, "  %s: %s opened · %s events · %s · ends: %s\n", e.Name, thousands(s.Opened), thousands(s.Events), streamTimes(s), streamEnds(s))
		}
	}
}

// streamTimes summarises the distributions of st that have values.
func streamTimes(st *result.StreamStats) string {
	var parts []string
	for _, m := range streamMeasures(st) {
		parts = append(parts, fmt.Sprintf("%s p50 %s p99 %s", m.name, Ms(m.p.P50), Ms(m.p.P99)))
	}
	if len(parts) == 0 {
		return "no timings"
	}
	return strings.Join(parts, " · ")
}

// streamEnds lists how streams ended, in the order of metrics.StreamEnds,
// with WebSocket close codes.
func streamEnds(st *result.StreamStats) string {
	var parts []string
	for _, e := range metrics.StreamEnds() {
		if n := st.Ends[string(e)]; n > 0 {
			parts = append(parts, fmt.Sprintf("%s %s", e, thousands(n)))
		}
	}
	if len(parts) == 0 {
		parts = append(parts, "none yet")
	}
	if len(st.CloseCodes) > 0 {
		var codes []string
		for code, n := range st.CloseCodes {
			codes = append(codes, fmt.Sprintf("%s×%s", code, thousands(n)))
		}
		sort.Strings(codes)
		parts = append(parts, "close codes "+strings.Join(codes, ", "))
	}
	return strings.Join(parts, " · ")
}

// thousands formats n with thousands separators.
func thousands(n int64) string {
	s := fmt.Sprint(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
