package executor

import (
	"sync"
	"time"
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
}

// A poolUser is one user of the pool with its mailbox for arrivals.
type poolUser struct {
	id       int
	u        User
	arrivals chan time.Time // capacity 1; empty while the user is idle
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
}

// close ends every user's loop. Call it once no more arrivals are handed out.
func (p *idlePool) close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, pu := range p.users {
		close(pu.arrivals)
	}
}
