package surge_test

import (
	"math"
	"testing"
	"time"

	"github.com/surge-load/surge/executor"
)

// Short dips are found and their period named (issue 11.12): a server
// that stops answering for 1.2 s every 5 s gives 0 rps for a second or two,
// three times or more, which the collapse rule (three seconds) never saw.
func TestShortPeriodicDipsAreFound(t *testing.T) {
	srv := stallServer(t, 5*time.Second, 1200*time.Millisecond)
	res := runPlan(t, srv.URL, executor.Closed{Start: 4, Stages: []executor.Stage{{Duration: 27 * time.Second, Target: 4}}, Grace: 5 * time.Second})
	var dips int
	for _, e := range res.Excursions {
		if e.Series == "throughput" && e.Kind == "dip" {
			dips++
			if e.LastedS < 1 || e.LastedS > 2 || e.Extreme > 0.5*e.Baseline {
				t.Errorf("dip %+v: want 1-2 s down to under half", e)
			}
		}
	}
	if dips < 3 {
		t.Fatalf("%d throughput dips found, want 3 or more: %+v", dips, res.Excursions)
	}
	var found bool
	for _, p := range res.Periodic {
		if p.Series == "throughput" && p.Kind == "dip" {
			found = true
			if math.Abs(p.EveryS-5) > 1 {
				t.Errorf("dips every %v s, want 5", p.EveryS)
			}
		}
	}
	if !found {
		t.Errorf("no periodicity among %+v", res.Excursions)
	}
	if res.Collapse != nil {
		t.Errorf("short dips taken for a collapse: %+v", res.Collapse)
	}
}
