package executor

import (
	"fmt"
	"math"
	"strings"
	"time"
)

// DefaultPool is the open model's user pool when none is given: the peak
// rate in arrivals per second, rounded up, and at least 100, so that
// arrivals are dropped only when a response takes about a second or more.
func DefaultPool(peakPerSec float64) int {
	return max(100, int(math.Ceil(peakPerSec)))
}

// Peak returns the highest of start and the stages' targets: the most
// users of a closed model, the highest rate of an open one.
func Peak(start float64, stages []Stage) float64 {
	for _, st := range stages {
		start = max(start, st.Target)
	}
	return start
}

// describeStages says stages in words, as in "30s→100/s, 1m0s→100/s".
func describeStages(ss []Stage, unit string) string {
	parts := make([]string, len(ss))
	for i, st := range ss {
		parts[i] = fmt.Sprintf("%v→%g%s", Round(st.Duration), st.Target, unit)
	}
	return strings.Join(parts, ", ")
}

// Round rounds d for people: a plan rescaled by --duration has stages such
// as 46.666666667s, said as 46.667s.
func Round(d time.Duration) time.Duration {
	if d >= time.Second {
		return d.Round(time.Millisecond)
	}
	return d.Round(time.Microsecond)
}

// String says in words what load c applies.
func (c Closed) String() string {
	if len(c.Stages) == 1 && float64(c.Start) == c.Stages[0].Target {
		return fmt.Sprintf("closed model: %d users for %v", c.Start, Round(c.Stages[0].Duration))
	}
	return fmt.Sprintf("closed model: %d users, then %s", c.Start, describeStages(c.Stages, ""))
}

// String says in words what load o applies.
func (o Open) String() string {
	if len(o.Stages) == 1 && o.StartRate == o.Stages[0].Target {
		return fmt.Sprintf("open model: %g/s for %v, up to %d users", o.StartRate, Round(o.Stages[0].Duration), o.MaxUsers)
	}
	return fmt.Sprintf("open model: %g/s, then %s, up to %d users", o.StartRate, describeStages(o.Stages, "/s"), o.MaxUsers)
}

// PeakUsers returns the most users c runs at once: its highest target,
// rounded up.
func (c Closed) PeakUsers() int { return int(math.Ceil(Peak(float64(c.Start), c.Stages))) }

// PeakUsers returns the size of o's pool, MaxUsers.
func (o Open) PeakUsers() int { return o.MaxUsers }

// PeakUsers returns Users.
func (it Iterations) PeakUsers() int { return it.Users }

// PeakUsers returns the size of b's pool, Size.
func (b Burst) PeakUsers() int { return b.Size }
