package report

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/surge-load/surge/metrics"
)

func TestLine(t *testing.T) {
	l := metrics.Live{Elapsed: 12*time.Second + 300*time.Millisecond, Users: 50, Busy: 7, Requests: 4321, Dropped: 3,
		RPS: 411.4, P50Ms: 2.1, P95Ms: 15, P99Ms: 230, ErrorRate: 0.0123, TopError: "http_5xx"}
	got := Line(l, 30*time.Second)
	for _, want := range []string{"12s/30s", "users 50 (busy 7)", "411 rps", "p50 2.10ms", "p95 15.0ms", "p99 230ms", "errors 1.23%", "top: http_5xx", "4321 requests", "3 dropped"} {
		if !strings.Contains(got, want) {
			t.Errorf("line %q lacks %q", got, want)
		}
	}
}

// TestProgressNotOnTerminal checks that without a terminal progress comes as
// whole lines, not redraws.
func TestProgressNotOnTerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for one 5 s progress line")
	}
	var buf bytes.Buffer
	p := &Progress{W: &buf, Live: func() metrics.Live { return metrics.Live{Users: 3} }}
	ctx, cancel := context.WithTimeout(context.Background(), 5200*time.Millisecond)
	defer cancel()
	p.Run(ctx)
	out := buf.String()
	if strings.Count(out, "\n") != 1 || strings.Contains(out, "\r") || !strings.Contains(out, "users 3") {
		t.Errorf("progress without a terminal wrote %q; want one plain line in 5 s", out)
	}
}
