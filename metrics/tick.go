package metrics

import (
	"sort"

	"github.com/surge-load/surge/errclass"
	"github.com/surge-load/surge/result"
)

// A Tick is what one interval of the run added, for whatever follows the
// run while it goes (the live page, /metrics, outputs): the series point
// and each endpoint's share of it. Unlike the run's totals, a Tick counts
// the warm-up too, as the series does.
type Tick struct {
	Point     result.Point
	Endpoints []EndpointTick // the endpoints with operations in the interval
}

// EndpointTick is one endpoint's share of an interval.
type EndpointTick struct {
	Name     string
	Requests int64
	Failures int64
	// Outcomes counts the operations by status and class, every operation
	// exactly once.
	Outcomes []Outcome
	Latency  result.Percentiles
	// LatencyBuckets lists the interval's latencies as the HdrHistogram
	// holds them: each occupied bucket's highest equivalent value with its
	// count, in ascending order.
	LatencyBuckets []Bucket
}

// An Outcome counts the operations that ended with one status and class.
type Outcome struct {
	Status int    // 0 when no response arrived
	Class  string // "" for success, else the error class
	Count  int64
}

// A Bucket is Count values no larger than UpperUs microseconds (and larger
// than the previous bucket's).
type Bucket struct {
	UpperUs int64
	Count   int64
}

// OnTick makes fn receive every interval as soon as the collector has
// folded it into the series, the last partial one included. fn runs on the
// collector's goroutine, never on the load's: it must return promptly,
// queueing or dropping what it cannot handle at once. During the call,
// Result may be called for the run so far. Call OnTick before Begin.
func (r *Recorder) OnTick(fn func(*Tick)) { r.onTick = fn }

// tick builds the interval's Tick from the endpoints' shares, for onTick.
func (r *Recorder) tick(p *result.Point, shares []endpointShare) *Tick {
	t := &Tick{Point: *p}
	for _, sh := range shares {
		st := sh.st
		t.Endpoints = append(t.Endpoints, EndpointTick{
			Name:           r.endpointName(sh.id),
			Requests:       st.requests,
			Failures:       st.failures,
			Outcomes:       outcomesOf(&st.tally),
			Latency:        percentilesOfTally(st.latency, &st.tally),
			LatencyBuckets: bucketsOf(st),
		})
	}
	return t
}

// outcomesOf splits c's operations by status and class: a failure of a
// class keeps its statuses (errCounts.statuses), the rest of a status is
// success, and a class's operations without a status had no response.
func outcomesOf(c *tally) []Outcome {
	ok := make(map[int]int64, len(c.statuses))
	for st, n := range c.statuses {
		ok[st] = n
	}
	var out []Outcome
	for class, e := range c.errors {
		rest := e.count
		for st, n := range e.statuses {
			out = append(out, Outcome{Status: st, Class: string(class), Count: n})
			ok[st] -= n
			rest -= n
		}
		if rest > 0 {
			out = append(out, Outcome{Class: string(class), Count: rest})
		}
	}
	var noStatus int64 = c.requests - c.failures
	for st, n := range ok {
		if n > 0 {
			out = append(out, Outcome{Status: st, Count: n})
			noStatus -= n
		}
	}
	if noStatus > 0 { // succeeded without a status (a protocol that has none)
		out = append(out, Outcome{Count: noStatus})
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		return a.Status < b.Status || a.Status == b.Status && a.Class < b.Class
	})
	return out
}

func bucketsOf(st *aggregate) []Bucket {
	var out []Bucket
	for v, n := range st.latency.ForEachBucket {
		if n > 0 {
			_, high := PercentileBucket(v)
			out = append(out, Bucket{UpperUs: high, Count: n})
		}
	}
	return out
}

// statusKept reports whether the result's error statistics list the
// statuses of class (counts keep them for every class, for ticks).
func statusKept(class errclass.Class) bool {
	return class == errclass.HTTP4xx || class == errclass.HTTP5xx
}
