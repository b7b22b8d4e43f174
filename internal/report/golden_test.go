package report

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/surge-load/surge/result"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// golden compares got with the golden file name, or rewrites it with
// -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./report/ -run %s -update writes it)", err, t.Name())
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from its golden file (go test ./report/ -update rewrites it after review):\n%s", path, firstDiff(string(want), string(got)))
	}
}

// firstDiff shows the first line where want and got differ.
func firstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < max(len(w), len(g)); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			return "line " + itoa(int64(i+1)) + ":\n  want: " + wl + "\n  got:  " + gl
		}
	}
	return "(same lines, different bytes)"
}

// indented encodes v as indented JSON, as golden files hold it.
func indented(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return append(b, '\n')
}

// TestReportDataGolden checks the data section of the reports of the real
// runs (base, new; a find-max search; SSE and WebSocket streams) and of the
// synthetic ones (three endpoints; a warm-up, a collapse and a saturated
// generator).
func TestReportDataGolden(t *testing.T) {
	for _, name := range []string{"base", "new", "findmax", "streams"} {
		golden(t, name+".report.json", indented(t, NewReportData(readFixture(t, name+".json"))))
	}
	golden(t, "shop.report.json", indented(t, NewReportData(shop.result())))
	golden(t, "outage.report.json", indented(t, NewReportData(outage.result())))
	golden(t, "polling.report.json", indented(t, NewReportData(polling.result())))
}

func TestMarkdownGolden(t *testing.T) {
	for name, r := range map[string]*result.Result{"shop": shop.result(), "outage": outage.result(),
		"new": readFixture(t, "new.json"), "findmax": readFixture(t, "findmax.json"), "streams": readFixture(t, "streams.json")} {
		var b bytes.Buffer
		Markdown(&b, r)
		golden(t, name+".md", b.Bytes())
	}
}

// TestCSVGolden checks the CSV files that differ from those of any run:
// the steps of a find-max search, the series of a run with streams, and
// the per-endpoint series.
func TestCSVGolden(t *testing.T) {
	var b bytes.Buffer
	if err := CapacityCSVTo(&b, readFixture(t, "findmax.json")); err != nil {
		t.Fatal(err)
	}
	golden(t, "findmax.capacity.csv", b.Bytes())
	b.Reset()
	if err := SeriesCSVTo(&b, readFixture(t, "streams.json")); err != nil {
		t.Fatal(err)
	}
	golden(t, "streams.series.csv", b.Bytes())
	b.Reset()
	if err := EndpointSeriesCSVTo(&b, polling.result()); err != nil {
		t.Fatal(err)
	}
	golden(t, "polling.endpoint-series.csv", b.Bytes())
}

func TestCompareGolden(t *testing.T) {
	c, err := Compare([]Labeled{
		{Label: "base", File: "base.json", Result: readFixture(t, "base.json")},
		{Label: "new", File: "new.json", Result: readFixture(t, "new.json")},
	})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	CompareTable(&b, c)
	golden(t, "base-new.compare.txt", b.Bytes())
	b.Reset()
	CompareMarkdown(&b, c)
	golden(t, "base-new.compare.md", b.Bytes())
	golden(t, "base-new.compare.json", indented(t, NewCompareData(c, nil)))

	b.Reset()
	CompareTable(&b, sequence(t))
	golden(t, "sequence.compare.txt", b.Bytes())
}

// sequence compares six runs, each changing one thing, as field report 2
// did: nothing (a rerun), a bigger DB pool (faster reads), bigger bulk
// inserts (more throughput), bigger still (slower writes, more errors), and
// a fixed flush (faster again).
func sequence(t *testing.T) *Comparison {
	t.Helper()
	step := func(seed uint64, change func(e []synthEndpoint)) synth {
		s := synth{seed: seed, seconds: 40, endpoints: []synthEndpoint{
			{name: "GET /api/v1/logs/stats", rps: 60, medianMs: 12, sigma: 0.3},
			{name: "POST /api/v1/logs", rps: 90, medianMs: 30, sigma: 0.4, failRate: 0.001},
		}}
		change(s.endpoints)
		return s
	}
	runs := []struct {
		label string
		s     synth
	}{
		{"baseline", step(11, func([]synthEndpoint) {})},
		{"threadpool", step(12, func([]synthEndpoint) {})},
		{"dbpool20", step(13, func(e []synthEndpoint) { e[0].medianMs = 8 })},
		{"bulk1000", step(14, func(e []synthEndpoint) { e[0].medianMs = 8; e[1].rps = 130 })},
		{"bulk2000", step(15, func(e []synthEndpoint) { e[0].medianMs = 8; e[1].rps = 130; e[1].medianMs = 48; e[1].failRate = 0.03 })},
		{"flushfix", step(16, func(e []synthEndpoint) { e[0].medianMs = 8; e[1].rps = 130; e[1].medianMs = 22 })},
	}
	var in []Labeled
	for _, r := range runs {
		in = append(in, Labeled{Label: r.label, File: r.label + ".json", Result: r.s.result()})
	}
	c, err := Compare(in)
	if err != nil {
		t.Fatal(err)
	}
	return c
}
