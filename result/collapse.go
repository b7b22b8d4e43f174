package result

// The kinds of Collapse.
const (
	// CollapseStopped: successful responses fell to near zero while load
	// was still offered.
	CollapseStopped = "stopped_answering"
	// CollapseErrors: failures took over from successes.
	CollapseErrors = "errors"
)

// A Collapse is the service giving way after a peak: it stopped answering,
// or errors took over, while load was still offered. Throughput here is
// successful responses per second.
type Collapse struct {
	Kind string `json:"kind"` // CollapseStopped or CollapseErrors
	// PeakRPS is the highest throughput, averaged over a few seconds, and
	// PeakAtS the start of the middle one of those seconds, since the
	// run's start.
	PeakRPS float64 `json:"peak_rps"`
	PeakAtS float64 `json:"peak_at_s"`
	// AtS is when the collapse began, and AfterPeakS how long after the
	// peak that was.
	AtS        float64 `json:"at_s"`
	AfterPeakS float64 `json:"after_peak_s"`
	// LastedS is how long it lasted: until the throughput recovered, or
	// until the end of the load.
	LastedS   float64 `json:"lasted_s"`
	Recovered bool    `json:"recovered"`
	// RPS is the throughput and ErrorRate the share of failed or dropped
	// operations during the collapse.
	RPS       float64 `json:"rps"`
	ErrorRate float64 `json:"error_rate"`
	// DominantError is the most frequent error class during the collapse;
	// empty when nothing failed (the service simply stopped answering).
	DominantError string `json:"dominant_error,omitempty"`
}
