package demo

import (
	"context"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// The internals the field reports were chasing, each behind a knob and on
// /metrics:
//
//   - a cache of items with a TTL (--cache-ttl) in front of a slow backing
//     store (--store-latency) behind a bounded pool (--store-pool) with a
//     pending gauge. Every miss goes to the store (no request coalescing),
//     and the items loaded together expire together, so each expiry sends
//     a stampede to the store: GET /api/v1/items/{id} slows down and its
//     throughput dips every TTL;
//   - a warm-up phase of extra CPU per request after start (--warmup-cpu
//     D/P: D at the start, falling to nothing over P), as a JIT warms up;
//   - an external call that is rate-limited (--external-rate, a token
//     bucket): GET /api/v1/poll waits for a token, up to --external-wait,
//     then answers 429.
//
// Its own file descriptors, heap and goroutines are on /metrics from the
// process and Go collectors (process_open_fds, go_memstats_heap_alloc_bytes,
// go_goroutines).
type internals struct {
	cfg   Config
	start time.Time

	mu    sync.Mutex
	items map[int]time.Time // item → expiry
	pool  chan struct{}

	tokens chan struct{}

	hits, misses, storeFetches, externalCalls, externalLimited prometheus.Counter
	warmupCPUSeconds                                           prometheus.Counter
	pending, inUse, externalWaiting                            prometheus.Gauge
}

func newInternals(cfg Config, m *metrics, done <-chan struct{}, wg *sync.WaitGroup) *internals {
	in := &internals{cfg: cfg, start: time.Now(), items: map[int]time.Time{}, pool: make(chan struct{}, max(cfg.StorePool, 1))}
	f := factory{m.registry}
	in.hits = f.counter("cache_hits_total", "Item lookups answered from the cache.")
	in.misses = f.counter("cache_misses_total", "Item lookups that missed the cache (absent or expired) and went to the store.")
	in.storeFetches = f.counter("store_fetches_total", "Fetches from the slow backing store.")
	in.pending = f.gauge("store_pool_pending", "Fetches waiting for a connection of the store's bounded pool.")
	in.inUse = f.gauge("store_pool_in_use", "Connections of the store's pool in use.")
	f.gaugeFunc("store_pool_size", "Connections in the store's pool.", func() float64 { return float64(cap(in.pool)) })
	f.gaugeFunc("cache_items", "Items in the cache, fresh or expired.", func() float64 {
		in.mu.Lock()
		defer in.mu.Unlock()
		return float64(len(in.items))
	})
	in.warmupCPUSeconds = f.counter("warmup_cpu_seconds_total", "CPU time burnt by the warm-up phase (--warmup-cpu).")
	f.gaugeFunc("warmup_cpu_per_request_seconds", "Extra CPU each request costs now, in the warm-up phase.", func() float64 {
		return time.Duration(in.warmupCost(time.Now())).Seconds()
	})
	in.externalCalls = f.counter("external_calls_total", "Calls made to the rate-limited external service.")
	in.externalLimited = f.counter("external_limited_total", "Calls refused (429) after waiting --external-wait for the external service's rate limit.")
	in.externalWaiting = f.gauge("external_waiting", "Calls waiting for the external service's rate limit.")
	if cfg.ExternalRate > 0 {
		burst := max(1, int(cfg.ExternalRate/10))
		in.tokens = make(chan struct{}, burst)
		for range burst {
			in.tokens <- struct{}{}
		}
		wg.Go(func() { in.refill(done) })
	}
	return in
}

// refill adds the external service's tokens at its rate.
func (in *internals) refill(done <-chan struct{}) {
	every := time.Duration(float64(time.Second) / in.cfg.ExternalRate)
	t := time.NewTicker(max(every, time.Millisecond))
	defer t.Stop()
	per := max(1, int(float64(time.Millisecond)/float64(every))) // tokens per tick when the rate beats the ticker
	for {
		select {
		case <-done:
			return
		case <-t.C:
			for range per {
				select {
				case in.tokens <- struct{}{}:
				default:
				}
			}
		}
	}
}

// warmupCost is the extra CPU a request costs at now: WarmupCPU at the
// start, falling linearly to nothing over WarmupFor.
func (in *internals) warmupCost(now time.Time) time.Duration {
	if in.cfg.WarmupCPU <= 0 || in.cfg.WarmupFor <= 0 {
		return 0
	}
	left := in.cfg.WarmupFor - now.Sub(in.start)
	if left <= 0 {
		return 0
	}
	return time.Duration(float64(in.cfg.WarmupCPU) * float64(left) / float64(in.cfg.WarmupFor))
}

// warmUp burns the warm-up phase's CPU for one request.
func (in *internals) warmUp() {
	if d := in.warmupCost(time.Now()); d > 0 {
		burnCPU(d)
		in.warmupCPUSeconds.Add(d.Seconds())
	}
}

// handleItem serves GET /api/v1/items/{id}: the item from the cache, or
// from the slow store on a miss.
func (s *Service) handleItem(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.Atoi(r.PathValue("id"))
	if err != nil || id < 1 || id > s.cfg.Items {
		writeError(w, http.StatusNotFound, "no item %q: items are 1 to %d (--items)", r.PathValue("id"), s.cfg.Items)
		return
	}
	in := s.internals
	now := time.Now()
	in.mu.Lock()
	exp, ok := in.items[id]
	in.mu.Unlock()
	source := "cache"
	if !ok || !now.Before(exp) {
		in.misses.Inc()
		if !in.fetch(r.Context()) {
			writeError(w, http.StatusServiceUnavailable, "store fetch cancelled")
			return
		}
		ttl := s.cfg.CacheTTL
		if ttl <= 0 {
			ttl = 0 // no cache: every lookup is a miss
		}
		in.mu.Lock()
		in.items[id] = time.Now().Add(ttl)
		in.mu.Unlock()
		source = "store"
	} else {
		in.hits.Inc()
	}
	writeJSON(w, http.StatusOK, map[string]any{"id": id, "name": "item " + strconv.Itoa(id), "from": source})
}

// fetch reads from the slow store through its bounded pool.
func (in *internals) fetch(ctx context.Context) bool {
	in.pending.Inc()
	select {
	case in.pool <- struct{}{}:
		in.pending.Dec()
	case <-ctx.Done():
		in.pending.Dec()
		return false
	}
	in.inUse.Inc()
	defer func() { <-in.pool; in.inUse.Dec() }()
	in.storeFetches.Inc()
	t := time.NewTimer(in.cfg.StoreLatency)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// handlePoll serves GET /api/v1/poll: one call to the rate-limited
// external service, which waits for the rate limit up to ExternalWait.
func (s *Service) handlePoll(w http.ResponseWriter, r *http.Request) {
	in := s.internals
	if in.tokens != nil {
		in.externalWaiting.Inc()
		t := time.NewTimer(s.cfg.ExternalWait)
		select {
		case <-in.tokens:
			in.externalWaiting.Dec()
			t.Stop()
		case <-t.C:
			in.externalWaiting.Dec()
			in.externalLimited.Inc()
			writeError(w, http.StatusTooManyRequests, "external service rate limit (%g/s): waited %v", s.cfg.ExternalRate, s.cfg.ExternalWait)
			return
		case <-r.Context().Done():
			in.externalWaiting.Dec()
			t.Stop()
			return
		}
	}
	in.externalCalls.Inc()
	writeJSON(w, http.StatusOK, map[string]any{"status": "ok", "at": time.Now().UTC().Format(time.RFC3339Nano)})
}
