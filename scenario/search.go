package scenario

import "time"

// A Search makes a scenario file a breaking-point search, as surge
// find-max runs it: instead of running the file's load once, every
// scenario's peak load steps up level by level, each step judged against
// the thresholds, until a level fails; then the search narrows between the
// last good and the first bad level. Zero fields take find-max's defaults.
type Search struct {
	// Model is what a level counts: "users" (the closed model, each
	// scenario's peak users) or "rate" (the open model, each scenario's
	// peak arrivals per second).
	Model string
	// Start is the first level.
	Start float64
	// Each step multiplies the level by Factor (more than 1) or, if Add is
	// not zero, adds Add.
	Factor float64
	Add    float64
	// Max is the highest level to try; zero means no limit but the budget.
	Max float64
	// Step is how long each level is held; the first Warmup of it is not
	// judged. Budget bounds the whole search.
	Step   time.Duration
	Warmup time.Duration
	Budget time.Duration
}

// checkSearch reports the problems of s, at paths under "search".
func (c *compiler) checkSearch(s *Search) {
	if s == nil {
		return
	}
	switch s.Model {
	case "users", "rate":
	default:
		c.fail("search", "the search has no model", "give the first level as users: N (closed model) or rate: R (open model)")
	}
	if s.Start <= 0 {
		c.fail("search."+s.Model, "the first level %v is not positive", "start from a positive level, such as rate: 50", s.Start)
	}
	if s.Factor != 0 && s.Add != 0 {
		c.fail("search.add", "factor and add both set the step", "keep one: factor: 2 doubles the level, add: 50 adds to it")
	}
	if s.Factor != 0 && s.Factor <= 1 {
		c.fail("search.factor", "factor %v would not raise the level", "use a factor above 1, such as 1.5", s.Factor)
	}
	if s.Add < 0 {
		c.fail("search.add", "add %v is negative", "use a positive step, such as add: 50", s.Add)
	}
	if s.Max != 0 && s.Max < s.Start {
		c.fail("search.max", "max %v is below the first level %v", "raise max or lower the first level", s.Max, s.Start)
	}
	if s.Step < 0 || s.Warmup < 0 || s.Budget < 0 {
		c.fail("search", "step, warmup and budget must not be negative", "give durations such as step: 30s")
	}
	if s.Step > 0 && s.Warmup >= s.Step {
		c.fail("search.warmup", "warmup %v leaves nothing of the %v step to judge", "make warmup shorter than step", s.Warmup, s.Step)
	}
	if s.Budget > 0 && s.Step > 0 && s.Budget < s.Step {
		c.fail("search.budget", "budget %v is shorter than one step of %v", "give a budget of several steps", s.Budget, s.Step)
	}
}
