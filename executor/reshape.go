package executor

import (
	"errors"
	"math"
	"math/rand/v2"
	"time"
)

// The shapes a load model can be changed in, for a plan that overrides
// its models (a scenario file run with --users, --rate, --think or
// --duration). Each is a small interface a model implements if the change
// means something for it.

// A Looping model's users loop over the journey, so they can rest between
// iterations: Closed and Iterations.
type Looping interface {
	Load
	// HasThink reports whether the model already has a think time.
	HasThink() bool
	// WithThink returns the model with the think time think.
	WithThink(think func(r *rand.Rand) time.Duration) Load
}

// A TimeScalable model can be stretched or shrunk in time: every model.
type TimeScalable interface {
	Load
	// ScaleTime returns the model with every length multiplied by f.
	ScaleTime(f float64) Load
}

// A UserScalable model can be given a number of users at its peak: Closed
// keeps its shape, scaled; Iterations shares its iterations among n.
type UserScalable interface {
	Load
	WithPeakUsers(n int) (Load, error)
}

// A RateScalable model can be given a peak rate: Open keeps its shape,
// scaled, and its pool grows with the rate.
type RateScalable interface {
	Load
	WithPeakRate(perSec float64) (Load, error)
}

// HasThink reports whether c has a think time.
func (c Closed) HasThink() bool { return c.Think != nil }

// HasThink reports whether it has a think time.
func (it Iterations) HasThink() bool { return it.Think != nil }

// WithThink returns c with the think time think.
func (c Closed) WithThink(think func(r *rand.Rand) time.Duration) Load {
	c.Think = think
	return c
}

// WithThink returns it with the think time think.
func (it Iterations) WithThink(think func(r *rand.Rand) time.Duration) Load {
	it.Think = think
	return it
}

// scaleDuration multiplies d by f, rounded to the nanosecond.
func scaleDuration(d time.Duration, f float64) time.Duration {
	return time.Duration(math.Round(float64(d) * f))
}

// scaleStages returns ss with every duration multiplied by f.
func scaleStages(ss []Stage, f float64) []Stage {
	out := make([]Stage, len(ss))
	for i, st := range ss {
		out[i] = Stage{Duration: scaleDuration(st.Duration, f), Target: st.Target}
	}
	return out
}

// ScaleTime returns c with its stages' lengths multiplied by f.
func (c Closed) ScaleTime(f float64) Load {
	c.Stages = scaleStages(c.Stages, f)
	return c
}

// ScaleTime returns o with its stages' lengths multiplied by f.
func (o Open) ScaleTime(f float64) Load {
	o.Stages = scaleStages(o.Stages, f)
	return o
}

// ScaleTime returns it with MaxDuration multiplied by f.
func (it Iterations) ScaleTime(f float64) Load {
	it.MaxDuration = scaleDuration(it.MaxDuration, f)
	return it
}

// ScaleTime returns b with its period and length multiplied by f; the
// period stays at least a nanosecond.
func (b Burst) ScaleTime(f float64) Load {
	b.Every, b.Length = max(scaleDuration(b.Every, f), 1), scaleDuration(b.Length, f)
	return b
}

// WithPeakUsers returns c with n users at its peak, its shape scaled.
func (c Closed) WithPeakUsers(n int) (Load, error) {
	p := float64(c.PeakUsers())
	if p == 0 {
		return nil, errors.New("the closed model never has a user to scale")
	}
	f := float64(n) / p
	c.Start = int(math.Round(float64(c.Start) * f))
	ss := make([]Stage, len(c.Stages))
	for i, st := range c.Stages {
		ss[i] = Stage{Duration: st.Duration, Target: math.Round(st.Target * f)}
	}
	c.Stages = ss
	return c, nil
}

// WithPeakUsers returns it with its iterations shared by n users.
func (it Iterations) WithPeakUsers(n int) (Load, error) {
	it.Users = n
	return it, nil
}

// WithPeakRate returns o with the peak rate perSec, its shape scaled; the
// pool grows in proportion, never shrinks.
func (o Open) WithPeakRate(perSec float64) (Load, error) {
	p := Peak(o.StartRate, o.Stages)
	if p == 0 {
		return nil, errors.New("the open model's rate is always 0")
	}
	f := perSec / p
	o.StartRate *= f
	ss := make([]Stage, len(o.Stages))
	for i, st := range o.Stages {
		ss[i] = Stage{Duration: st.Duration, Target: st.Target * f}
	}
	o.Stages = ss
	o.MaxUsers = max(o.MaxUsers, int(math.Ceil(float64(o.MaxUsers)*f)))
	return o, nil
}
