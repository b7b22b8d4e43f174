package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/surge-load/surge/result"
)

func TestFindings(t *testing.T) {
	r := &result.Result{
		Collapse:  &result.Collapse{Kind: result.CollapseStopped, PeakRPS: 803, PeakAtS: 130, AtS: 200, AfterPeakS: 70, LastedS: 40, DominantError: "connect_refused"},
		Generator: result.Generator{Saturation: &result.Saturation{TrustworthyUntilS: 72, SaturatedS: 20, Causes: []string{"cpu", "lag"}}},
		Capacity: &result.Capacity{
			Model: "users", Objectives: []string{"p95<1000ms", "errors<1%"}, StepS: 10, WarmupS: 2,
			Steps: []result.CapacityStep{
				{Level: 8, RPS: 398, OK: false, Detail: "plateau: +0% throughput for +100% load", Latency: result.Percentiles{P50: 20, P95: 21}},
				{Level: 4, RPS: 401, OK: true, Latency: result.Percentiles{P50: 10, P95: 12}},
			},
			Verdict: result.CapacityVerdict{Reason: result.ReasonPlateau, Conclusive: true, Detail: "maximum sustainable load 4 users"},
		},
	}
	var b bytes.Buffer
	findings(&b, r)
	out := b.String()
	for _, want := range []string{
		"Collapse: peak 803 rps at 2m10s; stopped answering 70 s later; dominant error: connect_refused; did not recover (40 s until the load ended)",
		"Not trustworthy from 1m12s on: the generator itself was saturated (cpu, lag) for 20 s in all",
		"Capacity (closed model, users; objectives p95<1000ms, errors<1%; steps of 10s, the first 2s of each not judged)",
		"Verdict: maximum sustainable load 4 users",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("findings lack %q:\n%s", want, out)
		}
	}
	// The table is by level, whatever the order the steps ran in.
	if i, j := strings.Index(out, "4 users "), strings.Index(out, "8 users "); i < 0 || j < 0 || i > j {
		t.Errorf("table not by level:\n%s", out)
	}

	var none bytes.Buffer
	findings(&none, &result.Result{})
	if none.Len() != 0 {
		t.Errorf("a result without findings printed %q", none.String())
	}
}
