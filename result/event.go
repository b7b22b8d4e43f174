package result

// An Event is a change made to a run while it went, from the live page or
// its API: a point on the run's timeline.
type Event struct {
	T float64 `json:"t"` // seconds since the run's start
	// Kind is "stop", "abort", "load" (a new level), "hold" or "resume".
	Kind     string `json:"kind"`
	Scenario string `json:"scenario,omitempty"`
	// Level and Unit, for a new level: users, or arrivals per second.
	Level float64 `json:"level,omitempty"`
	Unit  string  `json:"unit,omitempty"`
	// By says who made the change: "the live page" or "the API".
	By string `json:"by"`
}
