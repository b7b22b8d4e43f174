package report

import (
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/surge-load/surge/atomicfile"
	"github.com/surge-load/surge/result"
	"github.com/surge-load/surge/sanitize"
)

// CSV file names written by WriteCSV.
const (
	EndpointsCSV = "endpoints.csv"
	SeriesCSV    = "series.csv"
	ErrorsCSV    = "errors.csv"
	CapacityCSV  = "capacity.csv"
	// EndpointSeriesCSV is written for results with per-endpoint points.
	EndpointSeriesCSV = "endpoint-series.csv"
)

// WriteCSV writes r as CSV files in dir, creating it if needed, each
// atomically:
// endpoints.csv (one row per endpoint and a Total row), series.csv (one row
// per interval of the run), errors.csv (one row per error class),
// endpoint-series.csv if the series has per-endpoint points (one row per
// interval and endpoint) and, for the result of a breaking-point search,
// capacity.csv (one row per step).
// Headers name each column with its unit; numbers are plain, with a point
// for decimals, so spreadsheets read them as numbers; a text cell that a
// spreadsheet would take for a formula (=, +, -, @) starts with an
// apostrophe (sanitize.CSVCell). It returns the paths
// written.
func WriteCSV(dir string, r *result.Result) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("csv: %w", err)
	}
	files := []csvFile{
		{EndpointsCSV, EndpointsCSVTo},
		{SeriesCSV, SeriesCSVTo},
		{ErrorsCSV, ErrorsCSVTo},
	}
	if hasEndpointPoints(r) {
		files = append(files, csvFile{EndpointSeriesCSV, EndpointSeriesCSVTo})
	}
	if r.Capacity != nil {
		files = append(files, csvFile{CapacityCSV, CapacityCSVTo})
	}
	var paths []string
	for _, f := range files {
		path := filepath.Join(dir, f.name)
		if err := atomicfile.Write(path, func(w io.Writer) error { return f.write(w, r) }); err != nil {
			return paths, fmt.Errorf("csv: %w", err)
		}
		paths = append(paths, path)
	}
	return paths, nil
}

// A csvFile is a file WriteCSV writes, and how.
type csvFile struct {
	name  string
	write func(io.Writer, *result.Result) error
}

// EndpointsCSVTo writes the endpoint table of r as CSV: the same numbers as
// the summary, unrounded.
func EndpointsCSVTo(w io.Writer, r *result.Result) error {
	cw := csv.NewWriter(w)
	head := []string{"Endpoint", "Requests", "Failures", "Dropped", "Error rate (%)", "Throughput (requests/s)",
		"Latency min (ms)", "Latency mean (ms)", "Latency p50 (ms)", "Latency p90 (ms)", "Latency p95 (ms)",
		"Latency p99 (ms)", "Latency p99.9 (ms)", "Latency max (ms)",
		"Service time p50 (ms)", "Service time p99 (ms)", "Bytes in", "Bytes out"}
	for _, p := range phaseNames {
		head = append(head, "Mean "+p+" (ms)")
	}
	cw.Write(head)
	row := func(name string, s *result.Stats) {
		l := s.Latency
		rec := []string{sanitize.CSVCell(name), itoa(s.Requests), itoa(s.Failures), itoa(s.Dropped), ftoa(100 * s.ErrorRate), ftoa(s.RPS),
			ftoa(l.Min), ftoa(l.Mean), ftoa(l.P50), ftoa(l.P90), ftoa(l.P95), ftoa(l.P99), ftoa(l.P999), ftoa(l.Max),
			ftoa(s.ServiceTime.P50), ftoa(s.ServiceTime.P99), itoa(s.BytesIn), itoa(s.BytesOut)}
		for _, p := range phasesOf(&s.Timing) {
			rec = append(rec, ftoa(p.Mean))
		}
		cw.Write(rec)
	}
	for i := range r.Endpoints {
		row(r.Endpoints[i].Name, &r.Endpoints[i].Stats)
	}
	row("Total", &r.Totals)
	cw.Flush()
	return cw.Error()
}

// SeriesCSVTo writes the per-second history of r as CSV: one row per
// interval, with its start as a time of day (UTC) and in seconds since the
// run's start, and a column of failures per error class. A run with
// long-lived connections has columns of its open streams, the streams
// opened, the events received and the streams ended by cause.
func SeriesCSVTo(w io.Writer, r *result.Result) error {
	cw := csv.NewWriter(w)
	classes := errorClasses(r)
	head := []string{"Time (UTC)", "Seconds since start", "Interval (s)", "Users", "Busy users",
		"Requests", "Successes", "Failures", "Dropped", "Throughput (requests/s)", "Error rate (%)",
		"Latency p50 (ms)", "Latency p90 (ms)", "Latency p95 (ms)", "Latency p99 (ms)", "Latency max (ms)"}
	for _, c := range classes {
		head = append(head, sanitize.CSVCell("Errors: "+c))
	}
	head = append(head, "Generator CPU (% of all cores)", "Generator lag p99 (ms)", "Generator goroutines", "Generator heap (bytes)")
	all := make([]*result.Point, len(r.Series))
	for i := range r.Series {
		all[i] = &r.Series[i]
	}
	ends, streams := streamEndsIn(all)
	if streams {
		head = append(head, "Open streams", "Streams opened", "Stream events")
		for _, e := range ends {
			head = append(head, sanitize.CSVCell("Streams ended: "+e))
		}
	}
	cw.Write(head)
	for i := range r.Series {
		p := &r.Series[i]
		at := r.Run.Start.Add(time.Duration(p.T * float64(time.Second))).UTC()
		errPct := ""
		if n := p.Requests + p.Dropped; n > 0 {
			errPct = ftoa(100 * float64(p.Failures+p.Dropped) / float64(n))
		}
		l := p.Latency
		rec := []string{at.Format("2006-01-02 15:04:05"), ftoa(p.T), ftoa(p.DurationS), itoa(p.Users), itoa(p.Busy),
			itoa(p.Requests), itoa(p.Requests - p.Failures), itoa(p.Failures), itoa(p.Dropped), ftoa(p.RPS), errPct,
			ftoa(l.P50), ftoa(l.P90), ftoa(l.P95), ftoa(l.P99), ftoa(l.Max)}
		for _, c := range classes {
			n := p.Errors[c]
			if c == "dropped" {
				n = p.Dropped
			}
			rec = append(rec, itoa(n))
		}
		g := p.Generator
		rec = append(rec, ftoa(g.CPUPercent), ftoa(g.LagP99Ms), strconv.Itoa(g.Goroutines), strconv.FormatUint(g.HeapBytes, 10))
		if streams {
			st := p.Streams
			if st == nil {
				st = &result.StreamPoint{}
			}
			rec = append(rec, itoa(st.Open), itoa(st.Opened), itoa(st.Events))
			for _, e := range ends {
				rec = append(rec, itoa(st.Ends[e]))
			}
		}
		cw.Write(rec)
	}
	cw.Flush()
	return cw.Error()
}

// hasEndpointPoints reports whether r's series has per-endpoint points.
func hasEndpointPoints(r *result.Result) bool {
	for i := range r.Series {
		if len(r.Series[i].Endpoints) > 0 {
			return true
		}
	}
	return false
}

// EndpointSeriesCSVTo writes the per-endpoint points of r's series as CSV:
// one row per interval and endpoint that completed operations in it (an
// endpoint without a row in an interval completed none), in the series'
// order.
func EndpointSeriesCSVTo(w io.Writer, r *result.Result) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"Time (UTC)", "Seconds since start", "Interval (s)", "Endpoint", "Requests", "Successes", "Failures",
		"Throughput (requests/s)", "Latency min (ms)", "Latency mean (ms)", "Latency p50 (ms)", "Latency p90 (ms)",
		"Latency p95 (ms)", "Latency p99 (ms)", "Latency max (ms)"})
	for i := range r.Series {
		p := &r.Series[i]
		at := r.Run.Start.Add(time.Duration(p.T * float64(time.Second))).UTC().Format("2006-01-02 15:04:05")
		for _, e := range p.Endpoints {
			rps := ""
			if p.DurationS > 0 {
				rps = ftoa(float64(e.Requests) / p.DurationS)
			}
			l := e.Latency
			cw.Write([]string{at, ftoa(p.T), ftoa(p.DurationS), sanitize.CSVCell(e.Name), itoa(e.Requests), itoa(e.Requests - e.Failures),
				itoa(e.Failures), rps, ftoa(l.Min), ftoa(l.Mean), ftoa(l.P50), ftoa(l.P90), ftoa(l.P95), ftoa(l.P99), ftoa(l.Max)})
		}
	}
	cw.Flush()
	return cw.Error()
}

// ErrorsCSVTo writes the error classes of r as CSV, most frequent first,
// with their hints and sample messages. Counts by status and endpoint read
// "500: 13, 503: 2", in plain ASCII for any spreadsheet.
func ErrorsCSVTo(w io.Writer, r *result.Result) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"Error class", "Count", "Share of failures and drops (%)", "HTTP statuses", "Endpoints", "What it means", "Sample messages"})
	bad := r.Totals.Failures + r.Totals.Dropped
	for _, e := range r.Errors {
		share := ""
		if bad > 0 {
			share = ftoa(100 * float64(e.Count) / float64(bad))
		}
		var samples string
		for i, m := range e.Samples {
			if i > 0 {
				samples += "; "
			}
			samples += fmt.Sprintf("%s (%d times", m.Message, m.Count)
			if m.Example != "" && m.Example != m.Message {
				samples += ", e.g. " + m.Example
			}
			samples += ")"
		}
		cw.Write([]string{sanitize.CSVCell(e.Class), itoa(e.Count), share, sanitize.CSVCell(countedAs(e.Statuses, "%s: %d")),
			sanitize.CSVCell(countedAs(e.Endpoints, "%s: %d")), sanitize.CSVCell(e.Hint), sanitize.CSVCell(samples)})
	}
	cw.Flush()
	return cw.Error()
}

// CapacityCSVTo writes the steps of r's capacity search as CSV, in the
// order they ran: the level, the judged window's throughput, latency and
// errors, and the step's verdict. It writes only the header for a result
// without a search.
func CapacityCSVTo(w io.Writer, r *result.Result) error {
	cw := csv.NewWriter(w)
	level := "Level (users)"
	if r.Capacity != nil && r.Capacity.Model == "rate" {
		level = "Level (arrivals/s)"
	}
	cw.Write([]string{level, "Phase", "Start (s since the search began)", "Judged (s)", "Requests", "Failures", "Dropped",
		"Throughput (requests/s)", "Successful throughput (requests/s)",
		"Latency min (ms)", "Latency mean (ms)", "Latency p50 (ms)", "Latency p90 (ms)", "Latency p95 (ms)",
		"Latency p99 (ms)", "Latency p99.9 (ms)", "Latency max (ms)",
		"Error rate (%)", "Dominant error", "Generator CPU (% of all cores)", "OK", "Reason", "Broken objectives", "Detail"})
	if r.Capacity != nil {
		for _, st := range r.Capacity.Steps {
			l := st.Latency
			cw.Write([]string{ftoa(st.Level), st.Phase, ftoa(st.StartS), ftoa(st.JudgedS), itoa(st.Requests), itoa(st.Failures), itoa(st.Dropped),
				ftoa(st.RPS), ftoa(st.OKRPS),
				ftoa(l.Min), ftoa(l.Mean), ftoa(l.P50), ftoa(l.P90), ftoa(l.P95), ftoa(l.P99), ftoa(l.P999), ftoa(l.Max),
				ftoa(100 * st.ErrorRate), sanitize.CSVCell(st.DominantError), ftoa(st.GeneratorCPUPercent), strconv.FormatBool(st.OK),
				sanitize.CSVCell(st.Reason), sanitize.CSVCell(strings.Join(st.Broken, "; ")), sanitize.CSVCell(st.Detail)})
		}
	}
	cw.Flush()
	return cw.Error()
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// ftoa formats x for a spreadsheet: as short as it is exact, at most three
// decimals (a microsecond for milliseconds).
func ftoa(x float64) string { return strconv.FormatFloat(round3(x), 'f', -1, 64) }
