package result

// The reasons of a CapacityVerdict and a failed CapacityStep.
const (
	// The service's breaking point.
	ReasonLatency   = "latency"           // a latency objective broke
	ReasonErrors    = "errors"            // an error objective broke
	ReasonObjective = "objective"         // another objective (rps, counts) broke
	ReasonPlateau   = "plateau"           // more load gave no more throughput
	ReasonStopped   = "stopped_answering" // the service collapsed
	// ReasonNotSustained: in the open model, less completed than was
	// offered, by more than the search's margin.
	ReasonNotSustained = "not_sustained"
	// No breaking point about the service.
	ReasonGenerator   = "generator_saturated" // the generator, not the service, was the bottleneck
	ReasonMaxReached  = "max_reached"         // every level up to the maximum met the objectives
	ReasonBudget      = "budget"              // the time budget ran out before a level failed
	ReasonInterrupted = "interrupted"         // the search was stopped
)

// Capacity is a search for the maximum sustainable load (surge find-max):
// the load stepped up, each step judged against the objectives after its
// warm-up, then narrowed between the last good and the first bad level.
type Capacity struct {
	// Model is what a level counts: "users" (closed model) or "rate"
	// (open model, arrivals per second).
	Model string `json:"model"`
	// Objectives are the thresholds each step was judged by.
	Objectives []string `json:"objectives"`
	// StepS is the length of every step, WarmupS the part of it at the
	// start that was not judged, and BudgetS the time allowed for the
	// whole search.
	StepS   float64         `json:"step_s"`
	WarmupS float64         `json:"warmup_s"`
	BudgetS float64         `json:"budget_s"`
	Steps   []CapacityStep  `json:"steps"` // in the order run
	Verdict CapacityVerdict `json:"verdict"`
}

// A CapacityStep is one level held for a step. Every figure is of its
// judged window: the operations meant to start after the warm-up, except
// the throughput, which is what completed inside the window.
type CapacityStep struct {
	Level float64 `json:"level"` // users, or arrivals per second
	Phase string  `json:"phase"` // "step" while stepping up, "narrow" between good and bad, "confirm" the maximum held again
	// Health, if the search checks the service's health between steps,
	// says why it was unhealthy before this step; empty if it was healthy
	// or not checked.
	Health string  `json:"health,omitempty"`
	StartS float64 `json:"start_s"` // since the search started
	// JudgedS is the length of the judged window.
	JudgedS  float64 `json:"judged_s"`
	Requests int64   `json:"requests"`
	Failures int64   `json:"failures"`
	Dropped  int64   `json:"dropped"`
	// RPS counts the operations that completed inside the judged window
	// (by the series), per second of it; OKRPS those that succeeded.
	RPS           float64     `json:"rps"`
	OKRPS         float64     `json:"ok_rps"`
	Latency       Percentiles `json:"latency_ms"`
	ErrorRate     float64     `json:"error_rate"`
	DominantError string      `json:"dominant_error,omitempty"`
	// GeneratorCPUPercent is the generator's busiest second of the judged
	// window, of all its cores.
	GeneratorCPUPercent float64 `json:"generator_cpu_percent"`
	OK                  bool    `json:"ok"`
	// Reason says why the step failed (see the Reason constants), and
	// Broken the objectives it broke with their actual values.
	Reason string   `json:"reason,omitempty"`
	Broken []string `json:"broken,omitempty"`
	// Detail says in words why the step failed.
	Detail string `json:"detail,omitempty"`
}

// A CapacityVerdict is the outcome of a capacity search.
type CapacityVerdict struct {
	// OutOfOrder, if not empty, says which steps contradict each other: a
	// level that failed below one that passed, or stopped answering below
	// one that still answered. The service then changed during the search
	// (it degrades with time or with the load it took), and the levels say
	// less than they seem to.
	OutOfOrder string `json:"out_of_order,omitempty"`
	// Confirmed says whether the maximum held again at the end of the
	// search (the confirm step) met the objectives; nil if it was not
	// held again.
	Confirmed *bool `json:"confirmed,omitempty"`
	// Reason is why the load could not go higher (see the Reason
	// constants): the service's breaking point, or why none was found.
	Reason string `json:"reason"`
	// Conclusive is true when Reason is the service's breaking point,
	// judged on trustworthy measurements.
	Conclusive bool `json:"conclusive"`
	// MaxLevel is the highest level that met every objective, with the
	// throughput and p95 latency it gave; zero when none did.
	MaxLevel float64 `json:"max_level"`
	MaxRPS   float64 `json:"max_rps"`
	MaxP95Ms float64 `json:"max_p95_ms"`
	// FailedLevel is the lowest level that failed; zero when none did.
	FailedLevel   float64 `json:"failed_level,omitempty"`
	DominantError string  `json:"dominant_error,omitempty"`
	// Concurrency is, for a plateau, the number of requests in the system
	// that Little's law gives at the failed level: throughput × mean
	// latency.
	Concurrency float64 `json:"concurrency,omitempty"`
	// Detail says the verdict in words.
	Detail string `json:"detail"`
}
