package report

import (
	"fmt"
	"io"
	"time"

	"github.com/surge-load/surge/metrics"
)

// Progress shows a running test (a surge.Progress). On a terminal it
// redraws one status line every second; elsewhere (a CI log, a pipe) it
// writes a line every five seconds, so logs stay readable.
type Progress struct {
	W    io.Writer
	TTY  bool
	next time.Duration // off a terminal: the elapsed time of the next line
}

// progressEvery is how often progress comes off a terminal.
const progressEvery = 5 * time.Second

// Live shows l.
func (p *Progress) Live(l metrics.Live, planned time.Duration) {
	if p.TTY {
		fmt.Fprint(p.W, "\r\033[K"+Line(l, planned))
		return
	}
	if p.next == 0 {
		p.next = progressEvery
	}
	if l.Elapsed >= p.next {
		fmt.Fprintln(p.W, Line(l, planned))
		p.next = l.Elapsed.Truncate(progressEvery) + progressEvery
	}
}

// Done ends the run's progress: on a terminal it clears the status line.
func (p *Progress) Done() {
	p.next = 0
	if p.TTY {
		fmt.Fprint(p.W, "\r\033[K")
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
