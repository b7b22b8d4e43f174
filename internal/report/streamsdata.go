package report

import (
	"fmt"
	"slices"

	"github.com/surge-load/surge/metrics"
	"github.com/surge-load/surge/result"
)

// StreamsData is the streams section of a report: the long-lived
// connections of a run (SSE subscriptions, WebSockets) beside its request
// statistics. Every number is a cell as the page and the Markdown summary
// print it.
type StreamsData struct {
	// The run's key figures.
	Opened       string `json:"opened"`
	OpenMax      string `json:"open_max"`
	Events       string `json:"events"`
	EventsPerSec string `json:"events_per_sec"`
	Reconnects   string `json:"reconnects"`
	BytesIn      string `json:"bytes_in"`
	// Ends are the causes that streams ended for, in the order of
	// metrics.StreamEnds: the columns of each row's Ends.
	Ends []string `json:"ends"`
	// Rows are the endpoints that had streams, and Total all of them when
	// there are several.
	Rows  []StreamRow `json:"rows"`
	Total *StreamRow  `json:"total,omitempty"`
	// Timings are the distributions measured, per row.
	Timings []StreamTimingRow `json:"timings"`
}

// A StreamRow is the streams of one endpoint, or of the whole run.
type StreamRow struct {
	Name         string   `json:"name"`
	Opened       string   `json:"opened"`
	Reconnects   string   `json:"reconnects"`
	Events       string   `json:"events"`
	EventsPerSec string   `json:"events_per_sec"`
	Sent         string   `json:"sent"` // WebSocket messages
	BytesIn      string   `json:"bytes_in"`
	Ends         []string `json:"ends"` // one count per StreamsData.Ends
	CloseCodes   string   `json:"close_codes"`
}

// A StreamTimingRow is one distribution of one row's streams, such as the
// time to the first event.
type StreamTimingRow struct {
	Name    string             `json:"name"`
	Measure string             `json:"measure"`
	Ms      result.Percentiles `json:"ms"`
	P50     string             `json:"p50"`
	P90     string             `json:"p90"`
	P95     string             `json:"p95"`
	P99     string             `json:"p99"`
	Max     string             `json:"max"`
}

// A streamMeasure is one distribution of a StreamStats.
type streamMeasure struct {
	name string
	p    result.Percentiles
}

// streamMeasures are the distributions of st that were measured.
func streamMeasures(st *result.StreamStats) []streamMeasure {
	all := []struct {
		streamMeasure
		hist string
	}{
		{streamMeasure{"connect", st.Connect}, st.ConnectHistogram},
		{streamMeasure{"response headers", st.Headers}, st.HeadersHistogram},
		{streamMeasure{"first event", st.FirstEvent}, st.FirstEventHistogram},
		{streamMeasure{"gap between events", st.Gap}, st.GapHistogram},
		{streamMeasure{"delivery delay", st.Delay}, st.DelayHistogram},
	}
	var out []streamMeasure
	for _, m := range all {
		if m.hist != "" {
			out = append(out, m.streamMeasure)
		}
	}
	return out
}

// endCauses lists the causes counted in ends, in the order of
// metrics.StreamEnds, then any this version does not know (from a newer
// result), sorted.
func endCauses(ends map[string]int64) []string {
	out := []string{}
	known := map[string]bool{}
	for _, e := range metrics.StreamEnds() {
		known[string(e)] = true
		if ends[string(e)] > 0 {
			out = append(out, string(e))
		}
	}
	var other []string
	for e, n := range ends {
		if !known[e] && n > 0 {
			other = append(other, e)
		}
	}
	slices.Sort(other)
	return append(out, other...)
}

// newStreamsData builds the streams section of r's report, or returns nil
// if r had no streams.
func newStreamsData(r *result.Result) *StreamsData {
	t := r.Totals.Streams
	if t == nil {
		return nil
	}
	d := &StreamsData{
		Opened:       thousands(t.Opened),
		OpenMax:      thousands(t.OpenMax),
		Events:       thousands(t.Events),
		EventsPerSec: fmt.Sprintf("%.1f", t.EventsPerSec),
		Reconnects:   thousands(t.Reconnects),
		BytesIn:      Bytes(t.BytesIn),
		Ends:         endCauses(t.Ends),
		Rows:         []StreamRow{},
		Timings:      []StreamTimingRow{},
	}
	timings := func(name string, st *result.StreamStats) {
		for _, m := range streamMeasures(st) {
			d.Timings = append(d.Timings, StreamTimingRow{Name: name, Measure: m.name, Ms: m.p,
				P50: Ms(m.p.P50), P90: Ms(m.p.P90), P95: Ms(m.p.P95), P99: Ms(m.p.P99), Max: Ms(m.p.Max)})
		}
	}
	for i := range r.Endpoints {
		if st := r.Endpoints[i].Streams; st != nil {
			d.Rows = append(d.Rows, streamRow(r.Endpoints[i].Name, st, d.Ends))
			timings(r.Endpoints[i].Name, st)
		}
	}
	if len(d.Rows) != 1 {
		total := streamRow("Total", t, d.Ends)
		d.Total = &total
		timings("Total", t)
	}
	return d
}

// streamRow formats the streams st of the row name, with a count for each
// of ends.
func streamRow(name string, st *result.StreamStats, ends []string) StreamRow {
	row := StreamRow{
		Name:         name,
		Opened:       thousands(st.Opened),
		Reconnects:   thousands(st.Reconnects),
		Events:       thousands(st.Events),
		EventsPerSec: fmt.Sprintf("%.1f", st.EventsPerSec),
		Sent:         thousands(st.Sent),
		BytesIn:      Bytes(st.BytesIn),
		Ends:         []string{},
		CloseCodes:   counted(st.CloseCodes),
	}
	for _, e := range ends {
		row.Ends = append(row.Ends, thousands(st.Ends[e]))
	}
	return row
}
