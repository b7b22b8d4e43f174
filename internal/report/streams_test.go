package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/surge-load/surge/metrics"
	"github.com/surge-load/surge/result"
)

func TestSummaryStreams(t *testing.T) {
	st := &result.StreamStats{
		Opened: 50000, Reconnects: 12, OpenMax: 49990, Events: 1234567, EventsPerSec: 4115.2, BytesIn: 150 << 20,
		Connect: result.Percentiles{P50: 0.2, P99: 3.1}, ConnectHistogram: "x",
		FirstEvent: result.Percentiles{P50: 2500, P99: 4900}, FirstEventHistogram: "x",
		Ends:       map[string]int64{"interrupted": 49990, "reset": 10, "held": 12},
		CloseCodes: map[string]int64{"1000": 3},
	}
	r := &result.Result{Endpoints: []result.EndpointStats{{Name: "GET /events", Stats: result.Stats{Streams: st}}}}
	r.Totals.Streams = st
	var b bytes.Buffer
	streams(&b, r)
	out := b.String()
	for _, want := range []string{
		"Streams: 50,000 opened (12 reconnections) · 49,990 open at most · 1,234,567 events (4115.2/s) · 150.0 MiB in",
		"connect p50 200µs p99 3.10ms · first event p50 2.50s p99 4.90s",
		"ends: held 12 · reset 10 · interrupted 49,990 · close codes 1000×3",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the streams section lacks %q:\n%s", want, out)
		}
	}
	b.Reset()
	streams(&b, &result.Result{})
	if b.Len() != 0 {
		t.Errorf("a run without streams has a streams section: %q", b.String())
	}
}

func TestProgressLineShowsOpenStreams(t *testing.T) {
	l := metrics.Live{Users: 3, Busy: 3, Requests: 3, Streams: 3}
	if got := Line(l, 0); !strings.HasSuffix(got, " · 3 requests · 3 streams open") {
		t.Errorf("progress line %q does not show the open streams", got)
	}
	l.Streams = 0
	if got := Line(l, 0); strings.Contains(got, "streams") {
		t.Errorf("progress line %q shows streams in a run without", got)
	}
}
