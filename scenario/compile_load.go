package scenario

import (
	"fmt"

	"github.com/surge-load/surge/executor"
)

// withThink returns load with the think time p, for the models whose users
// loop.
func withThink(load executor.Load, p Pause) (executor.Load, error) {
	l, ok := load.(executor.Looping)
	if !ok {
		return nil, fmt.Errorf("think applies to the models whose users loop (users, iterations), not to %s", load)
	}
	if l.HasThink() {
		return nil, fmt.Errorf("the load already has a think time")
	}
	return l.WithThink(p.Draw), nil
}

// scaleTime returns load with every length multiplied by f.
func scaleTime(load executor.Load, f float64) (executor.Load, error) {
	l, ok := load.(executor.TimeScalable)
	if !ok {
		return nil, fmt.Errorf("cannot change the duration of %s", load)
	}
	return l.ScaleTime(f), nil
}

// withUsers returns load with n users at its peak: the closed model keeps
// its shape, scaled; the iterations model shares its iterations among n.
func withUsers(load executor.Load, n int) (executor.Load, error) {
	l, ok := load.(executor.UserScalable)
	if !ok {
		return nil, fmt.Errorf("a number of users (--users, or users: in a search) applies to the users and iterations models, not to %s", load)
	}
	return l.WithPeakUsers(n)
}

// withRate returns the open model load with its peak rate r, its shape
// scaled; the pool grows with the rate.
func withRate(load executor.Load, r float64) (executor.Load, error) {
	l, ok := load.(executor.RateScalable)
	if !ok {
		return nil, fmt.Errorf("a rate (--rate, or rate: in a search) applies to the open model, not to %s", load)
	}
	return l.WithPeakRate(r)
}
