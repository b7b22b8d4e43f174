package executor

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/surge-load/surge/metrics"
)

// idlePool hands arrivals to idle users of the open model, the most recently
// idle first. A steady load is then served by as few users as it needs,
// whose connections stay warm, and the rest of the pool (with the
// connections it would open) is used only when the load needs it. A
// first-in-first-out hand-off would instead rotate through every user and
// open one connection per user of the pool.
type idlePool struct {
	mu    sync.Mutex
	idle  []*poolUser // a stack: the top is the most recently idle
	users []*poolUser // every member, for close
	// freed wakes a dispatcher that waits, in catchUp, for a user to come
	// back; put sends on it only while waiting is set.
	freed   chan struct{} // capacity 1
	waiting atomic.Bool
}

// A poolUser is one user of the pool with its mailbox for arrivals.
type poolUser struct {
	id       int
	u        User
	arrivals chan time.Time // capacity 1; empty while the user is idle
	warm     bool           // get ready before the start (Warmer)
}

// take removes and returns the most recently idle user, or nil if every
// user is busy.
func (p *idlePool) take() *poolUser {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := len(p.idle)
	if n == 0 {
		return nil
	}
	pu := p.idle[n-1]
	p.idle = p.idle[:n-1]
	return pu
}

// busy returns how many users have an arrival.
func (p *idlePool) busy() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.users) - len(p.idle)
}

// add makes pu a member of the pool, idle.
func (p *idlePool) add(pu *poolUser) {
	p.mu.Lock()
	p.users = append(p.users, pu)
	p.idle = append(p.idle, pu)
	p.mu.Unlock()
}

// put marks pu idle again after an iteration.
func (p *idlePool) put(pu *poolUser) {
	p.mu.Lock()
	p.idle = append(p.idle, pu)
	p.mu.Unlock()
	if p.waiting.Load() {
		select {
		case p.freed <- struct{}{}:
		default: // a wake-up is already waiting
		}
	}
}

// close ends every user's loop. Call it once no more arrivals are handed out.
func (p *idlePool) close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, pu := range p.users {
		close(pu.arrivals)
	}
}

// runPool runs a model of arrivals (Open, Burst): it starts the segment's
// pool of size users, starts the clock (now, if env.Start is zero), lets
// dispatch hand out arrivals until the planned end or a stop, which it
// reports, and waits for the users within grace.
//
// The warm users that will take the first arrivals (the top of the idle
// stack) get ready before the start (Warmer), and the pool's making
// leaves no garbage for the first second to collect.
func runPool(env Env, size func(Segment) int, warm int, planned, grace time.Duration, dispatch func(*run, *idlePool) (interrupted bool)) (Outcome, error) {
	r, err := newRun(env)
	if err != nil {
		return Outcome{}, err
	}
	pool := r.startPool(size(r.seg), warm, env.NewUser)
	if env.Start.IsZero() || env.Ready != nil || time.Now().Before(env.Start) {
		// The garbage of making the pool (users, clients, warm
		// connections) is collected before the clock, not by collections
		// during the first second.
		runtime.GC()
	}
	if env.Start.IsZero() && env.Ready == nil { // start now that the pool is ready
		r.start = time.Now()
		r.out.Started = r.start
	}
	interrupted := !r.await() || !r.sleepUntil(r.start) || dispatch(r, pool)
	r.stop(interrupted, planned)
	pool.close()
	return r.wait(grace), nil
}

// startPool creates the segment's size users of a pool, each idle in its
// own goroutine, and returns once all are.
func (r *run) startPool(size, warm int, newUser NewUser) *idlePool {
	pool := &idlePool{freed: make(chan struct{}, 1)}
	var ready sync.WaitGroup
	n := r.seg.count()
	for j := range size {
		pu := &poolUser{id: j*n + r.seg.Index, arrivals: make(chan time.Time, 1)}
		pu.u = newUser(pu.id)
		pu.warm = j >= size-warm // the top of the stack: the first taken
		pool.add(pu)             // idle before the start, so no early arrival finds the pool empty
		r.users.Add(1)
		ready.Add(1)
		go r.serve(pu, pool, &ready)
	}
	ready.Wait()
	return pool
}

// handOut gives the arrival due to the most recently idle user of pool, or
// counts it dropped if every user is busy.
func (r *run) handOut(pool *idlePool, sh *metrics.Shard, due time.Time) {
	pu := pool.take()
	if pu == nil {
		r.dropped.Add(1)
		sh.Dropped(due)
		return
	}
	pu.arrivals <- due // never blocks: an idle user's channel is empty
	r.iterations.Add(1)
	sh.ArrivalLag(time.Since(due))
}

// serve runs one user of a pool: one iteration per arrival
// until the pool closes, returning to the idle stack after each.
func (r *run) serve(pu *poolUser, pool *idlePool, ready *sync.WaitGroup) {
	defer r.users.Done()
	defer closeUser(pu.u)
	r.rec.AddUsers(1)
	defer r.rec.AddUsers(-1)
	if w, ok := pu.u.(Warmer); ok && pu.warm {
		w.Warm(r.ctx)
	}
	ready.Done()
	var n int64
	for due := range pu.arrivals {
		r.iterate(pu.u, Iteration{User: pu.id, N: n, Intended: due, Arrival: true})
		n++
		pool.put(pu)
	}
}
