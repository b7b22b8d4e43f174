package executor

import "fmt"

// A Segment selects one share of a plan split over Count generators. In the
// closed model segment i runs the virtual users v (numbered globally in start
// order) with v%Count == i; in the open model it takes the arrivals k with
// k%Count == i of the one global schedule. The zero value is segment 0 of 1,
// the whole plan.
type Segment struct {
	Index int // which share, from 0 to Count-1
	Count int // how many shares; 0 means 1
}

// Validate reports whether s names a share of a split plan.
func (s Segment) Validate() error {
	if s.Count < 0 {
		return errorf("segment count %d is negative", s.Count)
	}
	if n := s.count(); s.Index < 0 || s.Index >= n {
		return errorf("segment index %d is outside 0..%d", s.Index, n-1)
	}
	return nil
}

// String returns s as "index/count".
func (s Segment) String() string { return fmt.Sprintf("%d/%d", s.Index, s.count()) }

func (s Segment) count() int {
	if s.Count == 0 {
		return 1
	}
	return s.Count
}

// first returns the smallest v >= lo that s owns (lo >= 0).
func (s Segment) first(lo int) int {
	n := s.count()
	return lo + ((s.Index-lo%n)%n+n)%n
}

// last returns the largest v <= hi that s owns; it is negative if none is.
func (s Segment) last(hi int) int {
	n := s.count()
	if hi < 0 {
		return -1
	}
	return hi - ((hi-s.Index)%n+n)%n
}
