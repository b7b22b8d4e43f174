package surge_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/surge-load/surge/analysis"
	"github.com/surge-load/surge/executor"
	"github.com/surge-load/surge/metrics"
)

// seconds writes ns as a decimal number of seconds, exactly.
func seconds(ns int64) string { return fmt.Sprintf("%d.%09ds", ns/1e9, ns%1e9) }

// TestThresholdsAtTheBoundary runs a real server whose answers take 2 to
// 6 ms, then judges thresholds whose limits are the measured values
// themselves, written in seconds to nine decimals. The extremes are exact
// (to the nanosecond) and limits are read exactly, so "max<=MAX" and
// "min>=MIN" pass and "max<MAX" and "min>MIN" fail; a percentile is judged
// equal to a limit anywhere in its histogram bucket.
func TestThresholdsAtTheBoundary(t *testing.T) {
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(time.Duration(2+n.Add(1)%5) * time.Millisecond)
	}))
	t.Cleanup(srv.Close)
	res := runPlan(t, srv.URL, executor.Iterations{Users: 2, Total: 100, MaxDuration: 30 * time.Second})
	if res.Totals.Requests != 100 || res.Totals.Failures != 0 {
		t.Fatalf("%d requests, %d failures; want 100, 0", res.Totals.Requests, res.Totals.Failures)
	}
	l := res.Totals.Latency
	maxNs, minNs := metrics.NsOf(l.Max), metrics.NsOf(l.Min)
	if maxNs%1000 == 0 && minNs%1000 == 0 {
		t.Logf("min %d ns and max %d ns are whole microseconds; the test is weaker this time", minNs, maxNs)
	}
	p50Low, p50High := metrics.PercentileBucket(metrics.NsOf(l.P50) / 1000)
	if p50Low == p50High {
		t.Fatalf("p50 %.3f ms has a bucket of one value", l.P50)
	}
	cases := []struct {
		expr string
		ok   bool
	}{
		{"max<=" + seconds(maxNs), true},
		{"max>=" + seconds(maxNs), true},
		{"max<" + seconds(maxNs), false},
		{"max<" + seconds(maxNs+1), true},
		{"min>=" + seconds(minNs), true},
		{"min>" + seconds(minNs), false},
		{"min>" + seconds(minNs-1), true},
		// The low end of p50's bucket is p50 within the histogram's precision.
		{fmt.Sprintf("p50<=%dus", p50Low), true},
		{fmt.Sprintf("p50>=%dus", p50High), true},
		{fmt.Sprintf("p50<%dus", p50Low), false},
		{fmt.Sprintf("p50<%dus", p50High+1), true},
		{fmt.Sprintf("p50>%dus", p50Low-1), true},
	}
	for _, c := range cases {
		th, err := analysis.ParseThreshold(c.expr)
		if err != nil {
			t.Fatal(err)
		}
		if v := th.Eval(res); v.OK != c.ok || v.Note != "" {
			t.Errorf("%s: ok=%v (actual %v, limit %v, note %q), want ok=%v", c.expr, v.OK, v.Actual, v.Limit, v.Note, c.ok)
		}
	}
}
