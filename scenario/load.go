package scenario

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/surge-load/surge/executor"
)

// DefaultGrace is the grace period of the load models built by Users, Rate,
// Iterations and Bursts: how long requests in flight at the end may take to
// finish before they are interrupted.
const DefaultGrace = 30 * time.Second

// Users returns the closed model of n virtual users that loop over the
// journey: their number grows linearly from 0 to n over ramp, then stays at
// n until duration, which includes the ramp.
func Users(n int, ramp, duration time.Duration) executor.Closed {
	c := executor.Closed{Start: n, Grace: DefaultGrace}
	if ramp <= 0 {
		c.Stages = []executor.Stage{{Duration: duration, Target: float64(n)}}
		return c
	}
	c.Start = 0
	c.Stages = []executor.Stage{{Duration: ramp, Target: float64(n)}}
	if duration > ramp {
		c.Stages = append(c.Stages, executor.Stage{Duration: duration - ramp, Target: float64(n)})
	}
	return c
}

// Rate returns the open model of perSecond arrivals a second, reached
// linearly from 0 over ramp, until duration, which includes the ramp. Up
// to maxUsers users serve the arrivals at once; zero means the peak rate,
// at least 100.
func Rate(perSecond float64, ramp, duration time.Duration, maxUsers int) executor.Open {
	if maxUsers <= 0 {
		maxUsers = max(100, int(math.Ceil(perSecond)))
	}
	o := executor.Open{StartRate: perSecond, MaxUsers: maxUsers, Grace: DefaultGrace}
	if ramp <= 0 {
		o.Stages = []executor.Stage{{Duration: duration, Target: perSecond}}
		return o
	}
	o.StartRate = 0
	o.Stages = []executor.Stage{{Duration: ramp, Target: perSecond}}
	if duration > ramp {
		o.Stages = append(o.Stages, executor.Stage{Duration: duration - ramp, Target: perSecond})
	}
	return o
}

// Iterations returns the model of n iterations shared by users virtual
// users, within maxDuration.
func Iterations(n, users int, maxDuration time.Duration) executor.Iterations {
	return executor.Iterations{Total: n, Users: users, MaxDuration: maxDuration, Grace: DefaultGrace}
}

// Bursts returns the model of size arrivals at once, at the start and then
// every period, until duration.
func Bursts(period time.Duration, size int, duration time.Duration) executor.Burst {
	return executor.Burst{Every: period, Size: size, Length: duration, Grace: DefaultGrace}
}

// maxUsers returns the most virtual users load runs at once.
func maxUsers(load executor.Load) int {
	switch l := load.(type) {
	case executor.Closed:
		n := float64(l.Start)
		for _, st := range l.Stages {
			n = max(n, st.Target)
		}
		return int(math.Ceil(n))
	case executor.Open:
		return l.MaxUsers
	case executor.Iterations:
		return l.Users
	case executor.Burst:
		return l.Size
	}
	return 0
}

// withThink returns load with the think time p, for the models whose users
// loop.
func withThink(load executor.Load, p Pause) (executor.Load, error) {
	think := p.random
	switch l := load.(type) {
	case executor.Closed:
		if l.Think != nil {
			return nil, fmt.Errorf("the load already has a think time")
		}
		l.Think = think
		return l, nil
	case executor.Iterations:
		if l.Think != nil {
			return nil, fmt.Errorf("the load already has a think time")
		}
		l.Think = think
		return l, nil
	}
	return nil, fmt.Errorf("think applies to the models whose users loop (users, iterations), not to %s", modelName(load))
}

// random returns a length of the pause, drawn with r.
func (p Pause) random(r *rand.Rand) time.Duration {
	if p.Max <= p.Min {
		return p.Min
	}
	return p.Min + time.Duration(r.Int64N(int64(p.Max-p.Min)+1))
}

// modelName names a load model for messages.
func modelName(load executor.Load) string {
	switch load.(type) {
	case executor.Closed:
		return "the closed model (users)"
	case executor.Open:
		return "the open model (rate)"
	case executor.Iterations:
		return "the iterations model"
	case executor.Burst:
		return "the burst model"
	}
	return fmt.Sprintf("%T", load)
}

// scaleTime returns load with every length multiplied by f.
func scaleTime(load executor.Load, f float64) (executor.Load, error) {
	scale := func(d time.Duration) time.Duration { return time.Duration(math.Round(float64(d) * f)) }
	stages := func(ss []executor.Stage) []executor.Stage {
		out := make([]executor.Stage, len(ss))
		for i, st := range ss {
			out[i] = executor.Stage{Duration: scale(st.Duration), Target: st.Target}
		}
		return out
	}
	switch l := load.(type) {
	case executor.Closed:
		l.Stages = stages(l.Stages)
		return l, nil
	case executor.Open:
		l.Stages = stages(l.Stages)
		return l, nil
	case executor.Iterations:
		l.MaxDuration = scale(l.MaxDuration)
		return l, nil
	case executor.Burst:
		l.Every, l.Length = max(scale(l.Every), 1), scale(l.Length)
		return l, nil
	}
	return nil, fmt.Errorf("cannot change the duration of %s", modelName(load))
}

// withUsers returns load with n users at its peak: the closed model keeps
// its shape, scaled; the iterations model shares its iterations among n.
func withUsers(load executor.Load, n int) (executor.Load, error) {
	switch l := load.(type) {
	case executor.Closed:
		peak := float64(maxUsers(l))
		if peak == 0 {
			return nil, fmt.Errorf("the closed model never has a user to scale")
		}
		f := float64(n) / peak
		l.Start = int(math.Round(float64(l.Start) * f))
		ss := make([]executor.Stage, len(l.Stages))
		for i, st := range l.Stages {
			ss[i] = executor.Stage{Duration: st.Duration, Target: math.Round(st.Target * f)}
		}
		l.Stages = ss
		return l, nil
	case executor.Iterations:
		l.Users = n
		return l, nil
	}
	return nil, fmt.Errorf("--users applies to the users and iterations models, not to %s", modelName(load))
}

// withRate returns the open model load with its peak rate r, its shape
// scaled; the pool grows with the rate.
func withRate(load executor.Load, r float64) (executor.Load, error) {
	l, ok := load.(executor.Open)
	if !ok {
		return nil, fmt.Errorf("--rate applies to the open model, not to %s", modelName(load))
	}
	peak := l.StartRate
	for _, st := range l.Stages {
		peak = max(peak, st.Target)
	}
	if peak == 0 {
		return nil, fmt.Errorf("the open model's rate is always 0")
	}
	f := r / peak
	l.StartRate *= f
	ss := make([]executor.Stage, len(l.Stages))
	for i, st := range l.Stages {
		ss[i] = executor.Stage{Duration: st.Duration, Target: st.Target * f}
	}
	l.Stages = ss
	l.MaxUsers = max(l.MaxUsers, int(math.Ceil(float64(l.MaxUsers)*f)))
	return l, nil
}
