package report

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/surge-load/surge/metrics"
)

// Progress shows a running test. On a terminal it redraws one status line
// every second; elsewhere (a CI log, a pipe) it writes a line every five
// seconds, so logs stay readable.
type Progress struct {
	W     io.Writer
	TTY   bool
	Total time.Duration // planned duration; zero if unknown
	Live  func() metrics.Live
}

// Run shows progress until ctx is done.
func (p *Progress) Run(ctx context.Context) {
	every := 5 * time.Second
	if p.TTY {
		every = time.Second
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			if p.TTY {
				fmt.Fprint(p.W, "\r\033[K")
			}
			return
		case <-t.C:
			line := Line(p.Live(), p.Total)
			if p.TTY {
				fmt.Fprint(p.W, "\r\033[K"+line)
			} else {
				fmt.Fprintln(p.W, line)
			}
		}
	}
}

// Line renders one progress line: elapsed of total, users, throughput,
// latency percentiles and errors of the last ten seconds.
func Line(l metrics.Live, total time.Duration) string {
	elapsed := l.Elapsed.Truncate(time.Second)
	s := fmt.Sprintf("[%6s", elapsed)
	if total > 0 {
		s += "/" + total.Truncate(time.Second).String()
	}
	s += fmt.Sprintf("] users %d (busy %d) · %.0f rps · p50 %s p95 %s p99 %s · errors %.2f%%",
		l.Users, l.Busy, l.RPS, Ms(l.P50Ms), Ms(l.P95Ms), Ms(l.P99Ms), 100*l.ErrorRate)
	if l.TopError != "" {
		s += " (top: " + l.TopError + ")"
	}
	s += fmt.Sprintf(" · %d requests", l.Requests)
	if l.Dropped > 0 {
		s += fmt.Sprintf(", %d dropped", l.Dropped)
	}
	if l.Streams > 0 {
		s += fmt.Sprintf(" · %d streams open", l.Streams)
	}
	return s
}
