package result

// An Excursion is a dip or a spike of the run's throughput or latency: one or
// more seconds away from the level around them, and back.
type Excursion struct {
	Series string `json:"series"` // Throughput or Latency
	Kind   string `json:"kind"`   // Dip or Spike
	// AtS is when it started, seconds since the run's start; LastedS how
	// long it lasted.
	AtS     float64 `json:"at_s"`
	LastedS float64 `json:"lasted_s"`
	// Baseline is the level around it and Extreme its lowest (a dip) or
	// highest (a spike) second: successful responses per second for
	// throughput, p95 in milliseconds for latency.
	Baseline float64 `json:"baseline"`
	Extreme  float64 `json:"extreme"`
}

// The series and kinds of excursions.
const (
	Throughput = "throughput"
	Latency    = "latency"
	Dip        = "dip"
	Spike      = "spike"
)

// A Periodicity is a run of three or more excursions of one series and kind
// at a regular interval.
type Periodicity struct {
	Series string    `json:"series"`
	Kind   string    `json:"kind"`
	Count  int       `json:"count"`
	EveryS float64   `json:"every_s"`
	AtS    []float64 `json:"at_s"`
}

// A Moved finding ranks the monitored series that moved with something
// the run found: a group of dips or spikes, a collapse, or the run as a
// whole.
type Moved struct {
	// Finding names what moved the series: "throughput dips", "latency
	// spike at 12s", "collapse", "the run".
	Finding string `json:"finding"`
	// Events is how many excursions the finding covers.
	Events int `json:"events"`
	// Line says it in one line, as the summary prints it.
	Line   string        `json:"line"`
	Series []MovedSeries `json:"series"`
}

// A MovedSeries is a monitored series that moved with a finding.
type MovedSeries struct {
	Source string `json:"source"`
	Series string `json:"series"`
	Unit   string `json:"unit"`
	// From and To are its usual level before the events and the level it
	// reached in them (medians over the events).
	From float64 `json:"from"`
	To   float64 `json:"to"`
	// LeadS is how much earlier than the events it moved, in seconds
	// (median over the events); 0 at the same second.
	LeadS float64 `json:"lead_s"`
	// Moved is in how many of the finding's events it moved.
	Moved int `json:"moved"`
	// Strength is its move over its usual variation; Correlation, for the
	// run as a whole, the Pearson correlation with throughput or latency.
	Strength    float64 `json:"strength"`
	Correlation float64 `json:"correlation,omitempty"`
}
