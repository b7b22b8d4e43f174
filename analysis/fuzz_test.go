package analysis

import (
	"math"
	"testing"
)

// FuzzParseThreshold checks that no input makes ParseThreshold panic, that
// every threshold it accepts has a finite limit (a NaN limit would make a
// threshold that can never fail) and a known operator, and that parsing
// its expression again gives the same threshold.
// Seeds: below and testdata/fuzz/FuzzParseThreshold.
func FuzzParseThreshold(f *testing.F) {
	for _, s := range []string{"p95<500ms", "errors<1%", "rps>100", "GET /:p99<=2s", "p99.9<1.001s", "mean<200ms", "max<5s",
		"requests>=10", "dropped<1", "api.cpu.mean<30%", "db.m:x{a=\"b\"}.p95<5ms", "api.memory<512MiB", "p95<NaNms", "p95<Infms", "errors<1e400%", "p0<1ms", "p100<1ms", "p101<1ms", ":p95<1ms"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		th, err := ParseThreshold(s)
		if err != nil {
			return
		}
		if math.IsNaN(th.Limit) || math.IsInf(th.Limit, 0) {
			t.Fatalf("%q: accepted limit %v", s, th.Limit)
		}
		switch th.Op {
		case "<", "<=", ">", ">=":
		default:
			t.Fatalf("%q: operator %q", s, th.Op)
		}
		again, err := ParseThreshold(th.Expr)
		if err != nil || again.Limit != th.Limit || again.Metric != th.Metric || again.Op != th.Op || again.Endpoint != th.Endpoint {
			t.Fatalf("%q: parsing its expression %q again gives %+v, %v; want %+v", s, th.Expr, again, err, th)
		}
	})
}
