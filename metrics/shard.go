package metrics

import (
	"sync"
	"time"

	"github.com/surge-load/surge/errclass"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// A Shard takes the samples of a few workers for the current interval. Its
// lock is contended only by the collector, once per second, so recording
// costs an uncontended lock, a few counter updates and two histogram
// updates, and allocates nothing once the interval's buckets exist.
type Shard struct {
	mu      sync.Mutex
	eps     []*shardEndpoint // by EndpointID, grown on first use
	dropped int64
	lag     *hdr.PackedHistogram
	lagMax  int64 // µs
	// arrivals counts the arrivals handed out (open and burst models), and
	// late those handed out LateArrival or more after their time.
	arrivals, late int64

	// Operations meant to start before warmUntil are warm-up: they go to
	// warm and warmDropped instead (see Recorder.SetWarmup).
	warmUntil   time.Time
	warm        []*shardEndpoint
	warmDropped int64

	// The interval drained last, emptied: drainInto swaps it in under the
	// lock and merges the taken interval outside it, so that recording
	// never waits for the collector's merging, however many endpoints
	// there are. Owned by the collector between two drains.
	spare, spareWarm []*shardEndpoint
	spareLag         *hdr.PackedHistogram

	streams streamIntervals // long-lived connections; see streamrecord.go
}

// shardEndpoint is one endpoint's interval in a shard. Histograms are sparse
// so that memory follows the values seen, not the shards × endpoints grid.
type shardEndpoint struct {
	tally
	latency, service *hdr.PackedHistogram
	ok               *hdr.PackedHistogram // latency of the successes
}

// Record adds one operation's measurement.
func (s *Shard) Record(smp *Sample) {
	lat, svc := max(smp.Latency(), 0), max(smp.ServiceTime(), 0)
	latUs, svcUs := micros(lat), micros(svc)
	intended := smp.Intended
	if intended.IsZero() {
		intended = smp.Start
	}
	s.mu.Lock()
	eps := &s.eps
	if intended.Before(s.warmUntil) {
		eps = &s.warm
	}
	ep := endpointIn(eps, smp.Endpoint)
	ep.add(smp, int64(lat), int64(svc))
	if smp.Class == errclass.NotSent {
		s.mu.Unlock()
		return
	}
	_ = ep.latency.RecordValue(latUs)
	_ = ep.service.RecordValue(svcUs)
	if smp.Class == errclass.None {
		_ = ep.ok.RecordValue(latUs)
	}
	s.mu.Unlock()
}

// endpointIn returns endpoint id of *eps, growing it on first use.
func endpointIn(eps *[]*shardEndpoint, id EndpointID) *shardEndpoint {
	for int(id) >= len(*eps) {
		*eps = append(*eps, nil)
	}
	ep := (*eps)[id]
	if ep == nil {
		ep = &shardEndpoint{latency: newPacked(), service: newPacked(), ok: newPacked()}
		(*eps)[id] = ep
	}
	return ep
}

// Dropped counts an arrival that found no free virtual user and so was never
// sent; intended is when it should have started.
func (s *Shard) Dropped(intended time.Time) {
	s.mu.Lock()
	if intended.Before(s.warmUntil) {
		s.warmDropped++
	} else {
		s.dropped++
	}
	s.mu.Unlock()
}

// Lag records how late the generator started something it had scheduled:
// an arrival dispatched after its intended time, a think time that overslept.
func (s *Shard) Lag(d time.Duration) {
	us := micros(d)
	s.mu.Lock()
	if s.lag == nil {
		s.lag = newPacked()
	}
	_ = s.lag.RecordValue(us)
	s.lagMax = max(s.lagMax, us)
	s.mu.Unlock()
}

// LateArrival is how late an arrival must start to count as delayed by
// the generator (GeneratorPoint.LateArrivals).
const LateArrival = 50 * time.Millisecond

// ArrivalLag records how late an arrival of the open or burst model was
// handed to a user: scheduling lag (Lag) that delays a send whose latency
// counts from its intended time, so a late arrival is what makes a busy
// generator distort latency.
func (s *Shard) ArrivalLag(d time.Duration) {
	s.Lag(d)
	s.mu.Lock()
	s.arrivals++
	if d >= LateArrival {
		s.late++
	}
	s.mu.Unlock()
}

// drainInto moves the shard's interval into iv and empties the shard. The
// lock is held only to swap the interval with the empty spare; the merge
// into iv happens after, while the workers record into the spare.
func (s *Shard) drainInto(iv *interval) {
	if s.spareLag == nil {
		s.spareLag = newPacked()
	}
	s.mu.Lock()
	eps, warm, lag, lagMax := s.eps, s.warm, s.lag, s.lagMax
	s.eps, s.warm, s.lag, s.lagMax = s.spare, s.spareWarm, s.spareLag, 0
	iv.dropped += s.dropped
	s.dropped = 0
	iv.arrivals += s.arrivals
	iv.late += s.late
	s.arrivals, s.late = 0, 0
	iv.warmDropped += s.warmDropped
	s.warmDropped = 0
	s.mu.Unlock()

	if testHookDrain != nil {
		testHookDrain()
	}
	drainEndpoints(eps, &iv.eps)
	drainEndpoints(warm, &iv.warm)
	if lag != nil {
		iv.lag.Merge(lag)
		lag.Reset()
		iv.lagMaxUs = max(iv.lagMaxUs, lagMax)
	}
	s.spare, s.spareWarm, s.spareLag = eps, warm, lag
}

// testHookDrain, if set, is called by drainInto between taking a shard's
// interval and merging it.
var testHookDrain func()

// drainEndpoints moves the shard's endpoints eps into the interval's dst and
// empties them.
func drainEndpoints(eps []*shardEndpoint, dst *[]*aggregate) {
	for id, ep := range eps {
		if ep == nil || ep.empty() {
			continue
		}
		d := aggregateIn(dst, EndpointID(id))
		d.tally.merge(&ep.tally)
		d.latency.Merge(ep.latency)
		d.service.Merge(ep.service)
		d.ok.Merge(ep.ok)
		ep.tally.reset()
		ep.latency.Reset()
		ep.service.Reset()
		ep.ok.Reset()
	}
}
