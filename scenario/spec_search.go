package scenario

import "time"

// A SearchModel is what a search's level counts: "users" (the closed
// model, each scenario's peak users) or "rate" (the open model, each
// scenario's peak arrivals per second).
type SearchModel string

// A Search makes a scenario file a breaking-point search, as surge
// find-max runs it: instead of running the file's load once, every
// scenario's peak load steps up level by level, each step judged against
// the thresholds, until a level fails; then the search narrows between the
// last good and the first bad level. Zero fields take find-max's defaults.
// Compile does not read it: search.ConfigFrom makes a search's
// configuration of it and the command line's flags, and checks it.
//
// It is also the levels and durations of a search.Config, which embeds it:
// a search's settings are declared here only.
type Search struct {
	Model SearchModel
	// Start is the first level.
	Start float64
	// Each step multiplies the level by Factor (more than 1) or, if Add is
	// not zero, adds Add.
	Factor float64
	Add    float64
	// Max is the highest level to try; zero means no limit but the budget.
	Max float64
	// Step is how long each level is held; the first Warmup of it is not
	// judged. Budget bounds the whole search: a step is started only if it
	// fits in what is left.
	Step   time.Duration
	Warmup time.Duration
	Budget time.Duration
}
