package demo

import (
	"math"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestFailRate(t *testing.T) {
	const n = 2000
	count := func(cfg Config) int {
		s := newTestService(t, cfg)
		failed := 0
		for range n {
			switch rec := do(t, s, "GET", "/", nil); rec.Code {
			case http.StatusInternalServerError:
				wantError(t, rec, http.StatusInternalServerError, "injected failure")
				failed++
			case http.StatusOK:
			default:
				t.Fatalf("status %d", rec.Code)
			}
		}
		return failed
	}
	// Binomial(2000, 0.1): mean 200, std dev about 13.4; allow 5 sigma.
	got := count(Config{FailRate: 0.1, Seed: 42})
	if got < 133 || got > 267 {
		t.Errorf("fail rate 0.1 over %d requests: %d failures, want about 200", n, got)
	}
	if again := count(Config{FailRate: 0.1, Seed: 42}); again != got {
		t.Errorf("same seed gave %d then %d failures, want repeatable", got, again)
	}
	if got := count(Config{}); got != 0 {
		t.Errorf("fail rate 0: %d failures", got)
	}
	if got := count(Config{FailRate: 1}); got != n {
		t.Errorf("fail rate 1: %d failures, want %d", got, n)
	}
}

// TestKnobsExemptEndpoints checks that /metrics and /healthz ignore the
// failure knobs.
func TestKnobsExemptEndpoints(t *testing.T) {
	s := newTestService(t, Config{FailRate: 1, Latency: Latency{Mean: time.Hour}})
	wantStatus(t, do(t, s, "GET", "/healthz", nil), http.StatusOK)
	wantStatus(t, do(t, s, "GET", "/metrics", nil), http.StatusOK)
	wantStatus(t, do(t, s, "GET", "/", nil), http.StatusInternalServerError)
	wantStatus(t, do(t, s, "GET", "/api/v1/events", nil), http.StatusInternalServerError)
}

// TestMaxInFlight sends 20 concurrent requests to a service that
// processes at most 4 at a time, each taking 50ms, with a queue of 4: four
// run at once, four wait and run next, twelve get 503 at once.
func TestMaxInFlight(t *testing.T) {
	s := newTestService(t, Config{
		MaxInFlight: 4, QueueSize: 4, QueueTimeout: 2 * time.Second,
		Latency: Latency{Mean: 50 * time.Millisecond},
	})
	var peak atomic.Int64
	stop := make(chan struct{})
	var sampler sync.WaitGroup
	sampler.Go(func() {
		for {
			select {
			case <-stop:
				return
			default:
			}
			if p := s.faults.processing.Load(); p > peak.Load() {
				peak.Store(p)
			}
			time.Sleep(100 * time.Microsecond)
		}
	})

	type result struct {
		code    int
		elapsed time.Duration
	}
	results := make(chan result, 20)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			<-start
			t0 := time.Now()
			rec := httptest.NewRecorder()
			s.ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
			results <- result{rec.Code, time.Since(t0)}
		})
	}
	close(start)
	wg.Wait()
	close(stop)
	sampler.Wait()
	close(results)

	var ok, rejected int
	var slowest time.Duration
	for r := range results {
		switch r.code {
		case http.StatusOK:
			ok++
			slowest = max(slowest, r.elapsed)
		case http.StatusServiceUnavailable:
			rejected++
			if r.elapsed > 40*time.Millisecond {
				t.Errorf("503 took %v, want immediate", r.elapsed)
			}
		default:
			t.Errorf("status %d", r.code)
		}
	}
	if ok != 8 || rejected != 12 {
		t.Errorf("%d OK and %d rejected, want 8 and 12", ok, rejected)
	}
	if p := peak.Load(); p > 4 || p == 0 {
		t.Errorf("peak concurrency %d, want at most 4", p)
	}
	if slowest < 95*time.Millisecond {
		t.Errorf("slowest OK took %v; queued requests should wait for a slot (~100ms)", slowest)
	}
	if got := counterValue(t, s, "surge_demo_rejected_requests_total"); got != 12 {
		t.Errorf("rejected metric %v, want 12", got)
	}
}

func TestQueueTimeout(t *testing.T) {
	s := newTestService(t, Config{
		MaxInFlight: 1, QueueSize: 1, QueueTimeout: 20 * time.Millisecond,
		Latency: Latency{Mean: 300 * time.Millisecond},
	})
	first := make(chan int, 1)
	go func() { first <- do(t, s, "GET", "/", nil).Code }()
	eventually(t, time.Second, "first request to take the slot", func() bool { return s.faults.processing.Load() == 1 })
	start := time.Now()
	wantError(t, do(t, s, "GET", "/", nil), http.StatusServiceUnavailable, "queue wait timeout exceeded")
	if el := time.Since(start); el < 15*time.Millisecond || el > 250*time.Millisecond {
		t.Errorf("queued request rejected after %v, want about 20ms", el)
	}
	if code := <-first; code != http.StatusOK {
		t.Errorf("first request status %d", code)
	}
}

// TestStall checks that requests arriving in a stall window are held
// until it ends and that others pass straight through.
func TestStall(t *testing.T) {
	s := newTestService(t, Config{StallEvery: 400 * time.Millisecond, StallFor: 200 * time.Millisecond})
	f := s.faults
	phase := func() time.Duration { return time.Since(f.start) % f.stallEvery }
	eventually(t, time.Second, "the start of a healthy period", func() bool { return phase() < 100*time.Millisecond })
	t0 := time.Now()
	wantStatus(t, do(t, s, "GET", "/", nil), http.StatusOK)
	if el := time.Since(t0); el > 90*time.Millisecond {
		t.Errorf("request outside a stall took %v", el)
	}

	eventually(t, time.Second, "a stall with 100ms left", func() bool {
		d := f.stallRemaining(time.Now())
		return d > 100*time.Millisecond
	})
	t0 = time.Now()
	want := f.stallRemaining(t0)
	wantStatus(t, do(t, s, "GET", "/", nil), http.StatusOK)
	if el := time.Since(t0); el < want-5*time.Millisecond {
		t.Errorf("request in a stall took %v, want it held for the rest of the stall (%v)", el, want)
	}
	if got := counterValue(t, s, "surge_demo_stalled_requests_total"); got < 1 {
		t.Errorf("stalled requests metric %v, want at least 1", got)
	}
	// /healthz is never stalled.
	eventually(t, time.Second, "a stall with 100ms left", func() bool {
		return f.stallRemaining(time.Now()) > 100*time.Millisecond
	})
	t0 = time.Now()
	wantStatus(t, do(t, s, "GET", "/healthz", nil), http.StatusOK)
	if el := time.Since(t0); el > 50*time.Millisecond {
		t.Errorf("/healthz took %v during a stall", el)
	}
}

func TestStallWindow(t *testing.T) {
	start := time.Unix(1000, 0)
	f := &faults{start: start, stallEvery: 30 * time.Second, stallFor: 2 * time.Second}
	for _, tc := range []struct {
		at   time.Duration
		want time.Duration
	}{
		{0, 0},
		{27 * time.Second, 0},
		{28 * time.Second, 2 * time.Second},
		{29500 * time.Millisecond, 500 * time.Millisecond},
		{30 * time.Second, 0},
		{58 * time.Second, 2 * time.Second},
	} {
		if got := f.stallRemaining(start.Add(tc.at)); got != tc.want {
			t.Errorf("at %v: stall remaining %v, want %v", tc.at, got, tc.want)
		}
	}
}

func TestCPUCost(t *testing.T) {
	s := newTestService(t, Config{CPUCost: 20 * time.Millisecond})
	t0 := time.Now()
	wantStatus(t, do(t, s, "GET", "/", nil), http.StatusOK)
	if el := time.Since(t0); el < 20*time.Millisecond {
		t.Errorf("request took %v, want at least the 20ms CPU cost", el)
	}
}

func TestLatencySample(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	const n = 20000
	stats := func(l Latency) (mean, sd float64, lo, hi time.Duration) {
		var sum, sq float64
		lo = time.Duration(math.MaxInt64)
		for range n {
			d := l.Sample(r)
			lo, hi = min(lo, d), max(hi, d)
			sum += float64(d)
			sq += float64(d) * float64(d)
		}
		mean = sum / n
		return mean, math.Sqrt(sq/n - mean*mean), lo, hi
	}
	ms := float64(time.Millisecond)
	near := func(got, want float64) bool { return math.Abs(got-want) < 0.05*want+0.1*ms }

	if mean, _, lo, hi := stats(Latency{Mean: 20 * time.Millisecond}); lo != hi || mean != 20*ms {
		t.Errorf("fixed: mean %v, range %v..%v", mean, lo, hi)
	}
	if mean, _, lo, hi := stats(Latency{Dist: Uniform, Min: 10 * time.Millisecond, Max: 30 * time.Millisecond}); !near(mean, 20*ms) || lo < 10*time.Millisecond || hi > 30*time.Millisecond {
		t.Errorf("uniform: mean %v, range %v..%v", time.Duration(mean), lo, hi)
	}
	if mean, sd, lo, _ := stats(Latency{Dist: Normal, Mean: 20 * time.Millisecond, StdDev: 5 * time.Millisecond}); !near(mean, 20*ms) || !near(sd, 5*ms) || lo < 0 {
		t.Errorf("normal: mean %v, sd %v, min %v", time.Duration(mean), time.Duration(sd), lo)
	}
	if _, _, lo, _ := stats(Latency{Dist: Normal, Mean: time.Millisecond, StdDev: 10 * time.Millisecond}); lo < 0 {
		t.Errorf("normal with a wide spread went negative: %v", lo)
	}
	if mean, sd, lo, _ := stats(Latency{Dist: Exponential, Mean: 20 * time.Millisecond}); !near(mean, 20*ms) || !near(sd, 20*ms) || lo < 0 {
		t.Errorf("exponential: mean %v, sd %v, min %v", time.Duration(mean), time.Duration(sd), lo)
	}
	if d := (Latency{}).Sample(nil); d != 0 {
		t.Errorf("zero latency sampled %v", d)
	}
	if d := (Latency{Dist: Uniform, Min: time.Millisecond, Max: 2 * time.Millisecond}).Sample(nil); d < time.Millisecond || d > 2*time.Millisecond {
		t.Errorf("uniform with nil rand sampled %v", d)
	}
}

// TestLatencyKnob checks that the added latency applies to requests.
func TestLatencyKnob(t *testing.T) {
	s := newTestService(t, Config{Latency: Latency{Dist: Uniform, Min: 30 * time.Millisecond, Max: 40 * time.Millisecond}})
	t0 := time.Now()
	uid, _ := createUser(t, s, "slow")
	if el := time.Since(t0); el < 30*time.Millisecond || uid == 0 {
		t.Errorf("request took %v, want at least 30ms", el)
	}
}
