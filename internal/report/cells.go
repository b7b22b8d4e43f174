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

// cellsOf formats s for an endpoint row.
func cellsOf(s *result.Stats) statsCells {
	l := s.Latency
	return statsCells{
		Requests: fmt.Sprint(s.Requests),
		Failures: failures(s.Failures, s.Requests),
		RPS:      fmt.Sprintf("%.1f", s.RPS),
		P50:      Ms(l.P50),
		P90:      Ms(l.P90),
		P95:      Ms(l.P95),
		P99:      Ms(l.P99),
		Max:      Ms(l.Max),
	}
}

// percent formats a fraction from 0 to 1 as a percentage, as the summary
// prints the error rate.
func percent(fraction float64) string {
	return fmt.Sprintf("%.2f%%", 100*fraction)
}
