package analysis

import (
	"math"
	"strings"
	"testing"

	"github.com/surge-load/surge/result"
)

func monitoredResult() *result.Result {
	nan := math.NaN()
	return &result.Result{
		Run:    result.Run{DurationS: 5},
		Warmup: &result.Warmup{DurationS: 1},
		Monitor: &result.Monitor{Sources: []result.MonitorSource{{
			Name: "api", Kind: "process", IntervalS: 1, CPULimitCores: 2, MemoryLimitBytes: 1 << 30,
			T: []float64{0, 1, 2, 3, 4, 5},
			Series: []result.MonitorSeries{
				{Name: "cpu", Unit: "%", Values: result.MonitorValues{190, 20, 40, 30, 50, 400}},
				{Name: "memory", Unit: "bytes", Values: result.MonitorValues{1, 256 << 20, 512 << 20, 300 << 20, 100 << 20, 1 << 30}},
				{Name: "fds", Values: result.MonitorValues{9, 10, nan, 12, 11, 99}},
			},
		}, {
			Name: "db", Kind: "prometheus", IntervalS: 1, T: []float64{1, 2},
			Series: []result.MonitorSeries{
				{Name: `m:pool_pending{pool="a"}`, Values: result.MonitorValues{1, 2}},
				{Name: `m:pool_pending{pool="b"}`, Values: result.MonitorValues{3, 4}},
				{Name: `m:lat_seconds{quantile="0.5"}`, Values: result.MonitorValues{0.1, 0.2}},
				{Name: `m:lat_seconds{quantile="0.95"}`, Values: result.MonitorValues{0.3, 0.4}},
			},
		}, {Name: "gone", Kind: "process", IntervalS: 1, T: []float64{},
			Gaps: []result.MonitorGap{{T: 0, DurationS: 5, Reason: "process 77 is not running"}}}}},
	}
}

// Thresholds on monitored series: the unit decides what is meant, the
// measured period (warm-up and drain excluded) is judged, and a source
// without data fails saying so.
func TestMonitorThresholds(t *testing.T) {
	r := monitoredResult()
	for _, tc := range []struct {
		expr   string
		ok     bool
		actual float64
		note   string
	}{
		{"api.cpu<60%", true, 50, ""},        // max of 20,40,30,50: the warm-up's 190 and the drain's 400 are left out
		{"api.cpu.mean<=35%", true, 35, ""},  // mean
		{"api.cpu_limit<20%", false, 25, ""}, // 50% of one core of 2 cores
		{"api.cpu.min>=20%", true, 20, ""},
		{"api.cpu.last<=50%", true, 50, ""},
		{"api.cpu.p50<31%", true, 30, ""},
		{"api.memory<512MiB", false, 512, ""},
		{"api.memory<=512MiB", true, 512, ""},
		{"api.memory<50%", false, 50, ""},
		{"api.memory.mean<30%", true, float64(256+512+300+100) / 4 / 1024 * 100, ""},
		{"api.fds<12", false, 12, ""},
		{"api.fds.mean<=11", true, 11, ""},
		{"db.m:pool_pending.max<=6", true, 6, ""},
		{`db.m:pool_pending{pool="a"}.max<3`, true, 2, ""},
		{`db.m:lat_seconds{quantile="0.95"}.max<500ms`, true, 400, ""},
		{"db.m:lat_seconds<1", false, 0, "name the quantile"},
		{"db.m:nothing<1", false, 0, "no data"},
		{"gone.cpu<50%", false, 0, "process 77 is not running"},
		{"nosuch.cpu<50%", false, 0, "no data"},
	} {
		th, err := ParseThreshold(tc.expr)
		if err != nil {
			t.Errorf("%s: %v", tc.expr, err)
			continue
		}
		v := th.Eval(r)
		if v.OK != tc.ok || math.Abs(v.Actual-tc.actual) > 1e-9 || !strings.Contains(v.Note, tc.note) {
			t.Errorf("%s: ok %v actual %v note %q; want %v, %v, %q", tc.expr, v.OK, v.Actual, v.Note, tc.ok, tc.actual, tc.note)
		}
	}
}

func TestMonitorThresholdUnits(t *testing.T) {
	for expr, want := range map[string]string{
		"api.cpu<30":              "percentage",
		"api.memory<512":          "percentage of the limit",
		"api.memory<5MiB/s":       "percentage of the limit",
		"api.fds<5%":              "as a number",
		"api.cpu.p101<5%":         "not between 0 and 100",
		"db.m:x_total<5ms":        "own unit",
		"db.m:x_seconds<5ms":      "",
		"api.net_rx_bytes<5MiB/s": "",
	} {
		_, err := ParseThreshold(expr)
		if want == "" {
			if err != nil {
				t.Errorf("%s: %v", expr, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error saying %q", expr, err, want)
		}
	}
	// Today's thresholds are not taken for monitored ones.
	for _, expr := range []string{"p95<500ms", "GET /a.b:p99<1s", "errors<1%"} {
		th, err := ParseThreshold(expr)
		if err != nil || th.Source != "" {
			t.Errorf("%s: %+v, %v", expr, th, err)
		}
	}
}
