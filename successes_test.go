package surge_test

import (
	"bytes"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/surge-load/surge/executor"
	"github.com/surge-load/surge/internal/report"
)

// After a server dies, instant connection refusals inflate the throughput
// of all operations and pull their latency down. A closed model of 5 users
// against a server that answers in 20 ms, then dies 1.5 s into an 8 s run
// (long enough for the live run's noise to be known): the successes'
// throughput and latency, the peak and the time to zero are reported
// beside the totals, and compare ranks the dead run worse on its time to
// zero and on its successes' throughput, though its total rps rose.
func TestSuccessesAfterACollapse(t *testing.T) {
	handler := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { time.Sleep(20 * time.Millisecond) })
	load := executor.Closed{Start: 5, Stages: []executor.Stage{{Duration: 8 * time.Second, Target: 5}}, Grace: 2 * time.Second}

	alive := httptest.NewServer(handler)
	defer alive.Close()
	base := runPlan(t, alive.URL+"/", load)

	dying := httptest.NewServer(handler)
	defer dying.Close()
	stop := time.AfterFunc(1500*time.Millisecond, dying.Close)
	defer stop.Stop()
	dead := runPlan(t, dying.URL+"/", load)

	tot := dead.Totals
	if tot.Failures == 0 || tot.OKRPS >= tot.RPS/2 || tot.OKLatency.P50 < 15 || tot.Latency.P50 > tot.OKLatency.P50/2 {
		t.Fatalf("dead run: %.0f rps (%.0f ok), p50 %.2f ms (ok %.2f ms); want refusals to dominate the totals but not the successes' figures",
			tot.RPS, tot.OKRPS, tot.Latency.P50, tot.OKLatency.P50)
	}
	th := report.ThroughputOf(dead)
	if th.PeakOKRPS < 50 || math.IsNaN(th.ZeroAtS) || th.ZeroAtS < 1 || th.ZeroAtS > 3 {
		t.Errorf("peak %.0f ok rps at %gs, zero from %gs; want a peak and zero from about 1.5s", th.PeakOKRPS, th.PeakAtS, th.ZeroAtS)
	}
	var out bytes.Buffer
	report.Summary(&out, dead)
	if !strings.Contains(out.String(), "Successes: ") || !strings.Contains(out.String(), "zero from") {
		t.Errorf("summary does not give the successes' figures:\n%s", out.String())
	}
	c, err := report.Compare([]report.Labeled{{Label: "alive", Result: base}, {Label: "dead", Result: dead}})
	if err != nil {
		t.Fatal(err)
	}
	s, _ := c.Section("Total")
	if row, ok := s.Row("zero_at_s"); !ok || row.Changes[0].Verdict != report.Worse {
		t.Errorf("compare zero_at_s: %+v; want %s", row, report.Worse)
	}
	// The dead run's seconds swing from its peak to zero; that swing is the
	// effect, not noise: its noise comes from the seconds before and the
	// time it died, so the successes' throughput ranks it worse, beyond
	// the noise, though its total rps rose.
	if row, ok := s.Row("ok_rps"); !ok || row.Changes[0].Verdict != report.Worse || float64(row.Changes[0].Pct) > -50 {
		t.Errorf("compare ok_rps: %+v; want worse, a drop of more than half", row)
	}
	if row, ok := s.Row("rps"); !ok || row.Values[1] <= row.Values[0] {
		t.Errorf("compare rps: %+v; want the refusals to raise the total rps", row)
	}
	// The refusals pull the p50 of all operations far down; the
	// successes' p50 stays where it was.
	okRow, _ := s.Row("ok_p50")
	allRow, _ := s.Row("p50")
	if okRow.Values[1] < 0.8*okRow.Values[0] || allRow.Values[1] > 0.5*allRow.Values[0] {
		t.Errorf("p50 %v, ok_p50 %v; want the refusals to pull p50 down and not ok_p50", allRow.Text, okRow.Text)
	}
}
