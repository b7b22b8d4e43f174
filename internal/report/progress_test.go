package report

import (
	"bytes"
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
// whole lines every five seconds of the run, not redraws.
func TestProgressNotOnTerminal(t *testing.T) {
	var buf bytes.Buffer
	p := &Progress{W: &buf}
	for s := 1; s <= 12; s++ {
		p.Live(metrics.Live{Elapsed: time.Duration(s) * time.Second, Users: 3}, 0)
	}
	p.Done()
	out := buf.String()
	if strings.Count(out, "\n") != 2 || strings.Contains(out, "\r") || !strings.Contains(out, "[    5s] users 3") || !strings.Contains(out, "[   10s] users 3") {
		t.Errorf("progress without a terminal wrote %q; want plain lines at 5s and 10s", out)
	}
}

// TestProgressOnTerminal checks that a terminal gets one redrawn line,
// cleared at the end.
func TestProgressOnTerminal(t *testing.T) {
	var buf bytes.Buffer
	p := &Progress{W: &buf, TTY: true}
	p.Live(metrics.Live{Elapsed: time.Second, Users: 3}, 0)
	p.Done()
	if out := buf.String(); strings.Count(out, "\r\033[K") != 2 || strings.Contains(out, "\n") {
		t.Errorf("progress on a terminal wrote %q; want a redraw and a clear", out)
	}
}
