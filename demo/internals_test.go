package demo

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

func metricValue(t *testing.T, url, name string) string {
	t.Helper()
	resp, err := http.Get(url + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, name+" ") {
			return strings.TrimPrefix(line, name+" ")
		}
	}
	t.Fatalf("no metric %s", name)
	return ""
}

// The cache: a first round of lookups misses and waits for the store's
// pool (pending fetches show), the next is served from the cache, and once
// the TTL passes they all miss again, together.
func TestCacheStampede(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Items, cfg.CacheTTL, cfg.StoreLatency, cfg.StorePool = 8, 300*time.Millisecond, 30*time.Millisecond, 2
	svc := New(cfg)
	defer svc.Close()
	srv := httptest.NewServer(svc)
	defer srv.Close()
	round := func() {
		var wg sync.WaitGroup
		for id := 1; id <= 8; id++ {
			wg.Go(func() {
				resp, err := http.Get(srv.URL + "/api/v1/items/" + string(rune('0'+id)))
				if err != nil || resp.StatusCode != 200 {
					t.Errorf("item %d: %v %v", id, resp, err)
					return
				}
				resp.Body.Close()
			})
		}
		wg.Wait()
	}
	round()
	if got := metricValue(t, srv.URL, "surge_demo_cache_misses_total"); got != "8" {
		t.Errorf("misses after the first round = %s, want 8", got)
	}
	round()
	if got := metricValue(t, srv.URL, "surge_demo_cache_hits_total"); got != "8" {
		t.Errorf("hits after the second round = %s, want 8", got)
	}
	time.Sleep(400 * time.Millisecond)
	round()
	if got := metricValue(t, srv.URL, "surge_demo_cache_misses_total"); got != "16" {
		t.Errorf("misses after expiry = %s, want 16", got)
	}
	if got := metricValue(t, srv.URL, "surge_demo_store_fetches_total"); got != "16" {
		t.Errorf("store fetches = %s, want 16", got)
	}
	if resp, _ := http.Get(srv.URL + "/api/v1/items/9"); resp.StatusCode != 404 {
		t.Errorf("item 9 of 8: %d", resp.StatusCode)
	}
}

// The external service's rate limit: calls beyond it wait, then get 429.
func TestExternalRateLimit(t *testing.T) {
	cfg := DefaultConfig()
	cfg.ExternalRate, cfg.ExternalWait = 10, 50*time.Millisecond
	svc := New(cfg)
	defer svc.Close()
	srv := httptest.NewServer(svc)
	defer srv.Close()
	var ok, limited int
	for range 20 {
		resp, err := http.Get(srv.URL + "/api/v1/poll")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		switch resp.StatusCode {
		case 200:
			ok++
		case 429:
			limited++
		}
	}
	if limited == 0 || ok == 0 {
		t.Errorf("20 calls at once against 10/s: %d ok, %d limited", ok, limited)
	}
}

// The warm-up phase costs CPU at first and nothing after.
func TestWarmupCPU(t *testing.T) {
	cfg := DefaultConfig()
	cfg.WarmupCPU, cfg.WarmupFor = 20*time.Millisecond, 200*time.Millisecond
	in := newInternals(cfg.normalized(), newMetrics(), make(chan struct{}), &sync.WaitGroup{})
	if d := in.warmupCost(in.start); d != 20*time.Millisecond {
		t.Errorf("cost at start %v", d)
	}
	if d := in.warmupCost(in.start.Add(100 * time.Millisecond)); d != 10*time.Millisecond {
		t.Errorf("cost half way %v", d)
	}
	if d := in.warmupCost(in.start.Add(time.Second)); d != 0 {
		t.Errorf("cost after %v", d)
	}
}
