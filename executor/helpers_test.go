package executor

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/surge-load/surge/metrics"
)

// userFunc is a User made of a function.
type userFunc func(ctx context.Context, it Iteration)

func (f userFunc) Iterate(ctx context.Context, it Iteration) { f(ctx, it) }

// entry is one iteration as a fake user saw it.
type entry struct {
	it         Iteration
	start, end time.Time
	cause      error // context.Cause(ctx) when the iteration returned
}

// journal records the iterations of fake users.
type journal struct {
	mu      sync.Mutex
	entries []entry
	busy    int // users inside an iteration now
	maxBusy int
}

// users returns a NewUser whose users run work and log each iteration.
func (j *journal) users(work func(ctx context.Context, it Iteration)) NewUser {
	return func(id int) User {
		return userFunc(func(ctx context.Context, it Iteration) {
			if it.User != id {
				panic("iteration for the wrong user")
			}
			start := time.Now()
			j.mu.Lock()
			j.busy++
			j.maxBusy = max(j.maxBusy, j.busy)
			j.mu.Unlock()
			if work != nil {
				work(ctx, it)
			}
			e := entry{it: it, start: start, end: time.Now(), cause: context.Cause(ctx)}
			j.mu.Lock()
			j.busy--
			j.entries = append(j.entries, e)
			j.mu.Unlock()
		})
	}
}

// sorted returns the entries by intended time, then user.
func (j *journal) sorted() []entry {
	j.mu.Lock()
	defer j.mu.Unlock()
	es := slices.Clone(j.entries)
	slices.SortFunc(es, func(a, b entry) int {
		if c := a.it.Intended.Compare(b.it.Intended); c != 0 {
			return c
		}
		return a.it.User - b.it.User
	})
	return es
}

// byUser returns each user's entries in iteration order.
func (j *journal) byUser() map[int][]entry {
	m := map[int][]entry{}
	for _, e := range j.sorted() {
		m[e.it.User] = append(m[e.it.User], e)
	}
	for _, es := range m {
		slices.SortFunc(es, func(a, b entry) int { return int(a.it.N - b.it.N) })
	}
	return m
}

// sleepWork is a journey that takes d, or less if ctx ends first.
func sleepWork(d time.Duration) func(context.Context, Iteration) {
	return func(ctx context.Context, _ Iteration) { Pause(ctx, d) }
}

// env returns an Env starting shortly, with a real recorder.
func env(nu NewUser) Env {
	return Env{Start: time.Now().Add(20 * time.Millisecond), NewUser: nu, Rec: metrics.NewRecorder(0)}
}

// closeAfter returns a channel closed after d.
func closeAfter(d time.Duration) <-chan struct{} {
	c := make(chan struct{})
	time.AfterFunc(d, func() { close(c) })
	return c
}
