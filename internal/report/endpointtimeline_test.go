package report

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/surge-load/surge/result"
)

// TestOldAndNewResultsTogether compares a result from before the series
// had per-endpoint points (base.json) with one that has them, both ways,
// and reports each: the comparison and the pages are built, and only the
// new result's timeline has charts by endpoint.
func TestOldAndNewResultsTogether(t *testing.T) {
	old, nw := readFixture(t, "base.json"), polling.result()
	for _, pair := range [][]*result.Result{{old, nw}, {nw, old}} {
		c, err := Compare([]Labeled{{Label: "a", File: "a.json", Result: pair[0]}, {Label: "b", File: "b.json", Result: pair[1]}})
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := CompareHTML(&b, c, nil); err != nil {
			t.Fatal(err)
		}
		CompareTable(&b, c)
	}
	if tl := NewTimeline(old, MaxChartPoints); tl.Endpoints != nil {
		t.Errorf("an old result has charts by endpoint: %+v", tl.Endpoints)
	}
	if tl := NewTimeline(nw, MaxChartPoints); len(tl.Endpoints) != 3 {
		t.Errorf("the new result has %d charts by endpoint, want 3", len(tl.Endpoints))
	}
	var b bytes.Buffer
	for _, r := range []*result.Result{old, nw} {
		if err := HTML(&b, r); err != nil {
			t.Fatal(err)
		}
		Summary(&b, r)
	}
}

// TestLiveChartsTheBusiestEndpoints: the live page's data keeps the charts
// of LiveEndpoints endpoints, those with dips of their own first, then the
// busiest, and says so; a report keeps all.
func TestLiveChartsTheBusiestEndpoints(t *testing.T) {
	r := *polling.result()
	var series []result.Point
	for _, p := range r.Series {
		var eps []result.EndpointPoint
		for k := range LiveEndpoints + 2 {
			eps = append(eps, result.EndpointPoint{Name: fmt.Sprintf("row %d", k), Requests: int64(k + 1)})
		}
		p.Endpoints = eps
		series = append(series, p)
	}
	r.Series = series
	d := NewReportData(&r)
	if len(d.Charts.Endpoints) != LiveEndpoints+2 || d.Charts.EndpointsNote != "" {
		t.Fatalf("the report charts %d endpoints (%q)", len(d.Charts.Endpoints), d.Charts.EndpointsNote)
	}
	// Row 0, the least busy, dipped on its own: it is kept before the
	// busier ones.
	d.Charts.Endpoints[0].Events = 1
	d.ForLive()
	var names []string
	for _, e := range d.Charts.Endpoints {
		names = append(names, e.Name)
	}
	if len(names) != LiveEndpoints || names[0] != "row 0" || names[1] != "row 3" || !d.Live || !strings.Contains(d.Charts.EndpointsNote, "10 of 12 endpoints") {
		t.Errorf("live: %q, %q", names, d.Charts.EndpointsNote)
	}
}
