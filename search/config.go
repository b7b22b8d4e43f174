package search

import (
	"context"
	"errors"
	"math"
	"time"

	"github.com/surge-load/surge"
	"github.com/surge-load/surge/analysis"
	"github.com/surge-load/surge/result"
	"github.com/surge-load/surge/scenario"
)

// A Model says what a load level counts.
type Model = scenario.SearchModel

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
	// Search holds the levels and durations: the Model, Users or Rate; the
	// first level Start, for Users rounded up to a whole number of users;
	// Factor or Add, a Factor of DefaultFactor if both are zero; Max; Step,
	// DefaultStep if zero; Warmup, none if zero; Budget, DefaultBudget if
	// zero.
	scenario.Search
	Build Build
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
	l := levels{Search: c.Search, resoln: c.Resolution}
	if ps := l.check(func(f field) string { return goNames[f] }); len(ps) > 0 {
		return c, errors.New("search: " + ps[0].msg)
	}
	return c, nil
}
