package output_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/surge-load/surge"
	"github.com/surge-load/surge/output"
)

// TestPrometheusWithoutNativeHistograms writes to a Prometheus that does
// not take native histograms (2.42 without the feature flag): every other
// series, the classic histogram included, still lands, counts exact, and
// the result notes what was refused, with the flag that would take it.
func TestPrometheusWithoutNativeHistograms(t *testing.T) {
	prom := startPrometheusWith(t)
	tg := startTarget(t, 0)
	plan := twoEndpoints(t, tg.URL, 50, 2*time.Second)
	plan.Outputs = []*output.Output{mustParse(t, "prometheus-rw="+prom)}
	res, err := surge.Run(context.Background(), plan, surge.Options{})
	if err != nil {
		t.Fatal(err)
	}
	o := res.Outputs[0]
	if o.Dropped != 0 || o.Sent != o.Points {
		t.Errorf("output %+v: want every point sent", o)
	}
	if !strings.Contains(o.Note, "--enable-feature=native-histograms") {
		t.Errorf("note %q does not say how to take native histograms", o.Note)
	}
	got := map[string]float64{}
	for _, s := range promQuery(t, prom, "surge_requests_total") {
		got[s.Labels["endpoint"]+" "+s.Labels["status"]] += s.Value
	}
	equalCounts(t, "prometheus", got, want(res))
	for _, ep := range res.Endpoints {
		c := promQuery(t, prom, `sum(surge_request_duration_seconds_count{endpoint="`+ep.Name+`"})`)
		if len(c) != 1 || c[0].Value != float64(ep.Requests) {
			t.Errorf("%s: classic histogram count %v, result %d", ep.Name, c, ep.Requests)
		}
	}
}
