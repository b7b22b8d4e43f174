package result

// Saturation says when sends were delayed by the load generator or its
// machine: the generator's CPU was busy, arrivals were handed out late, or
// goroutines waited for a CPU. Results of the Intervals may describe the
// generator's machine rather than the server; the rest are trustworthy.
type Saturation struct {
	// TrustworthyUntilS is the start of the first saturated interval, in
	// seconds since the run's start.
	TrustworthyUntilS float64 `json:"trustworthy_until_s"`
	// SaturatedS is how long the generator was saturated, in all.
	SaturatedS float64 `json:"saturated_s"`
	// Causes name what was saturated: "cpu" (CPU at 90% or more of its
	// cores), "lag" (scheduled work started 50 ms or more late, p99) and
	// "runq" (goroutines waited 50 ms or more for a CPU, p99).
	Causes []string `json:"causes"`
	// Cause says whose the delay was: CauseGenerator when the generator's
	// own CPU was busy, CauseMachineBusy when sends were delayed while it
	// was not (other processes or a CPU quota took the CPU).
	Cause string `json:"cause"`
	// Intervals are the saturated stretches of the run; only they are not
	// trustworthy.
	Intervals []Span `json:"intervals"`
}

// The causes of a Saturation.
const (
	CauseGenerator   = "generator"
	CauseMachineBusy = "machine_busy"
)

// A Span is a stretch of a run, in seconds since its start.
type Span struct {
	FromS float64 `json:"from_s"`
	ToS   float64 `json:"to_s"`
}
