package demo

import (
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// counterValue returns the sum over all series of the named metric in s's
// registry (counter, gauge or untyped).
func counterValue(t *testing.T, s *Service, name string) float64 {
	t.Helper()
	fams, err := s.m.registry.Gather()
	if err != nil {
		t.Fatalf("gather: %v", err)
	}
	for _, f := range fams {
		if f.GetName() == name {
			return sumFamily(f)
		}
	}
	t.Fatalf("metric %s not found", name)
	return 0
}

func sumFamily(f *dto.MetricFamily) float64 {
	var sum float64
	for _, m := range f.GetMetric() {
		switch {
		case m.Counter != nil:
			sum += m.GetCounter().GetValue()
		case m.Gauge != nil:
			sum += m.GetGauge().GetValue()
		case m.Untyped != nil:
			sum += m.GetUntyped().GetValue()
		}
	}
	return sum
}

// scrape fetches /metrics in the text format and parses it.
func scrape(t *testing.T, h http.Handler) map[string]*dto.MetricFamily {
	t.Helper()
	rec := do(t, h, "GET", "/metrics", nil)
	wantStatus(t, rec, http.StatusOK)
	if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, "text/plain") {
		t.Fatalf("metrics content type %q, want text/plain", ct)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(rec.Body)
	if err != nil {
		t.Fatalf("parse metrics: %v", err)
	}
	return fams
}

// seriesValue returns the value of the series of fam with exactly the
// given labels, and whether it exists.
func seriesValue(fam *dto.MetricFamily, labels map[string]string) (float64, bool) {
	if fam == nil {
		return 0, false
	}
outer:
	for _, m := range fam.GetMetric() {
		if len(m.GetLabel()) != len(labels) {
			continue
		}
		for _, lp := range m.GetLabel() {
			if labels[lp.GetName()] != lp.GetValue() {
				continue outer
			}
		}
		return sumFamily(&dto.MetricFamily{Metric: []*dto.Metric{m}}), true
	}
	return 0, false
}

func TestMetrics(t *testing.T) {
	s := newTestService(t, Config{LogBufferLines: 500, LockWait: 10 * time.Millisecond})
	uid, root := createUser(t, s, "alice")
	a := createFolder(t, s, uid, root, "a")
	wantStatus(t, do(t, s, "POST", "/api/v1/users", map[string]any{}), http.StatusBadRequest)
	wantStatus(t, do(t, s, "POST", "/api/v1/logs", "one\ntwo\n"), http.StatusAccepted)
	wantStatus(t, do(t, s, "GET", "/no/such/path", nil), http.StatusNotFound)

	tr := s.folders.folder(root).tree
	if _, err := tr.lock.lock(t.Context(), 0); err != nil {
		t.Fatal(err)
	}
	wantStatus(t, moveFolder(t, s, uid, a, root), http.StatusServiceUnavailable)
	tr.lock.unlock()

	fams := scrape(t, s)
	for _, tc := range []struct {
		name   string
		labels map[string]string
		want   float64
	}{
		{"surge_demo_requests_total", map[string]string{"endpoint": "POST /api/v1/users", "code": "201"}, 1},
		{"surge_demo_requests_total", map[string]string{"endpoint": "POST /api/v1/users", "code": "400"}, 1},
		{"surge_demo_requests_total", map[string]string{"endpoint": "POST /api/v1/folders", "code": "201"}, 1},
		{"surge_demo_requests_total", map[string]string{"endpoint": "PATCH /api/v1/folders/{id}", "code": "503"}, 1},
		{"surge_demo_requests_total", map[string]string{"endpoint": "unmatched", "code": "404"}, 1},
		{"surge_demo_requests_in_flight", nil, 1}, // the scrape itself
		{"surge_demo_lock_waits_total", nil, 1},
		{"surge_demo_lock_wait_timeouts_total", nil, 1},
		{"surge_demo_log_buffer_capacity_lines", nil, 500},
		{"surge_demo_log_lines_accepted_total", nil, 2},
		{"surge_demo_sse_subscriptions", nil, 0},
		{"surge_demo_requests_processing", nil, 0},
	} {
		got, ok := seriesValue(fams[tc.name], tc.labels)
		if !ok || got != tc.want {
			t.Errorf("%s%v = %v (found %v), want %v", tc.name, tc.labels, got, ok, tc.want)
		}
	}
	for _, name := range []string{
		"surge_demo_log_buffer_lines", "surge_demo_log_lines_flushed_total", "surge_demo_log_lines_rejected_total",
		"surge_demo_request_duration_seconds", "surge_demo_rejected_requests_total", "surge_demo_injected_failures_total",
		"surge_demo_requests_queued", "surge_demo_sse_events_published_total",
		"go_goroutines",
	} {
		if fams[name] == nil {
			t.Errorf("metric %s missing", name)
		}
	}
	if runtime.GOOS == "linux" {
		for _, name := range []string{"process_cpu_seconds_total", "process_resident_memory_bytes"} {
			if v, ok := seriesValue(fams[name], nil); !ok || v <= 0 {
				t.Errorf("%s = %v (found %v), want > 0", name, v, ok)
			}
		}
	}
	if v, _ := seriesValue(fams["go_goroutines"], nil); v < 2 {
		t.Errorf("go_goroutines = %v, want at least the flusher and the ticker", v)
	}
}

// TestMetricsPerService checks that two services keep separate counts.
func TestMetricsPerService(t *testing.T) {
	s1 := newTestService(t, Config{})
	s2 := newTestService(t, Config{})
	createUser(t, s1, "alice")
	key := map[string]string{"endpoint": "POST /api/v1/users", "code": "201"}
	if v, ok := seriesValue(scrape(t, s1)["surge_demo_requests_total"], key); !ok || v != 1 {
		t.Errorf("service 1 counted %v users, want 1", v)
	}
	if _, ok := seriesValue(scrape(t, s2)["surge_demo_requests_total"], key); ok {
		t.Error("service 2 counted service 1's request")
	}
}
