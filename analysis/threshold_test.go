package analysis

import (
	"strings"
	"testing"
	"time"

	"github.com/surge-load/surge/result"
)

func TestParseThreshold(t *testing.T) {
	ok := []struct {
		expr     string
		endpoint string
		metric   string
		op       string
		limit    float64
	}{
		{"p95<1000ms", "", "p95", "<", 1000},
		{"p99<=2s", "", "p99", "<=", 2000},
		{"mean < 250us", "", "mean", "<", 0.25},
		{"max<1m", "", "max", "<", 60000},
		{"errors<1%", "", "errors", "<", 0.01},
		{"errors<0.05", "", "errors", "<", 0.05},
		{"rps>500", "", "rps", ">", 500},
		{"rps>=500/s", "", "rps", ">=", 500},
		{"GET /users:p95<300ms", "GET /users", "p95", "<", 300},
		{"list folder : p99.9 < 1.5s", "list folder", "p99.9", "<", 1500},
		{"dropped<=0", "", "dropped", "<=", 0},
	}
	for _, c := range ok {
		th, err := ParseThreshold(c.expr)
		if err != nil {
			t.Errorf("%q: %v", c.expr, err)
			continue
		}
		if th.Endpoint != c.endpoint || th.Metric != c.metric || th.Op != c.op || th.Limit != c.limit {
			t.Errorf("%q parsed as %+v", c.expr, th)
		}
	}
	bad := []struct{ expr, msg string }{
		{"p95<1000", "give the latency a unit"},
		{"p95 1000ms", "want [endpoint:]METRIC OP VALUE"},
		{"latency<1s", "want [endpoint:]METRIC OP VALUE"},
		{"errors<1ms", "percentage"},
		{"errors<150%", "cannot exceed"},
		{"p0<1s", "between 0 and 100"},
		{"p101<1s", "between 0 and 100"},
		{"rps>5ms", "per second"},
		{"requests>5s", "takes no unit"},
	}
	for _, c := range bad {
		_, err := ParseThreshold(c.expr)
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%q: error %v, want one saying %q", c.expr, err, c.msg)
		}
	}
}

func TestEvaluate(t *testing.T) {
	r := &result.Result{Run: result.Run{DurationS: 10}}
	r.Totals = result.Stats{Requests: 1000, Failures: 20, ErrorRate: 0.02, Latency: result.Percentiles{P95: 900, P99: 1500, Max: 3000, Mean: 300}}
	r.Endpoints = []result.EndpointStats{{Name: "GET /a", Stats: result.Stats{Requests: 500, Latency: result.Percentiles{P95: 250}}}}
	cases := []struct {
		expr string
		ok   bool
	}{
		{"p95<1000ms", true}, {"p95<900ms", false}, {"p95<=900ms", true},
		{"p99<1s", false}, {"max<=3s", true}, {"mean<0.3s", false},
		{"errors<1%", false}, {"errors<3%", true},
		{"rps>=100", true}, {"rps>100", false},
		{"GET /a:p95<300ms", true}, {"GET /b:p95<300ms", false},
		{"failures<=20", true},
	}
	for _, c := range cases {
		th, err := ParseThreshold(c.expr)
		if err != nil {
			t.Fatal(err)
		}
		if v := th.Eval(r); v.OK != c.ok {
			t.Errorf("%s: ok=%v (actual %v %s, note %q), want %v", c.expr, v.OK, v.Actual, v.Unit, v.Note, c.ok)
		}
	}
	th, _ := ParseThreshold("errors<1%")
	if v := th.Eval(r); v.Actual != 2 || v.Limit != 1 || v.Unit != "%" {
		t.Errorf("errors verdict reports %+v; want actual 2, limit 1, unit %%", v)
	}
	if Evaluate(r, nil) != true || len(r.Thresholds) != 0 {
		t.Error("no thresholds must pass")
	}
	th1, _ := ParseThreshold("p95<1s")
	th2, _ := ParseThreshold("p99<1s")
	if Evaluate(r, []Threshold{th1, th2}) || len(r.Thresholds) != 2 || !r.Thresholds[0].OK || r.Thresholds[1].OK {
		t.Errorf("Evaluate: %+v", r.Thresholds)
	}
}

// TestThresholdLimitsAreExact: limits are read as written, not scaled in
// floating point, so a value equal to the limit is judged on the right side.
func TestThresholdLimitsAreExact(t *testing.T) {
	for _, c := range []struct {
		expr string
		want time.Duration
	}{{"max<=1.001s", 1001 * time.Millisecond}, {"p99<=201087us", 201087 * time.Microsecond}, {"min>=0.000000001s", 1}, {"max<1.5m", 90 * time.Second}} {
		th, err := ParseThreshold(c.expr)
		if err != nil || th.LimitDuration != c.want {
			t.Errorf("%s: limit %v (%v), want %v", c.expr, th.LimitDuration, err, c.want)
		}
	}
	r := &result.Result{Run: result.Run{DurationS: 1}, Totals: result.Stats{Requests: 1000, Failures: 11,
		Latency: result.Percentiles{Min: 1001, Mean: 1001, P50: 1001, P90: 1001, P95: 1001, P99: 1001, P999: 1001, Max: 1001}}}
	for _, c := range []struct {
		expr string
		ok   bool
	}{{"max<=1.001s", true}, {"max<1.001s", false}, {"min>=1001000us", true}, {"mean<=1.001s", true}, {"p99<=1.001s", true},
		{"errors<=1.1%", true}, {"errors>=1.1%", true}, {"errors<1.1%", false}, {"errors<=0.011", true}} {
		th, err := ParseThreshold(c.expr)
		if err != nil {
			t.Fatal(err)
		}
		if v := th.Eval(r); v.OK != c.ok {
			t.Errorf("%s: ok=%v, want %v (%+v)", c.expr, v.OK, c.ok, v)
		}
	}
}
