package scenario

import (
	"math/rand/v2"
	"sync"

	"github.com/surge-load/surge/internal/expr"
)

// A Pool is a shared list of values, such as the ids of folders created
// during a run: every virtual user of a plan sees the same pool. It is safe
// for concurrent use. Expressions take a random value with pick(pool) and
// count the values with len(pool).
type Pool struct {
	name  string
	mu    sync.RWMutex
	items []any
}

func newPool(name string, items []any) *Pool {
	return &Pool{name: name, items: append([]any(nil), items...)}
}

var _ expr.Collection = (*Pool)(nil)

// Name returns the pool's name.
func (p *Pool) Name() string { return p.name }

// Kind returns "pool", for messages.
func (p *Pool) Kind() string { return "pool" }

// Draw returns a value of the pool chosen with r; ok is false if the pool
// is empty. pick(pool) in an expression calls it with the user's
// generator.
func (p *Pool) Draw(r *rand.Rand) (v any, ok bool) { return p.pick(r) }

// Len returns the number of values in the pool.
func (p *Pool) Len() int {
	p.mu.RLock()
	defer p.mu.RUnlock()
	return len(p.items)
}

// Add appends v to the pool.
func (p *Pool) Add(v any) {
	p.mu.Lock()
	p.items = append(p.items, v)
	p.mu.Unlock()
}

// Remove takes one value equal to v out of the pool and reports whether
// there was one. It takes time proportional to the pool's size.
func (p *Pool) Remove(v any) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	for i, x := range p.items {
		if expr.Equal(x, v) {
			last := len(p.items) - 1
			p.items[i] = p.items[last]
			p.items[last] = nil
			p.items = p.items[:last]
			return true
		}
	}
	return false
}

// Pick returns a value of the pool chosen at random; ok is false if the
// pool is empty.
func (p *Pool) Pick() (v any, ok bool) {
	p.mu.RLock()
	defer p.mu.RUnlock()
	if len(p.items) == 0 {
		return nil, false
	}
	return p.items[rand.IntN(len(p.items))], true
}

// pick is Pick drawing from r.
func (p *Pool) pick(r *rand.Rand) (v any, ok bool) {
	p.mu.RLock()
	defer p.mu.RUnlock()
	if len(p.items) == 0 {
		return nil, false
	}
	return p.items[r.IntN(len(p.items))], true
}

// Values returns a copy of the pool's values.
func (p *Pool) Values() []any {
	p.mu.RLock()
	defer p.mu.RUnlock()
	return append([]any(nil), p.items...)
}
