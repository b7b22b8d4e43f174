package executor

import (
	"fmt"
	"math"
	"sort"
	"time"
)

// A Schedule is the arrival plan of an open model: a rate that starts at a
// given value and moves linearly through stages. Arrival k (counting from 0)
// is due at the first instant the expected number of arrivals so far, the
// integral of the rate, exceeds k. So a constant 100/s puts arrival k at
// k/100 s, a ramp from 0 to 100/s over 2s puts it at sqrt(k/25) s, and no
// arrival falls in a stretch of rate 0.
//
// Each arrival time is computed on its own from the stage it falls in, by
// solving that stage's quadratic exactly, so there is no accumulated drift
// however many arrivals there are. Times are rounded to the nanosecond.
type Schedule struct {
	stages []span
	n      int64
	dur    time.Duration
}

// A span is one stage of a Schedule.
type span struct {
	at     time.Duration // offset of the start
	d      time.Duration
	sec    float64 // d in seconds
	a, b   float64 // rate per second at the start and the end
	c0, c1 float64 // expected arrivals before the start and the end
}

// maxArrivals bounds a schedule so that every arrival index is exact in a
// float64.
const maxArrivals = 1 << 53

// NewSchedule returns the schedule of a rate that starts at startRate per
// second and follows stages, whose targets are rates per second.
func NewSchedule(startRate float64, stages []Stage) (*Schedule, error) {
	switch {
	case math.IsNaN(startRate) || math.IsInf(startRate, 0):
		return nil, errorf("start rate %v is not a finite number", startRate)
	case startRate < 0:
		return nil, errorf("start rate %v is negative", startRate)
	case startRate > maxRate:
		return nil, errorf("start rate %v is more than %v per second", startRate, maxRate)
	}
	dur, err := validateStages(stages, maxRate, "per second")
	if err != nil {
		return nil, err
	}
	s := &Schedule{dur: dur}
	var at time.Duration
	c, a := 0.0, startRate
	for _, st := range stages {
		sec := st.Duration.Seconds()
		next := snap(c + (a+st.Target)/2*sec)
		s.stages = append(s.stages, span{at: at, d: st.Duration, sec: sec, a: a, b: st.Target, c0: c, c1: next})
		at += st.Duration
		c, a = next, st.Target
	}
	if c > maxArrivals {
		return nil, errorf("the schedule has %.0f arrivals, more than %d", c, int64(maxArrivals))
	}
	s.n = int64(math.Ceil(c))
	return s, nil
}

// maxRate bounds stage targets of the open model, in arrivals per second.
const maxRate = 1e9

// snap rounds c to the nearest integer when it differs from it only by
// floating-point error, so that 100/60 per second for 60s is exactly 100
// arrivals and not 101.
func snap(c float64) float64 {
	r := math.Round(c)
	if math.Abs(c-r) <= 1e-9+1e-12*math.Abs(c) {
		return r
	}
	return c
}

// Len returns the number of arrivals in the schedule.
func (s *Schedule) Len() int64 { return s.n }

// Duration returns the length of the schedule, the sum of its stages.
func (s *Schedule) Duration() time.Duration { return s.dur }

// At returns the offset from the start at which arrival k is due, for k from
// 0 to Len()-1. It panics if k is out of range.
func (s *Schedule) At(k int64) time.Duration {
	if k < 0 || k >= s.n {
		panic(fmt.Sprintf("executor: arrival %d out of range [0, %d)", k, s.n))
	}
	kf := float64(k)
	i := sort.Search(len(s.stages), func(i int) bool { return s.stages[i].c1 > kf })
	if i == len(s.stages) { // only through rounding at the very end
		i--
	}
	return s.stages[i].offset(kf)
}

// offset solves a*t + (b-a)/(2*sec)*t^2 = k-c0 for t within the span.
func (p *span) offset(k float64) time.Duration {
	m := max(k-p.c0, 0)
	var t float64
	if p.a == p.b {
		t = m / p.a
	} else {
		slope := (p.b - p.a) / p.sec
		root := math.Sqrt(max(p.a*p.a+2*slope*m, 0))
		if den := p.a + root; den > 0 {
			t = 2 * m / den // the stable form: no cancellation for small slopes
		}
	}
	if !(t <= p.sec) { // also catches NaN
		t = p.sec
	}
	return p.at + min(time.Duration(math.Round(t*1e9)), p.d)
}
