package executor

import (
	"slices"
	"testing"
	"testing/synctest"
	"time"
)

func TestSegmentOwns(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		for _, s := range []Segment{{}, {0, 1}, {0, 3}, {2, 3}, {4, 7}} {
			if err := s.Validate(); err != nil {
				t.Fatal(err)
			}
			n := s.count()
			for lo := range 20 {
				f := s.first(lo)
				if f < lo || f%n != s.Index || f-lo >= n {
					t.Errorf("%v.first(%d) = %d", s, lo, f)
				}
				l := s.last(lo)
				if l > lo || (l >= 0 && l%n != s.Index) || lo-l > n || (l < 0 && lo >= s.Index) {
					t.Errorf("%v.last(%d) = %d", s, lo, l)
				}
			}
		}
		for _, s := range []Segment{{-1, 3}, {3, 3}, {0, -1}, {1, 0}} {
			if err := s.Validate(); err == nil {
				t.Errorf("%+v is valid", s)
			}
		}
		if s := (Segment{}).String(); s != "0/1" {
			t.Errorf("String = %q", s)
		}
	})
}

func TestSegmentsOpen(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// A pool as large as the schedule: a dispatcher that wakes late on a busy
		// machine catches up in a burst, and no arrival of it may be dropped.
		o := Open{Stages: []Stage{{300 * time.Millisecond, 400}, {200 * time.Millisecond, 400}}, MaxUsers: 150}
		s, _ := NewSchedule(o.StartRate, o.Stages)
		const n = 3
		var total int64
		for i := range n {
			var j journal
			e := env(j.users(nil))
			e.Segment = Segment{Index: i, Count: n}
			out, err := o.Run(e)
			if err != nil {
				t.Fatal(err)
			}
			total += out.Iterations + out.Dropped
			if out.Dropped != 0 {
				t.Errorf("segment %d dropped %d", i, out.Dropped)
			}
			checkArrivals(t, &j, s, e.Start, int64(i), n)
			for id := range j.byUser() {
				if id%n != i || id/n >= o.Pool(e.Segment) {
					t.Errorf("segment %d ran user %d", i, id)
				}
			}
		}
		if total != s.Len() || s.Len() != 140 {
			t.Errorf("segments ran %d arrivals, the plan has %d", total, s.Len())
		}
	})
}

func TestSegmentsClosed(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := Closed{Start: 1, Stages: []Stage{{300 * time.Millisecond, 7}, {100 * time.Millisecond, 7}, {100 * time.Millisecond, 2}}}
		// firsts maps each user to the offset of its first iteration.
		run := func(seg Segment) map[int]time.Duration {
			var j journal
			e := env(j.users(sleepWork(5 * time.Millisecond)))
			e.Segment = seg
			if _, err := c.Run(e); err != nil {
				t.Fatal(err)
			}
			m := map[int]time.Duration{}
			for id, es := range j.byUser() {
				m[id] = es[0].it.Intended.Sub(e.Start)
			}
			return m
		}
		whole := run(Segment{})
		var ids []int
		for id := range whole {
			ids = append(ids, id)
		}
		slices.Sort(ids)
		if !slices.Equal(ids, []int{0, 1, 2, 3, 4, 5, 6}) {
			t.Fatalf("users %v", ids)
		}
		seen := map[int]bool{}
		for i := range 3 {
			for id, first := range run(Segment{Index: i, Count: 3}) {
				if id%3 != i || seen[id] {
					t.Errorf("segment %d ran user %d", i, id)
				}
				seen[id] = true
				if first != whole[id] {
					t.Errorf("segment %d started user %d at %v, unsplit at %v", i, id, first, whole[id])
				}
			}
		}
		if len(seen) != 7 {
			t.Errorf("segments ran %d users, want 7", len(seen))
		}
	})
}
