package scenario

import (
	"math/rand/v2"
	"sync/atomic"

	"github.com/surge-load/surge/internal/expr"
)

// A source is a compiled data source. Expressions see it under its name and
// take items with pick.
type source struct {
	name  string
	order Order
	n     int             // items
	at    func(i int) any // item i, for i from 0 to n-1
	next  *atomic.Uint64  // the sequential order's shared cursor
	fixed int             // the unique order: this user's item; -1 otherwise
}

var _ expr.Collection = (*source)(nil)

// Name, Kind, Len and Draw make a source an expr.Collection: pick(source)
// takes an item as its order says.
func (s *source) Name() string                  { return s.name }
func (s *source) Kind() string                  { return "data source" }
func (s *source) Len() int                      { return s.n }
func (s *source) Draw(r *rand.Rand) (any, bool) { return s.pick(r), true }

// pick returns an item as the source's order says.
func (s *source) pick(r *rand.Rand) any {
	switch {
	case s.fixed >= 0:
		return s.at(s.fixed)
	case s.order == Sequential:
		return s.at(int((s.next.Add(1) - 1) % uint64(s.n)))
	}
	return s.at(r.IntN(s.n))
}

// forUser returns the view of a unique source that user id of a scenario
// whose users start at offset sees: always the same item.
func (s *source) forUser(offset, id int) *source {
	v := *s
	v.fixed = (offset + max(id, 0)) % s.n
	return &v
}
