package metrics

import (
	"math"
	"path/filepath"
	"testing"
	"time"

	"github.com/surge-load/surge/result"
)

// The monitor section survives a write and a read (missing values as
// null), and a merge keeps one copy of each source: segment 0's.
func TestMonitorRoundTripAndMerge(t *testing.T) {
	parts := make([]*result.Result, 2)
	start := time.Now() // segments of one split share one start
	for i := range parts {
		rec := NewRecorder(1)
		rec.Endpoint("x")
		rec.Begin(start, nil)
		samples := synth(10, 1, 0, start)
		for j := range samples {
			rec.Shard(0).Record(&samples[j])
		}
		rec.Finish(time.Now())
		parts[i] = rec.Result(time.Second)
		parts[i].Run.Segment = result.Segment{Index: i, Count: 2}
	}
	parts[0].Monitor = &result.Monitor{Segment: 0, Sources: []result.MonitorSource{{Name: "api", Kind: "process", IntervalS: 1,
		T: []float64{0, 1}, Series: []result.MonitorSeries{{Name: "cpu", Unit: "%", Values: result.MonitorValues{12.5, math.NaN()}}},
		Gaps: []result.MonitorGap{{T: 2, DurationS: 1, Reason: "process 1 is not running"}}}}}
	path := filepath.Join(t.TempDir(), "r.json")
	if err := parts[0].WriteFile(path); err != nil {
		t.Fatal(err)
	}
	back, err := result.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cpu := back.Monitor.Source("api").Find("cpu")
	if cpu.Values[0] != 12.5 || !math.IsNaN(cpu.Values[1]) || back.Monitor.Sources[0].Gaps[0].Reason != "process 1 is not running" {
		t.Errorf("round trip: %+v", back.Monitor)
	}
	merged, err := Merge(parts[1], back)
	if err != nil {
		t.Fatal(err)
	}
	if merged.Monitor == nil || len(merged.Monitor.Sources) != 1 || merged.Monitor.Segment != 0 {
		t.Fatalf("merged monitor: %+v", merged.Monitor)
	}
	// Merging a part into a result that already holds it is refused
	// (CheckParts), so no source is ever counted twice.
	if _, err := Merge(merged, parts[1]); err == nil {
		t.Error("a merged result merged again with one of its own parts")
	}
}
