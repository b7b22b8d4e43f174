package metrics

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/surge-load/surge/result"
)

// A Probe samples the load generator's own state once per interval.
type Probe interface {
	Sample() result.GeneratorPoint
}

// Recorder collects samples from many workers. Each worker records into a
// Shard, so the hot path takes no lock that other workers contend for; a
// collector folds the shards once per second into per-endpoint aggregates
// and the per-second series. Memory is bounded by endpoints × seconds, never
// by the number of operations.
type Recorder struct {
	mu        sync.RWMutex
	endpoints []string
	byName    map[string]EndpointID

	shards   []*Shard // the workers' shards, then the dispatcher's
	dispatch *Shard
	users    atomic.Int64
	busy     atomic.Int64

	// Owned by the collector; read by Result. state is held while the
	// collector folds an interval and while Result reads, so that a
	// checkpoint may be taken during the run.
	state   sync.Mutex
	start   time.Time
	probe   Probe
	iv      *interval
	run     []*aggregate // by EndpointID
	dropped int64
	lag     *aggregate // only its latency histogram and extremes are used
	series  []result.Point
	live    liveWindow
	warmup  result.Warmup // counts of the warm-up period
	warmEnd time.Time
	streams streamRecorder // long-lived connections; see streamrecord.go
	// The fold's reused scratch: the encoder of the series' histograms,
	// and the endpoints' shares of an interval (endpointseries.go).
	enc          histEncoder
	shares       []endpointShare
	mergedShares []*aggregate
	// Which rows have points of their own in the series (by EndpointID),
	// how many do, and how many were left out (MaxSeriesEndpoints).
	seriesRow                 []uint8
	seriesRows, seriesOmitted int

	stop chan struct{}
	done chan struct{}

	liveMu   sync.Mutex
	liveSnap Live

	onTick func(*Tick) // see OnTick
}

// NewRecorder returns a Recorder with the given number of shards; zero
// picks twice the number of CPUs, capped at 64.
func NewRecorder(shards int) *Recorder {
	if shards <= 0 {
		shards = min(2*runtime.GOMAXPROCS(0), 64)
	}
	r := &Recorder{byName: map[string]EndpointID{}, iv: newInterval(), lag: newAggregate()}
	for range shards {
		r.shards = append(r.shards, &Shard{})
	}
	r.dispatch = &Shard{}
	r.shards = append(r.shards, r.dispatch)
	return r
}

// Endpoint returns the ID of the statistics row called name, registering it
// on first use. It is safe for concurrent use; call it when building a plan,
// not per request.
func (r *Recorder) Endpoint(name string) EndpointID {
	r.mu.RLock()
	id, ok := r.byName[name]
	r.mu.RUnlock()
	if ok {
		return id
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if id, ok := r.byName[name]; ok {
		return id
	}
	id = EndpointID(len(r.endpoints))
	r.endpoints = append(r.endpoints, name)
	r.byName[name] = id
	return id
}

func (r *Recorder) endpointName(id EndpointID) string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.endpoints[id]
}

// Shard returns the shard that virtual user (or worker) id records into.
// Users share the shards: a shard serves every id equal to it modulo their
// number, so a run of 10,000 users locks 64 shards at most, never one each.
func (r *Recorder) Shard(worker int) *Shard {
	if worker < 0 {
		worker = -worker
	}
	return r.shards[worker%(len(r.shards)-1)]
}

// Dispatcher returns the shard of a load model's dispatcher, which no
// worker records into: the lag and drops of arrivals never wait behind a
// virtual user's recording.
func (r *Recorder) Dispatcher() *Shard { return r.dispatch }

// AddUsers changes the number of live virtual users by delta.
func (r *Recorder) AddUsers(delta int) { r.users.Add(int64(delta)) }

// AddBusy changes the number of virtual users inside an iteration by delta.
func (r *Recorder) AddBusy(delta int) { r.busy.Add(int64(delta)) }

// SetWarmup makes the operations meant to start before until the warm-up:
// the series keeps them, but the run's totals and endpoints leave them out,
// and the result counts them in its warmup block. Call it before Begin.
func (r *Recorder) SetWarmup(until time.Time) {
	r.warmEnd = until
	for _, s := range r.shards {
		s.mu.Lock()
		s.warmUntil = until
		s.mu.Unlock()
	}
}

// Begin starts the collector: from start on, every second it folds the
// shards into the series. probe, if not nil, is sampled at every interval.
func (r *Recorder) Begin(start time.Time, probe Probe) {
	r.start, r.probe = start, probe
	r.stop, r.done = make(chan struct{}), make(chan struct{})
	go r.collect()
}

// Finish stops the collector after a last, partial interval ending at end.
// After Finish, Result may be called.
func (r *Recorder) Finish(end time.Time) {
	close(r.stop)
	<-r.done
	if n := len(r.series); n > 0 {
		last := r.series[n-1]
		// The last interval must have a length, however short.
		lastEnd := r.start.Add(time.Duration((last.T+last.DurationS)*float64(time.Second)) + time.Millisecond)
		if end.Before(lastEnd) {
			end = lastEnd
		}
	}
	r.fold(end)
}

func (r *Recorder) collect() {
	defer close(r.done)
	for next := r.start.Add(time.Second); ; next = next.Add(time.Second) {
		t := time.NewTimer(time.Until(next))
		select {
		case <-r.stop:
			t.Stop()
			return
		case <-t.C:
		}
		r.fold(next)
	}
}

// fold drains every shard into one interval ending at end and appends it to
// the series and the run's aggregates.
func (r *Recorder) fold(end time.Time) {
	r.state.Lock()
	defer r.state.Unlock()
	iv := r.iv
	iv.reset()
	for _, s := range r.shards {
		s.drainInto(iv)
	}
	from := time.Duration(0)
	if n := len(r.series); n > 0 {
		last := r.series[n-1]
		from = time.Duration((last.T + last.DurationS) * float64(time.Second))
	}
	span := end.Sub(r.start) - from
	all := r.live.recycle()
	for id, ep := range iv.eps {
		if ep == nil || ep.empty() {
			continue
		}
		for int(id) >= len(r.run) {
			r.run = append(r.run, nil)
		}
		if r.run[id] == nil {
			r.run[id] = newAggregate()
		}
		r.run[id].merge(ep)
		all.mergeLatency(ep)
	}
	for _, ep := range iv.warm {
		if ep == nil || ep.empty() {
			continue
		}
		all.mergeLatency(ep)
		r.warmup.Requests += ep.requests
		r.warmup.Failures += ep.failures
	}
	r.warmup.Dropped += iv.warmDropped
	r.dropped += iv.dropped
	r.lag.latency.Merge(iv.lag)
	if iv.lag.TotalCount() > 0 {
		r.lag.latMaxNs = max(r.lag.latMaxNs, iv.lagMaxUs*1000)
		r.lag.requests += iv.lag.TotalCount()
	}

	p := result.Point{
		T:         from.Seconds(),
		DurationS: span.Seconds(),
		Users:     r.users.Load(),
		Busy:      r.busy.Load(),
		Requests:  all.requests,
		Failures:  all.failures,
		Dropped:   iv.dropped + iv.warmDropped,
		Errors:    errorCounts(&all.tally),
		Latency:   percentilesOfTally(all.latency, &all.tally),
	}
	if span > 0 {
		p.RPS = float64(all.requests) / span.Seconds()
	}
	p.LatencyHistogram = r.enc.encode(all.latency)
	shares := r.endpointShares(iv)
	p.Endpoints = r.endpointPoints(shares)
	if r.probe != nil {
		p.Generator = r.probe.Sample()
	}
	p.Generator.Arrivals, p.Generator.LateArrivals = iv.arrivals, iv.late
	if iv.lag.TotalCount() > 0 {
		p.Generator.LagP99Ms = msOf(min(iv.lag.ValueAtPercentile(99), iv.lagMaxUs))
		p.Generator.LagMaxMs = msOf(iv.lagMaxUs)
	}
	r.foldStreams(&p)
	r.series = append(r.series, p)
	if r.onTick != nil {
		r.onTick(r.tick(&p, shares))
	}
	r.live.push(&p, all)
	r.liveMu.Lock()
	r.liveSnap = r.live.snapshot(r.start, end, &p)
	r.liveMu.Unlock()
}

func errorCounts(c *tally) map[string]int64 {
	if len(c.errors) == 0 {
		return nil
	}
	m := make(map[string]int64, len(c.errors))
	for class, e := range c.errors {
		m[string(class)] = e.count
	}
	return m
}
