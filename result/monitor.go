package result

import (
	"encoding/json"
	"math"
)

// Monitor holds what the monitored servers did during the run: one
// MonitorSource per source the user named (--monitor NAME=SPEC, or a
// scenario file's monitor: map), each sampled on the run's timeline.
type Monitor struct {
	// Segment is the index of the segment that sampled the sources: in a
	// split plan only segment 0 monitors, so a server is watched once, not
	// once per generator.
	Segment int             `json:"segment"`
	Sources []MonitorSource `json:"sources"`
}

// A MonitorSource is one monitored source and its series.
type MonitorSource struct {
	Name string `json:"name"` // the user's name for it, as in thresholds (NAME.SERIES)
	Spec string `json:"spec"` // as given: process:nginx, cgroup:/sys/fs/cgroup/..., host, prometheus:URL
	Kind string `json:"kind"` // process, cgroup, host or prometheus
	// IntervalS is the sampling interval in seconds.
	IntervalS float64 `json:"interval_s"`
	// CPULimitCores is the CPU the source may use, in cores: the cgroup's
	// cpu.max, else the machine's cores. Zero if unknown (a remote
	// endpoint).
	CPULimitCores float64 `json:"cpu_limit_cores,omitempty"`
	// MemoryLimitBytes is the memory the source may use: the cgroup's
	// memory.max, else the machine's memory. Zero if unknown.
	MemoryLimitBytes int64 `json:"memory_limit_bytes,omitempty"`
	// T holds the start of each sampled interval, in seconds since the
	// run's start, on the same axis as the load's series: the values at
	// index i describe the interval [T[i], T[i]+IntervalS).
	T      []float64       `json:"t"`
	Series []MonitorSeries `json:"series"`
	// Gaps are the intervals that have no sample, and why.
	Gaps []MonitorGap `json:"gaps"`
	// Notes say what the source cannot measure at all (a cgroup without
	// the memory controller, series left out by a limit).
	Notes []string `json:"notes,omitempty"`
}

// A MonitorSeries is one measured quantity of a source: a value per
// interval of the source's T, NaN (null in JSON) where the sample lacked it.
type MonitorSeries struct {
	// Name is cpu, memory, fds, threads, … for the built-in sources, or
	// m:METRIC{label="v",…} for a scraped metric (labels sorted by name).
	Name string `json:"name"`
	// Unit is "%" (CPU: percent of one core), "bytes", "bytes/s", "/s"
	// (a counter's rate) or "" (a count or a gauge's own unit).
	Unit   string        `json:"unit"`
	Values MonitorValues `json:"values"`
}

// A MonitorGap is a run of intervals a source has no sample for.
type MonitorGap struct {
	T         float64 `json:"t"` // start, seconds since the run's start
	DurationS float64 `json:"duration_s"`
	Reason    string  `json:"reason"`
}

// MonitorValues are a series' values; NaN, a missing value, is null in
// JSON.
type MonitorValues []float64

// MarshalJSON writes NaN as null.
func (v MonitorValues) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, 8*len(v)+2)
	b = append(b, '[')
	for i, x := range v {
		if i > 0 {
			b = append(b, ',')
		}
		if math.IsNaN(x) || math.IsInf(x, 0) {
			b = append(b, "null"...)
			continue
		}
		xb, err := json.Marshal(x)
		if err != nil {
			return nil, err
		}
		b = append(b, xb...)
	}
	return append(b, ']'), nil
}

// UnmarshalJSON reads null as NaN.
func (v *MonitorValues) UnmarshalJSON(b []byte) error {
	var raw []*float64
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	out := make(MonitorValues, len(raw))
	for i, p := range raw {
		out[i] = math.NaN()
		if p != nil {
			out[i] = *p
		}
	}
	*v = out
	return nil
}

// Source returns the monitored source named name, or nil.
func (m *Monitor) Source(name string) *MonitorSource {
	if m == nil {
		return nil
	}
	for i := range m.Sources {
		if m.Sources[i].Name == name {
			return &m.Sources[i]
		}
	}
	return nil
}

// Find returns the source's series named name, or nil.
func (s *MonitorSource) Find(name string) *MonitorSeries {
	for i := range s.Series {
		if s.Series[i].Name == name {
			return &s.Series[i]
		}
	}
	return nil
}

// Within returns the values of vals (a series of s) sampled in the
// measured period of r, the warm-up and the drain after the load left out,
// missing values skipped.
func (s *MonitorSource) Within(r *Result, vals MonitorValues) []float64 {
	from := 0.0
	if r.Warmup != nil {
		from = r.Warmup.DurationS
	}
	var xs []float64
	for i, v := range vals {
		if i < len(s.T) && s.T[i] >= from && s.T[i] < r.Run.DurationS && !math.IsNaN(v) {
			xs = append(xs, v)
		}
	}
	return xs
}
