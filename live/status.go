package live

import (
	"slices"

	"github.com/surge-load/surge"
	"github.com/surge-load/surge/result"
)

// Status is the run as GET /api/status reports it.
type Status struct {
	// State is "waiting" (not started), "running" or "done".
	State     string                   `json:"state"`
	ElapsedS  float64                  `json:"elapsed_s"`
	PlannedS  float64                  `json:"planned_s"`
	Scenarios []surge.ScenarioControl  `json:"scenarios"`
	Requests  int64                    `json:"requests"` // so far, warm-up included
	Failures  int64                    `json:"failures"`
	Dropped   int64                    `json:"dropped"`
	Last      *LastSecond              `json:"last_second,omitempty"`
	Totals    result.Stats             `json:"totals"`
	Endpoints []result.EndpointStats   `json:"endpoints"`
	Errors    []result.ErrorStats      `json:"errors"`
	Threshold []result.ThresholdResult `json:"thresholds"`
	Timeline  []result.Event           `json:"timeline"`
}

// LastSecond is the last interval of the series.
type LastSecond struct {
	Users     int64                 `json:"users"`
	RPS       float64               `json:"rps"`
	Failures  int64                 `json:"failures"`
	Latency   result.Percentiles    `json:"latency_ms"`
	Generator result.GeneratorPoint `json:"generator"`
}

func (s *Server) status(r *result.Result, state string) Status {
	st := Status{
		State:     state,
		PlannedS:  s.cfg.Planned.Seconds(),
		Scenarios: s.cfg.Control.Scenarios(),
		Totals:    r.Totals,
		Endpoints: slices.Clone(r.Endpoints),
		Errors:    r.Errors,
		Threshold: r.Thresholds,
		Timeline:  r.Timeline,
	}
	st.Totals.LatencyHistogram, st.Totals.ServiceTimeHistogram = "", ""
	for i := range st.Endpoints {
		st.Endpoints[i].LatencyHistogram, st.Endpoints[i].ServiceTimeHistogram = "", ""
	}
	for _, p := range r.Series {
		st.Requests += p.Requests
		st.Failures += p.Failures
		st.Dropped += p.Dropped
		st.ElapsedS = p.T + p.DurationS
	}
	if n := len(r.Series); n > 0 {
		p := r.Series[n-1]
		st.Last = &LastSecond{Users: p.Users, RPS: p.RPS, Failures: p.Failures, Latency: p.Latency, Generator: p.Generator}
	}
	if st.Timeline == nil {
		st.Timeline = s.cfg.Control.Events()
	}
	if st.Timeline == nil {
		st.Timeline = []result.Event{}
	}
	return st
}
