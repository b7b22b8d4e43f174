package demo

import (
	"math/rand/v2"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// faults applies the failure knobs to a request before its handler runs:
// stall, injected failure, in-flight limit with queue, added latency and
// CPU cost, in that order. Latency and CPU cost are spent while holding an
// in-flight slot, so they count as service time: with MaxInFlight N and a
// per-request service time T, capacity is about N/T requests per second.
type faults struct {
	start      time.Time
	stallEvery time.Duration
	stallFor   time.Duration
	failRate   float64
	latency    Latency
	cpuCost    time.Duration

	rngMu sync.Mutex
	rng   *rand.Rand

	slots        chan struct{} // nil when MaxInFlight is 0
	queued       atomic.Int64
	queueSize    int64
	queueTimeout time.Duration
	processing   atomic.Int64 // requests past admission, not yet released

	m    *metrics
	done <-chan struct{}
}

func newFaults(cfg Config, start time.Time, m *metrics, done <-chan struct{}) *faults {
	seed := cfg.Seed
	if seed == 0 {
		seed = rand.Uint64()
	}
	f := &faults{
		start:        start,
		stallEvery:   cfg.StallEvery,
		stallFor:     cfg.StallFor,
		failRate:     cfg.FailRate,
		latency:      cfg.Latency,
		cpuCost:      cfg.CPUCost,
		rng:          rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)),
		queueSize:    int64(cfg.QueueSize),
		queueTimeout: cfg.QueueTimeout,
		m:            m,
		done:         done,
	}
	if cfg.MaxInFlight > 0 {
		f.slots = make(chan struct{}, cfg.MaxInFlight)
	}
	return f
}

// admit runs the knobs for r. If the request may proceed it returns a
// release func that the caller must call when done processing; otherwise
// it has already answered the request and returns ok false.
func (f *faults) admit(w http.ResponseWriter, r *http.Request) (release func(), ok bool) {
	if d := f.stallRemaining(time.Now()); d > 0 {
		f.m.stalled.Inc()
		if !f.sleep(r, d) {
			writeError(w, http.StatusServiceUnavailable, "service closing or request cancelled during stall")
			return nil, false
		}
	}
	if f.failRate > 0 && f.float64() < f.failRate {
		f.m.injectedFailures.Inc()
		writeError(w, http.StatusInternalServerError, "injected failure")
		return nil, false
	}
	if f.slots != nil {
		if msg := f.acquire(r); msg != "" {
			f.m.rejected.Inc()
			writeError(w, http.StatusServiceUnavailable, "%s", msg)
			return nil, false
		}
	}
	f.processing.Add(1)
	release = func() {
		f.processing.Add(-1)
		if f.slots != nil {
			<-f.slots
		}
	}
	if !f.latency.IsZero() {
		if !f.sleep(r, f.sampleLatency()) {
			release()
			writeError(w, http.StatusServiceUnavailable, "service closing or request cancelled")
			return nil, false
		}
	}
	burnCPU(f.cpuCost)
	return release, true
}

// stallRemaining returns how long the stall in progress at now lasts, or 0
// outside stalls. Stalls occupy the last StallFor of every StallEvery
// period counted from service start, so a fresh service starts healthy.
func (f *faults) stallRemaining(now time.Time) time.Duration {
	if f.stallEvery <= 0 || f.stallFor <= 0 {
		return 0
	}
	phase := now.Sub(f.start) % f.stallEvery
	if phase >= f.stallEvery-f.stallFor {
		return f.stallEvery - phase
	}
	return 0
}

// acquire takes an in-flight slot, waiting in the queue if there is room.
// It returns a reason for 503 when the request must be turned away.
func (f *faults) acquire(r *http.Request) (reject string) {
	select {
	case f.slots <- struct{}{}:
		return ""
	default:
	}
	if f.queued.Add(1) > f.queueSize {
		f.queued.Add(-1)
		return "server at capacity: queue full"
	}
	defer f.queued.Add(-1)
	var timeout <-chan time.Time
	if f.queueTimeout > 0 {
		t := time.NewTimer(f.queueTimeout)
		defer t.Stop()
		timeout = t.C
	}
	select {
	case f.slots <- struct{}{}:
		return ""
	case <-timeout:
		return "server at capacity: queue wait timeout exceeded"
	case <-r.Context().Done():
		return "request cancelled while queued"
	case <-f.done:
		return "service closing"
	}
}

// sleep waits for d, reporting false if the request or service ended first.
func (f *faults) sleep(r *http.Request, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-r.Context().Done():
		return false
	case <-f.done:
		return false
	}
}

func (f *faults) float64() float64 {
	f.rngMu.Lock()
	defer f.rngMu.Unlock()
	return f.rng.Float64()
}

func (f *faults) sampleLatency() time.Duration {
	f.rngMu.Lock()
	defer f.rngMu.Unlock()
	return f.latency.Sample(f.rng)
}

// cpuSink keeps burnCPU's arithmetic from being optimized away.
var cpuSink atomic.Uint64

// burnCPU keeps one CPU busy for d of wall time, checking the clock every
// few hundred multiply-adds.
func burnCPU(d time.Duration) {
	if d <= 0 {
		return
	}
	deadline := time.Now().Add(d)
	x := uint64(1)
	for time.Now().Before(deadline) {
		for range 256 {
			x = x*6364136223846793005 + 1442695040888963407
		}
	}
	cpuSink.Store(x)
}
