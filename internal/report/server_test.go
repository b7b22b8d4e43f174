package report

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/surge-load/surge/result"
)

// withMonitor adds a monitored process and a scraped endpoint to r, on its
// timeline: cpu rising from 10% by 1% a second, memory at 100 MiB.
func withMonitor(r *result.Result, cpuScale float64) *result.Result {
	n := len(r.Series)
	src := result.MonitorSource{Name: "api", Spec: "process:nginx", Kind: "process", IntervalS: 1,
		CPULimitCores: 2, MemoryLimitBytes: 1 << 30}
	cpu, mem, fds, pend := make(result.MonitorValues, n), make(result.MonitorValues, n), make(result.MonitorValues, n), make(result.MonitorValues, n)
	for i := range n {
		src.T = append(src.T, float64(i))
		cpu[i] = cpuScale * (10 + float64(i%7))
		mem[i] = 100 << 20
		fds[i] = 40
		pend[i] = float64(i % 3)
	}
	fds[1] = math.NaN()
	src.Series = []result.MonitorSeries{{Name: "cpu", Unit: "%", Values: cpu}, {Name: "memory", Unit: "bytes", Values: mem}, {Name: "fds", Values: fds}}
	src.Gaps = []result.MonitorGap{{T: float64(n), DurationS: 2, Reason: "process 7 is not running"}}
	db := result.MonitorSource{Name: "db", Spec: "prometheus:http://db/metrics", Kind: "prometheus", IntervalS: 1, T: src.T,
		Series: []result.MonitorSeries{{Name: "m:pool_pending", Values: pend}}}
	r.Monitor = &result.Monitor{Sources: []result.MonitorSource{src, db}}
	return r
}

func TestServerSummaryChartsAndCompare(t *testing.T) {
	base := withMonitor(readFixture(t, "base.json"), 1)
	var b bytes.Buffer
	Summary(&b, base)
	out := b.String()
	for _, want := range []string{"\nServer\n", "api (process:nginx): cpu mean", "of one core", "memory max 100.0 MiB (9.8% of 1.0 GiB)",
		"fds max 40", "GAPS 2 s: process 7 is not running for 2 s", "db (prometheus:http://db/metrics): 1 series"} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
	tl := NewTimeline(base, MaxChartPoints)
	keys := map[string]ServerChart{}
	for _, c := range tl.Server {
		keys[c.Key] = c
	}
	for _, k := range []string{"api.cpu", "api.memory", "api.fds", "db.scraped"} {
		if _, ok := keys[k]; !ok {
			t.Errorf("no server chart %s: %+v", k, tl.Server)
		}
	}
	if c := keys["api.memory"]; len(c.Series) != 1 || c.Series[0].Values[0] != 100 || len(c.Series[0].Values) != len(tl.T) {
		t.Errorf("memory chart: %+v", c)
	}
	if c := keys["api.fds"]; !math.IsNaN(c.Series[0].Values[1]) {
		t.Errorf("a missing sample is drawn as %v", c.Series[0].Values[1])
	}
	if c := keys["db.scraped"]; len(c.Options) != 1 || len(c.Series) != 1 {
		t.Errorf("picker chart: %+v", c)
	}

	// Twice the CPU is worse; the same memory is the same.
	worse := withMonitor(readFixture(t, "base.json"), 2)
	cmp, err := Compare([]Labeled{{Label: "a", Result: base}, {Label: "b", Result: worse}})
	if err != nil {
		t.Fatal(err)
	}
	sec, ok := cmp.Section("Server · api")
	if !ok {
		t.Fatalf("no server section: %+v", cmp.Sections)
	}
	for key, verdict := range map[string]string{"api.cpu.mean": Worse, "api.memory.max": Same} {
		row, ok := sec.Row(key)
		if !ok || row.Changes[0].Verdict != verdict {
			t.Errorf("%s: %+v, want %s", key, row, verdict)
		}
	}
}
