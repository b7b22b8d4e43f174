package report

import (
	"bytes"
	"io"
	"testing"

	"github.com/surge-load/surge/result"
)

// TestEmptyResults renders results with nothing in them: a run that sent no
// request, one whose series is missing, and a search without steps whose
// streams never opened.
func TestEmptyResults(t *testing.T) {
	empty := &result.Result{SchemaVersion: result.SchemaVersion}
	noSeries := shop.result()
	noSeries.Series = nil
	noSteps := &result.Result{SchemaVersion: result.SchemaVersion, Capacity: &result.Capacity{Model: "rate"},
		Totals: result.Stats{Streams: &result.StreamStats{}}, Warmup: &result.Warmup{DurationS: 2},
		Series: []result.Point{{DurationS: 1, Streams: &result.StreamPoint{}}}}
	for _, r := range []*result.Result{empty, noSeries, noSteps} {
		var b bytes.Buffer
		if err := HTML(&b, r); err != nil {
			t.Fatal(err)
		}
		Markdown(io.Discard, r)
		Summary(io.Discard, r)
		for _, f := range []func(io.Writer, *result.Result) error{EndpointsCSVTo, SeriesCSVTo, ErrorsCSVTo, CapacityCSVTo} {
			if err := f(io.Discard, r); err != nil {
				t.Fatal(err)
			}
		}
		c, err := Compare([]Labeled{{Label: "a", Result: r}, {Label: "b", Result: shop.result()}, {Label: "c", Result: r}})
		if err != nil {
			t.Fatal(err)
		}
		CompareTable(io.Discard, c)
		if err := CompareHTML(io.Discard, c, nil); err != nil {
			t.Fatal(err)
		}
		f, _ := ParseFailOn("p95>+10%")
		if _, err := f.Check(c); err != nil {
			t.Fatal(err)
		}
	}
}
