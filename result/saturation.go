package result

// Saturation says when the load generator itself was the bottleneck: its
// CPU was busy, or it started scheduled work late. Results up to
// TrustworthyUntilS describe the server; later ones may describe the
// generator.
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
}
