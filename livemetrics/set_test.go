package livemetrics

import (
	"io"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/surge-load/surge/metrics"
	"github.com/surge-load/surge/result"
)

// TestSetCounts adds two ticks and reads the counters, the histogram and
// the text exposition back.
func TestSetCounts(t *testing.T) {
	s := New(map[string]string{"GET /": "browse"}, "")
	tick := &metrics.Tick{
		Point: result.Point{Users: 7},
		Endpoints: []metrics.EndpointTick{{
			Name: "GET /", Requests: 5, Failures: 2,
			Outcomes:       []metrics.Outcome{{Status: 200, Count: 3}, {Status: 503, Class: "http_5xx", Count: 1}, {Class: "timeout", Count: 1}},
			LatencyBuckets: []metrics.Bucket{{UpperUs: 1000, Count: 4}, {UpperUs: 2_000_000, Count: 1}},
		}},
	}
	s.Add(tick)
	s.Add(tick)
	s.AddDropped(map[string]int64{"browse": 4})
	s.AddDropped(map[string]int64{"browse": 6})

	rec := httptest.NewRecorder()
	s.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	body, _ := io.ReadAll(rec.Body)
	for _, want := range []string{
		`surge_requests_total{class="ok",endpoint="GET /",scenario="browse",status="200"} 6`,
		`surge_requests_total{class="http_5xx",endpoint="GET /",scenario="browse",status="503"} 2`,
		`surge_requests_total{class="timeout",endpoint="GET /",scenario="browse",status=""} 2`,
		`surge_dropped_total{scenario="browse"} 6`,
		`surge_request_duration_seconds_bucket{endpoint="GET /",scenario="browse",le="0.001"} 8`,
		`surge_request_duration_seconds_bucket{endpoint="GET /",scenario="browse",le="1"} 8`,
		`surge_request_duration_seconds_bucket{endpoint="GET /",scenario="browse",le="2.5"} 10`,
		`surge_request_duration_seconds_count{endpoint="GET /",scenario="browse"} 10`,
		`surge_users 7`,
	} {
		if !strings.Contains(string(body), want+"\n") {
			t.Errorf("/metrics lacks %s", want)
		}
	}
	fams, err := s.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fams {
		if f.GetName() == RequestDuration {
			h := f.GetMetric()[0].GetHistogram()
			if h.Schema == nil || h.GetSampleCount() != 10 {
				t.Errorf("no native histogram of 10 values: %v", h)
			}
		}
	}
}

// A segment of a split plan labels every series, so that segments on one
// backend write series of their own; an unsplit plan has no such label.
func TestSegmentLabel(t *testing.T) {
	if Segment(0, 1) != "" || Segment(1, 4) != "1/4" {
		t.Fatalf("Segment(0, 1) %q, Segment(1, 4) %q; want \"\" and \"1/4\"", Segment(0, 1), Segment(1, 4))
	}
	s := New(map[string]string{"GET /": "browse"}, "1/4")
	s.Add(&metrics.Tick{Endpoints: []metrics.EndpointTick{{Name: "GET /", Requests: 1, Outcomes: []metrics.Outcome{{Status: 200, Count: 1}}}}})
	fams, err := s.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fams {
		for _, m := range f.GetMetric() {
			found := false
			for _, l := range m.GetLabel() {
				found = found || l.GetName() == SegmentLabel && l.GetValue() == "1/4"
			}
			if !found {
				t.Errorf("%s %v: no segment=1/4", f.GetName(), m.GetLabel())
			}
		}
	}
}
