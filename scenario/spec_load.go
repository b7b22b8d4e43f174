package scenario

import (
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
		maxUsers = executor.DefaultPool(perSecond)
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

// Draw returns a length of the pause, drawn with r: Min, or uniformly from
// Min to Max. It is the think time of a model whose users loop
// (executor.Looping).
func (p Pause) Draw(r *rand.Rand) time.Duration {
	if p.Max <= p.Min {
		return p.Min
	}
	return p.Min + time.Duration(r.Int64N(int64(p.Max-p.Min)+1))
}
