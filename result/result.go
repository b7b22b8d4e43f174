package result

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/surge-load/surge/atomicfile"
	"github.com/surge-load/surge/inputfile"
)

// SchemaVersion is the version of the result document written by this
// package. It changes only when a field changes meaning or disappears.
const SchemaVersion = 2

// A Result is everything a run measured: one JSON document, enough to
// print the summary, draw the report, evaluate thresholds and merge with the
// partial results of other machines. docs/result-schema.md describes it.
type Result struct {
	SchemaVersion int             `json:"schema_version"`
	Tool          Tool            `json:"tool"`
	Run           Run             `json:"run"`
	Plan          json.RawMessage `json:"plan,omitempty"` // the plan as run, secrets redacted
	Totals        Stats           `json:"totals"`
	Endpoints     []EndpointStats `json:"endpoints"`
	Errors        []ErrorStats    `json:"errors"`
	Series        []Point         `json:"series"`
	// EndpointSeriesOmitted counts the statistics rows with operations
	// that the series has no points of their own for: a run keeps them for
	// its first 100 rows (metrics.MaxSeriesEndpoints).
	EndpointSeriesOmitted int               `json:"endpoint_series_omitted,omitempty"`
	Thresholds            []ThresholdResult `json:"thresholds"`
	Generator             Generator         `json:"generator"`
	// Warmup, if the plan had a warm-up period, counts the operations the
	// totals, endpoints and thresholds leave out.
	Warmup *Warmup `json:"warmup,omitempty"`
	// Collapse, if not nil, says that the service stopped answering, or
	// that errors took over, after a peak.
	Collapse *Collapse `json:"collapse,omitempty"`
	// Capacity, if not nil, holds a search for the maximum sustainable
	// load: every step and the verdict.
	Capacity *Capacity `json:"capacity,omitempty"`
	// Monitor, if the run watched servers, holds their series.
	Monitor *Monitor `json:"monitor,omitempty"`
	// Timeline lists the changes made to the run while it went (the live
	// page, its API), in order.
	Timeline []Event `json:"timeline,omitempty"`
	// Excursions are the dips and spikes of throughput and latency, of any
	// length from one second; Periodic the ones that recur at a regular
	// interval.
	Excursions []Excursion   `json:"excursions,omitempty"`
	Periodic   []Periodicity `json:"periodic,omitempty"`
	// Moved ranks, for each group of events, the collapse and the run as
	// a whole, the monitored series that moved with them.
	Moved []Moved `json:"moved,omitempty"`
	// Outputs say what each output sent and dropped.
	Outputs []OutputStats `json:"outputs,omitempty"`
}

// Warmup counts the operations meant to start in the warm-up period at the
// beginning of a run. The series includes them; Totals, Endpoints, Errors
// and the thresholds do not.
type Warmup struct {
	DurationS float64 `json:"duration_s"` // the period, from the run's start
	Requests  int64   `json:"requests"`
	Failures  int64   `json:"failures"`
	Dropped   int64   `json:"dropped"`
}

// Tool names the program that wrote the result.
type Tool struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// Run describes when, where and how the run happened.
type Run struct {
	ID   string `json:"id"`
	Host string `json:"host"`
	// Target and Load describe the run for people: the base URL and the
	// load model in words ("open model: 100/s for 30s, up to 50 users").
	Target string    `json:"target"`
	Load   string    `json:"load"`
	Start  time.Time `json:"start"`
	End    time.Time `json:"end"`
	// DurationS is the active load period in seconds: from the start until
	// new work stopped, without the drain of in-flight operations. Rates are
	// per second of it.
	DurationS float64 `json:"duration_s"`
	Segment   Segment `json:"segment"`
	// PlanHash identifies the compiled plan the run ran (a SHA-256 of its
	// description, loads and thresholds, hex): the segments of one split
	// plan have the same, and Merge refuses parts whose hashes differ.
	PlanHash string `json:"plan_hash,omitempty"`
	// Merged, set on a merged result, says what it was merged from.
	Merged *Merged `json:"merged,omitempty"`
	// Interrupted is true when the run stopped before its plan ended.
	Interrupted bool   `json:"interrupted"`
	StopReason  string `json:"stop_reason,omitempty"`
	// Incomplete marks a checkpoint written while the run was still going:
	// it holds the first CoveredS seconds of the run. A result that is
	// still incomplete after the run means the generator was killed (or
	// crashed) before it could write the final one.
	Incomplete bool    `json:"incomplete,omitempty"`
	CoveredS   float64 `json:"covered_s,omitempty"`
	// Missing names the segments of a split run whose parts a merged
	// result lacks, and why. A merged result with any is incomplete: its
	// counts cover only the segments that reported.
	Missing []MissingSegment `json:"missing,omitempty"`
}

// A MissingSegment is a segment of a split run that no part came from.
type MissingSegment struct {
	Index  int    `json:"index"`
	Reason string `json:"reason"` // such as "never joined" or "stopped reporting 12s into the run"
}

// Merged says what a merged result holds: how many parts, and, for a split
// plan, which of its segments (Segment.Count of them in all).
type Merged struct {
	Parts    int   `json:"parts"`
	Segments []int `json:"segments,omitempty"`
}

// Segment says which part of a split plan this result holds: Index of Count.
type Segment struct {
	Index int `json:"index"`
	Count int `json:"count"`
}

// Stats summarise a set of operations: the whole run or one endpoint.
type Stats struct {
	// Requests counts the operations sent: successes and failures.
	Requests int64 `json:"requests"`
	Failures int64 `json:"failures"`
	// Dropped counts arrivals that were never sent because no virtual user
	// was free (open model). They are not in Requests.
	Dropped int64 `json:"dropped"`
	// NotSent counts steps that failed before anything was sent
	// (errclass.NotSent: a URL built at run time that does not parse, an
	// expression that failed). They are not in Requests.
	NotSent int64 `json:"not_sent,omitempty"`
	// ErrorRate is (Failures+Dropped+NotSent) / (Requests+Dropped+NotSent),
	// from 0 to 1.
	ErrorRate float64 `json:"error_rate"`
	// OKRPS is the successes (Requests − Failures) per second of the same
	// period, and OKLatency the latency of the successes alone: after a
	// collapse, instant failures inflate RPS and pull Latency down, these
	// do not. OKLatencyHistogram encodes it like LatencyHistogram.
	OKRPS              float64     `json:"ok_rps"`
	OKLatency          Percentiles `json:"ok_latency_ms"`
	OKLatencyHistogram string      `json:"ok_latency_histogram,omitempty"`
	// RPS is Requests per second of the run's active load period.
	RPS      float64 `json:"rps"`
	BytesIn  int64   `json:"bytes_in"`
	BytesOut int64   `json:"bytes_out"`
	// Interim counts informational responses (HTTP 1xx) received before
	// the final ones; they are not requests.
	Interim int64 `json:"interim_responses,omitempty"`
	// Protocols counts the responses by the HTTP version they came in
	// ("HTTP/1.1", "HTTP/2.0", "HTTP/3.0"); absent for other protocols.
	Protocols   map[string]int64 `json:"protocols,omitempty"`
	Latency     Percentiles      `json:"latency_ms"`
	ServiceTime Percentiles      `json:"service_time_ms"`
	Timing      TimingStats      `json:"timing_ms"`
	Statuses    map[string]int64 `json:"statuses"`
	// Errors counts failures by class.
	Errors map[string]int64 `json:"errors"`
	// The histograms, in microseconds, HdrHistogram V2 compressed base64.
	LatencyHistogram     string `json:"latency_histogram"`
	ServiceTimeHistogram string `json:"service_time_histogram"`
	// Streams, if the run had any, summarise its long-lived connections.
	Streams *StreamStats `json:"streams,omitempty"`
}

// EndpointStats are the Stats of one named endpoint.
type EndpointStats struct {
	Name string `json:"name"`
	Stats
}

// TimingStats break operations into phases, in milliseconds.
type TimingStats struct {
	Blocked PhaseStats `json:"blocked"`
	DNS     PhaseStats `json:"dns"`
	Connect PhaseStats `json:"connect"`
	TLS     PhaseStats `json:"tls"`
	Send    PhaseStats `json:"send"`
	Wait    PhaseStats `json:"wait"`
	Receive PhaseStats `json:"receive"`
	// ConnectSYNRetransmits counts connects that completed just after 1,
	// 3, 7, 15 or 31 s: the client's SYN was dropped and sent again, which
	// a server's full listen backlog causes (SYNRetransmitted).
	ConnectSYNRetransmits int64 `json:"connect_syn_retransmits,omitempty"`
}

// PhaseStats summarise one phase over all operations; a phase that did not
// happen (no connect on a reused connection) counts as zero in the mean.
type PhaseStats struct {
	Mean  float64 `json:"mean"`
	Max   float64 `json:"max"`
	SumUs int64   `json:"sum_us"`
}

// ErrorStats count the failures of one class across the run.
type ErrorStats struct {
	Class     string           `json:"class"`
	Count     int64            `json:"count"`
	Hint      string           `json:"hint"`
	Statuses  map[string]int64 `json:"statuses,omitempty"`
	Endpoints map[string]int64 `json:"endpoints,omitempty"`
	Samples   []Message        `json:"samples,omitempty"`
}

// A Message is the template of error messages of one cause (numbers, ids,
// UUIDs and hex replaced, as errclass.Template does), how often it occurred,
// one whole message of it as an example, and its count per endpoint.
type Message struct {
	Message   string           `json:"message"`
	Example   string           `json:"example,omitempty"`
	Count     int64            `json:"count"`
	Endpoints map[string]int64 `json:"endpoints,omitempty"`
}

// A Point is one interval (normally one second) of the run.
type Point struct {
	T         float64          `json:"t"` // start of the interval, seconds since the run's start
	DurationS float64          `json:"duration_s"`
	Users     int64            `json:"users"` // live virtual users at the end of the interval
	Busy      int64            `json:"busy"`  // of those, inside an iteration
	Requests  int64            `json:"requests"`
	Failures  int64            `json:"failures"`
	Dropped   int64            `json:"dropped"`
	RPS       float64          `json:"rps"`
	Errors    map[string]int64 `json:"errors,omitempty"`
	Latency   Percentiles      `json:"latency_ms"`
	// LatencyHistogram lets merged results rebuild the point exactly.
	LatencyHistogram string         `json:"latency_histogram,omitempty"`
	Generator        GeneratorPoint `json:"generator"`
	// Streams, once the run has had any, counts its long-lived connections.
	Streams *StreamPoint `json:"streams,omitempty"`
	// Endpoints are the shares of the statistics rows that completed
	// operations in the interval, in the order the rows were first used.
	// Results written before surge kept them have none.
	Endpoints []EndpointPoint `json:"endpoints,omitempty"`
}

// An EndpointPoint is one statistics row's share of a Point: the operations
// of the row that completed in the interval (the warm-up's too, as in the
// Point) and their latency, with its histogram so that merged results
// rebuild it exactly.
type EndpointPoint struct {
	Name             string      `json:"name"`
	Requests         int64       `json:"requests"`
	Failures         int64       `json:"failures"`
	Latency          Percentiles `json:"latency_ms"`
	LatencyHistogram string      `json:"latency_histogram,omitempty"`
}

// GeneratorPoint is the load generator's own state over one interval.
type GeneratorPoint struct {
	CPUPercent float64 `json:"cpu_percent"` // of all cores: 100 means every core busy
	Goroutines int     `json:"goroutines"`
	HeapBytes  uint64  `json:"heap_bytes"`
	GCPauseMs  float64 `json:"gc_pause_ms"` // total stop-the-world pause in the interval
	FDs        int     `json:"fds"`         // open file descriptors; -1 if unknown
	LagP99Ms   float64 `json:"lag_p99_ms"`  // scheduling lag of work started in the interval
	LagMaxMs   float64 `json:"lag_max_ms"`
	// Arrivals counts the arrivals the open and burst models handed out
	// in the interval, and LateArrivals those handed out 50 ms or more
	// after their time (metrics.LateArrival): delayed sends, whose latency
	// then holds the generator's delay. A think time that overslept is in
	// LagP99Ms only: it delays no latency.
	Arrivals     int64 `json:"arrivals,omitempty"`
	LateArrivals int64 `json:"late_arrivals,omitempty"`
	// GCCycles and GCPauseMaxMs are the garbage collections that ended in
	// the interval and the longest of their stop-the-world pauses.
	GCCycles     int     `json:"gc_cycles"`
	GCPauseMaxMs float64 `json:"gc_pause_max_ms"`
	// RunqP99Ms is how long goroutines that were ready to run waited for a
	// CPU, 99th percentile: the Go runtime's own scheduling latency.
	RunqP99Ms float64 `json:"runq_p99_ms"`
}

// Generator summarises the load generator's health over the whole run.
type Generator struct {
	Cores          int         `json:"cores"`
	CPUPercentMean float64     `json:"cpu_percent_mean"`
	CPUPercentMax  float64     `json:"cpu_percent_max"`
	Lag            Percentiles `json:"lag_ms"`
	LagHistogram   string      `json:"lag_histogram"`
	GCPauseTotalMs float64     `json:"gc_pause_total_ms"`
	GCPauseMaxMs   float64     `json:"gc_pause_max_ms"`
	GCCycles       int         `json:"gc_cycles"`
	RunqP99MaxMs   float64     `json:"runq_p99_max_ms"` // the worst interval's RunqP99Ms
	GoroutinesMax  int         `json:"goroutines_max"`
	HeapBytesMax   uint64      `json:"heap_bytes_max"`
	FDsMax         int         `json:"fds_max"`
	// Saturation, if not nil, says that the generator itself was the
	// bottleneck for part of the run, so that results from then on may
	// describe the generator rather than the server. Nil means the results
	// are trustworthy throughout.
	Saturation *Saturation `json:"saturation,omitempty"`
	// Warnings say when and why results may not be trustworthy because the
	// generator itself was the bottleneck.
	Warnings []string `json:"warnings"`
}

// A ThresholdResult is one threshold and its verdict.
type ThresholdResult struct {
	Expr     string `json:"expr"`
	OK       bool   `json:"ok"`
	Endpoint string `json:"endpoint,omitempty"`
	// Source is the monitored source a threshold on a server's series
	// judges (api in api.cpu<30%).
	Source string  `json:"source,omitempty"`
	Metric string  `json:"metric"`
	Actual float64 `json:"actual"`
	Limit  float64 `json:"limit"`
	Unit   string  `json:"unit"` // "ms", "%", "/s" or "" for counts
	// Note says why a threshold could not be judged, which fails it.
	Note string `json:"note,omitempty"`
}

// WriteFile writes r as indented JSON to path, atomically: a failed write
// (a full disk) leaves the previous file at path as it was.
func (r *Result) WriteFile(path string) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return fmt.Errorf("encode result: %w", err)
	}
	if err := atomicfile.WriteBytes(path, append(b, '\n')); err != nil {
		return fmt.Errorf("result: %w", err)
	}
	return nil
}

// MaxFileBytes is the size limit of a result file that ReadFile reads.
const MaxFileBytes = 1 << 30

// ReadFile reads a result written by WriteFile (at most MaxFileBytes; a
// pipe or device is read up to the limit too) and decodes it with Decode.
func ReadFile(path string) (*Result, error) {
	b, err := inputfile.Read(path, "result file", MaxFileBytes, true)
	if err != nil {
		return nil, fmt.Errorf("read result: %w", err)
	}
	r, err := Decode(b)
	if err != nil {
		return nil, fmt.Errorf("%s %w", path, err)
	}
	return r, nil
}

// Decode decodes a result document, rejecting unknown schema versions, and
// sanitizes it (Result.Sanitize): a document from anywhere shows no secret
// and no raw control character. Any input gives a result or an error, never
// a panic (FuzzDecode).
func Decode(b []byte) (*Result, error) {
	var r Result
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("is not a surge result (the JSON document surge run --out writes): %s", jsonProblem(b, err))
	}
	switch r.SchemaVersion {
	case SchemaVersion:
	case 1:
		// Version 2 only added fields (monitor): a version 1 document
		// reads as a version 2 one without them.
		r.SchemaVersion = SchemaVersion
	default:
		return nil, fmt.Errorf("has schema_version %d; this surge reads versions 1 to %d", r.SchemaVersion, SchemaVersion)
	}
	r.Sanitize()
	return &r, nil
}

// jsonProblem says what err, from decoding b, found wrong, where, in the
// user's terms rather than Go's: the line and column of a syntax error,
// the field of a value of the wrong kind.
func jsonProblem(b []byte, err error) string {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case len(bytes.TrimSpace(b)) == 0:
		return "the file is empty"
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.As(err, &syn) && syn.Offset >= int64(len(b)):
		return "the JSON ends early: the file was cut short"
	case errors.As(err, &syn):
		line, col := lineCol(b, syn.Offset)
		return fmt.Sprintf("not JSON at line %d, column %d: %s", line, col, syn.Error())
	case errors.As(err, &typ):
		at := "the document"
		if typ.Field != "" {
			at = "field " + typ.Field
		}
		return fmt.Sprintf("%s holds a JSON %s, not what a result has there", at, typ.Value)
	}
	return err.Error()
}

// lineCol returns the line and column (from 1) of byte offset off of b,
// where a JSON decoder stopped (the offset is just past the bad byte).
func lineCol(b []byte, off int64) (line, col int) {
	off = min(max(off-1, 0), int64(len(b)))
	before := b[:off]
	line = 1 + bytes.Count(before, []byte("\n"))
	col = int(off) - bytes.LastIndexByte(before, '\n')
	return line, col
}

// OutputStats say what one output (--output KIND=URL) sent while the run
// went. Points are seconds of the run; a point is dropped when the
// output's queue was full (the backend was slow) or its write failed.
type OutputStats struct {
	Kind          string `json:"kind"`
	Target        string `json:"target"` // credentials redacted
	Points        int64  `json:"points"`
	Sent          int64  `json:"sent"`
	Dropped       int64  `json:"dropped"`
	DroppedQueue  int64  `json:"dropped_queue_full"`
	DroppedFailed int64  `json:"dropped_failed"`
	LastError     string `json:"last_error,omitempty"`
	// Note says what the backend refused without points being lost.
	Note            string `json:"note,omitempty"`
	FlushedWithinMs int64  `json:"flush_limit_ms"` // how long the final flush could take
}
