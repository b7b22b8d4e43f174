package report

import (
	"fmt"

	"github.com/surge-load/surge/result"
)

// statsCells are the cells of one endpoint row as every view prints them:
// the terminal summary, the Markdown summary and the HTML report. Building
// them in one place keeps the numbers identical across views.
type statsCells struct {
	Requests string `json:"requests"`
	Failures string `json:"failures"`
	RPS      string `json:"rps"`
	P50      string `json:"p50"`
	P90      string `json:"p90"`
	P95      string `json:"p95"`
	P99      string `json:"p99"`
	Max      string `json:"max"`
}

// cellsOf formats s for an endpoint row. Steps that failed before
// anything was sent (not_sent) are not requests: the failures cell counts
// them apart ("40 not sent"), and a row without requests has no
// throughput or latency ("—"), not zeros that read as a fast endpoint.
func cellsOf(s *result.Stats) statsCells {
	l := s.Latency
	c := statsCells{
		Requests: fmt.Sprint(s.Requests),
		Failures: failures(s.Failures, s.Requests),
		RPS:      fmt.Sprintf("%.1f", s.RPS),
		P50:      Ms(l.P50),
		P90:      Ms(l.P90),
		P95:      Ms(l.P95),
		P99:      Ms(l.P99),
		Max:      Ms(l.Max),
	}
	if s.NotSent > 0 {
		c.Failures = fmt.Sprintf("%d not sent", s.NotSent)
		if s.Requests > 0 {
			c.Failures = fmt.Sprintf("%s + %d not sent", failures(s.Failures, s.Requests), s.NotSent)
		}
	}
	if s.Requests == 0 {
		c.RPS, c.P50, c.P90, c.P95, c.P99, c.Max = "—", "—", "—", "—", "—", "—"
	}
	return c
}

// percent formats a fraction from 0 to 1 as a percentage, as the summary
// prints the error rate.
func percent(fraction float64) string {
	return fmt.Sprintf("%.2f%%", 100*fraction)
}
