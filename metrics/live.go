package metrics

import (
	"time"

	"github.com/surge-load/surge/result"
)

// liveSeconds is how many recent intervals the live view covers.
const liveSeconds = 10

// Live is the state of a running test, for progress displays.
type Live struct {
	Elapsed  time.Duration
	Users    int64
	Busy     int64
	Requests int64 // whole run so far
	Failures int64
	Dropped  int64
	// Over the last ten seconds:
	RPS       float64
	P50Ms     float64
	P95Ms     float64
	P99Ms     float64
	ErrorRate float64 // (failures+dropped+not sent) / (requests+dropped+not sent)
	TopError  string  // the most frequent error class, if any
	Streams   int64   // streams open at the end of the last interval
}

// Live returns the state as of the last completed interval.
func (r *Recorder) Live() Live {
	r.liveMu.Lock()
	defer r.liveMu.Unlock()
	return r.liveSnap
}

// liveWindow keeps the last few intervals' overall aggregates.
type liveWindow struct {
	perSecond [liveSeconds]*aggregate
	spans     [liveSeconds]float64
	dropped   [liveSeconds]int64
	next      int
	requests  int64
	failures  int64
	droppedN  int64
}

// recycle returns an empty aggregate for the next interval's push: the one
// that push will evict from the window, or a new one.
func (w *liveWindow) recycle() *aggregate {
	if s := w.perSecond[w.next]; s != nil {
		w.perSecond[w.next] = nil
		s.reset()
		return s
	}
	return newAggregate()
}

func (w *liveWindow) push(p *result.Point, all *aggregate) {
	w.perSecond[w.next] = all
	w.spans[w.next] = p.DurationS
	w.dropped[w.next] = p.Dropped
	w.next = (w.next + 1) % liveSeconds
	w.requests += p.Requests
	w.failures += p.Failures
	w.droppedN += p.Dropped
}

func (w *liveWindow) snapshot(start, now time.Time, last *result.Point) Live {
	l := Live{
		Elapsed:  now.Sub(start),
		Users:    last.Users,
		Busy:     last.Busy,
		Requests: w.requests,
		Failures: w.failures,
		Dropped:  w.droppedN,
	}
	if last.Streams != nil {
		l.Streams = last.Streams.Open
	}
	sum := newAggregate()
	var span float64
	var dropped int64
	for i, s := range w.perSecond {
		if s == nil {
			continue
		}
		sum.merge(s)
		span += w.spans[i]
		dropped += w.dropped[i]
	}
	if span > 0 {
		l.RPS = float64(sum.requests) / span
	}
	if sum.requests > 0 {
		p := percentilesOfTally(sum.latency, &sum.tally)
		l.P50Ms, l.P95Ms, l.P99Ms = p.P50, p.P95, p.P99
	}
	if n := sum.requests + dropped + sum.notSent; n > 0 {
		l.ErrorRate = float64(sum.failures+dropped+sum.notSent) / float64(n)
	}
	var top int64
	for class, e := range sum.errors {
		if e.count > top {
			top, l.TopError = e.count, string(class)
		}
	}
	if dropped > top {
		l.TopError = "dropped"
	}
	return l
}
