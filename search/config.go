package search

import (
	"context"
	"errors"
	"math"
	"time"

	"github.com/surge-load/surge"
	"github.com/surge-load/surge/analysis"
	"github.com/surge-load/surge/result"
)

// A Model says what a load level counts.
type Model string

// The load models a search steps through.
const (
	Users Model = "users" // virtual users of the closed model
	Rate  Model = "rate"  // arrivals per second of the open model
)

// A Build returns the plan that holds load level for d: level virtual
// users (Users) or arrivals per second (Rate). The search sets the plan's
// Warmup and Thresholds itself.
type Build func(level float64, d time.Duration) (*surge.Plan, error)

// Defaults of a Config's zero fields.
const (
	DefaultFactor     = 2
	DefaultStep       = 10 * time.Second
	DefaultBudget     = 5 * time.Minute
	DefaultResolution = 0.05
)

// DefaultObjectives are the objectives of a Config without any: p95 under
// one second and errors under 1%.
func DefaultObjectives() []analysis.Threshold {
	var ts []analysis.Threshold
	for _, expr := range []string{"p95<1000ms", "errors<1%"} {
		t, err := analysis.ParseThreshold(expr)
		if err != nil {
			continue // unreachable: the expressions are valid
		}
		ts = append(ts, t)
	}
	return ts
}

// Config describes a search.
type Config struct {
	Model Model
	Build Build
	// Start is the first level; for Users it is rounded up to a whole
	// number of users.
	Start float64
	// Each step multiplies the level by Factor (more than 1) or, if Add is
	// not zero, adds Add. Zero for both means a Factor of DefaultFactor.
	Factor float64
	Add    float64
	// Max is the highest level to try; zero means no limit but the budget.
	Max float64
	// Step is how long each level is held, DefaultStep if zero; Warmup is
	// the part at its start that is not judged, none if zero.
	Step   time.Duration
	Warmup time.Duration
	// Budget bounds the whole search, DefaultBudget if zero: a step is
	// started only if it fits in what is left.
	Budget time.Duration
	// Resolution ends the narrowing once the bad level is within this
	// fraction of the good one (one user apart, at least, for Users);
	// DefaultResolution if zero.
	Resolution float64
	// Objectives judge every step; DefaultObjectives if empty.
	Objectives []analysis.Threshold
	// Options are passed to every step's surge.Run: Abort and Progress.
	Options surge.Options
	// OnStep, if not nil, is called after every step.
	OnStep func(result.CapacityStep)
	// Checkpoint, if not nil, receives the search so far after every step
	// and, during a step, about every Options.CheckpointEvery (10 seconds if
	// zero): a result document marked incomplete (result.Run.Incomplete)
	// whose Capacity holds the steps finished, so that a generator killed
	// mid-search keeps them. It is called one call at a time; Run returns
	// only after the last call has returned. Options.Checkpoint is not used.
	Checkpoint func(*result.Result)
	// Cooldown is a pause before every step after the first, so that a
	// service that degrades under load (a queue draining, memory being
	// freed) starts each step as it would start a run; none if zero.
	Cooldown time.Duration
	// HealthCheck, if not nil, is asked before every step after the first,
	// once the cool-down is over, whether the service is healthy; a step
	// that starts with it unhealthy says so, and so does the verdict.
	// HealthGET makes one from a URL.
	HealthCheck func(ctx context.Context) error
	// NoConfirm skips the confirmation: by default a search that names a
	// maximum holds that level once more (phase "confirm"), and the verdict
	// says whether the service still met the objectives there.
	NoConfirm bool
}

// goNames are the names of the checked fields in the errors of Run.
var goNames = map[field]string{
	fieldModel: "model", fieldStart: "start", fieldFactor: "factor", fieldAdd: "increment", fieldMax: "maximum",
	fieldStep: "step", fieldWarmup: "warm-up", fieldBudget: "budget", fieldResolution: "resolution",
}

// withDefaults validates c and fills in the defaults of its zero fields.
func (c Config) withDefaults() (Config, error) {
	if c.Build == nil {
		return c, errors.New("search: Build is nil")
	}
	if c.Model == Users {
		c.Start = math.Ceil(c.Start)
	}
	if c.Factor == 0 && c.Add == 0 {
		c.Factor = DefaultFactor
	}
	if c.Step == 0 {
		c.Step = DefaultStep
	}
	if c.Budget == 0 {
		c.Budget = DefaultBudget
	}
	if c.Resolution == 0 {
		c.Resolution = DefaultResolution
	}
	if len(c.Objectives) == 0 {
		c.Objectives = DefaultObjectives()
	}
	l := levels{model: c.Model, start: c.Start, factor: c.Factor, add: c.Add, max: c.Max, resoln: c.Resolution, step: c.Step, warmup: c.Warmup, budget: c.Budget}
	if ps := l.check(func(f field) string { return goNames[f] }); len(ps) > 0 {
		return c, errors.New("search: " + ps[0].msg)
	}
	return c, nil
}
