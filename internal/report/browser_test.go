package report

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/surge-load/surge/internal/browsertest"
	"github.com/surge-load/surge/result"
)

// pageStats is what the browser test reads from a drawn page.
type pageStats struct {
	Charts    int            `json:"charts"`
	Undrawn   []string       `json:"undrawn"` // charts without coloured lines
	Rows      map[string]int `json:"rows"`    // body rows of each table by data-table
	EmptyNums int            `json:"emptyNums"`
	Resources int            `json:"resources"` // anything the page fetched
	Legends   int            `json:"legends"`
	// Hoverless are the charts whose legend shows no value for the first
	// series with the cursor in the middle of the chart.
	Hoverless []string `json:"hoverless"`
}

const readStats = `(() => {
  const figs = [...document.querySelectorAll("figure.chart")];
  const undrawn = [];
  for (const f of figs) {
    const c = f.querySelector("canvas");
    if (!c) { undrawn.push(f.dataset.chart + ": no canvas"); continue; }
    const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
    let coloured = 0; // axes and grid are grey; series are not
    for (let i = 0; i < d.length; i += 4) {
      if (d[i + 3] > 128 && Math.abs(d[i] - d[i + 1]) + Math.abs(d[i + 1] - d[i + 2]) > 60) coloured++;
    }
    if (coloured < 100) undrawn.push(f.dataset.chart + ": " + coloured + " coloured pixels");
  }
  const rows = {};
  for (const t of document.querySelectorAll("table[data-table]")) rows[t.dataset.table] = (rows[t.dataset.table] || 0) + t.tBodies[0].rows.length;
  const emptyNums = [...document.querySelectorAll("table[data-table] tbody td.n")].filter(td => td.textContent.trim() === "").length;
  const hoverless = [];
  for (const u of window.surgePlots) {
    u.setCursor({left: u.bbox.width / devicePixelRatio / 2, top: 20});
    const v = u.root.querySelector(".u-legend .u-series:nth-child(2) .u-value").textContent;
    if (v === "" || v === "–") hoverless.push(u.root.closest("figure").dataset.chart + ": " + JSON.stringify(v));
  }
  return {charts: figs.length, undrawn, rows, emptyNums, resources: performance.getEntriesByType("resource").length,
    legends: document.querySelectorAll(".u-legend").length, hoverless};
})()`

// TestPagesInChromium opens the report and comparison pages from files in
// headless Chromium, offline, and checks that every chart is drawn with a
// legend and hover values, that the tables are filled and sort, that the
// page fetched nothing and logged no error. The reports are of three
// endpoints, of one, of a find-max search (the capacity chart), of SSE and
// WebSocket streams, and of a run with a warm-up, a collapse and a
// saturated generator (shaded and marked on the charts). It saves a
// screenshot of each page in the test's temporary directory (and in
// $SURGE_SCREENSHOT_DIR if set).
func TestPagesInChromium(t *testing.T) {
	browsertest.Require(t)
	dir := t.TempDir()
	base, nw := readFixture(t, "base.json"), readFixture(t, "new.json")
	pair, err := Compare([]Labeled{{Label: "base", File: "base.json", Result: base}, {Label: "new", File: "new.json", Result: nw}})
	if err != nil {
		t.Fatal(err)
	}
	checks := []FailOnResult{{Expr: "p99>+10%", Failed: true, Message: "p99>+10%: Total p99 +57.6% (368ms → 581ms)"}}
	report := func(r *result.Result) func(string) error { return func(p string) error { return WriteHTML(p, r) } }
	pages := []struct {
		name   string
		write  func(path string) error
		charts int
		rows   map[string]int
		// elements counts the elements that match each CSS selector.
		elements map[string]int
	}{
		{"report.html", report(shop.result()), 5,
			map[string]int{"endpoints": 3, "timing": 4, "errors": 2},
			map[string]int{"ul.findings li": 0, ".chart-key li": 0, "#capacity": 0, "#streams": 0}},
		{"report-single.html", report(nw), 5,
			map[string]int{"endpoints": 1, "timing": 1, "errors": 2}, nil},
		{"report-findmax.html", report(readFixture(t, "findmax.json")), 6,
			map[string]int{"capacity": 8, "endpoints": 1, "timing": 1},
			map[string]int{`figure[data-chart="capacity"] .chart-key li`: 2, "#charts .chart-key li": 1, "tr.max": 1, "tr.failed": 1}},
		{"report-streams.html", report(readFixture(t, "streams.json")), 7,
			map[string]int{"endpoints": 3, "streams": 2, "stream-timings": 13},
			map[string]int{`figure[data-chart="streams"]`: 1, `figure[data-chart="stream-ends"]`: 1, "#stream-figures .figure": 6, "#charts .chart-key li": 1}},
		{"report-polling.html", report(polling.result()), 8,
			map[string]int{"endpoints": 3, "timing": 4, "errors": 2},
			map[string]int{"fieldset.endpoint-pick input[type=checkbox]": 3, "fieldset.endpoint-pick input:checked": 3, `#endpoint-charts figure[data-chart="endpoint-latency"]`: 1}},
		{"report-outage.html", report(outage.result()), 5,
			map[string]int{"endpoints": 1, "timing": 1, "errors": 2},
			map[string]int{"ul.findings li": 2, "#charts .chart-key li": 6}},
		{"report-monitor.html", report(withMonitor(readFixture(t, "base.json"), 1)), 9,
			map[string]int{"endpoints": 1, "timing": 1, "errors": 2},
			map[string]int{`figure[data-chart="api.cpu"]`: 1, `figure[data-chart="api.memory"]`: 1, `figure[data-chart="db.scraped"]`: 1, ".server-pick select option": 1}},
		{"report-refusals.html", report(refusals.result()), 5,
			map[string]int{"endpoints": 1, "timing": 1, "errors": 2}, nil},
		{"compare.html", func(p string) error { return WriteCompareHTML(p, pair, checks) }, len(overlays),
			map[string]int{"runs": 2, "compare": len(Metrics) + len(RunMetrics)}, nil},
		{"compare-sequence.html", func(p string) error { return WriteCompareHTML(p, sequence(t), nil) }, len(overlays),
			map[string]int{"runs": 6, "compare": 3*len(Metrics) + len(RunMetrics)}, nil},
	}

	browserCtx := browsertest.Start(t, 60*time.Second)

	for _, pg := range pages {
		t.Run(pg.name, func(t *testing.T) {
			path := filepath.Join(dir, pg.name)
			if err := pg.write(path); err != nil {
				t.Fatal(err)
			}
			tab, closeTab := chromedp.NewContext(browserCtx)
			defer closeTab()
			var mu sync.Mutex
			var problems []string
			note := func(s string) { mu.Lock(); problems = append(problems, s); mu.Unlock() }
			err := chromedp.Listen(tab, func(ev any) {
				switch e := ev.(type) {
				case *runtime.EventConsoleAPICalled:
					if e.Type == runtime.ConsoleAPICalledTypeError || e.Type == runtime.ConsoleAPICalledTypeWarning || e.Type == runtime.ConsoleAPICalledTypeAssert {
						note("console " + string(e.Type))
					}
				case *runtime.EventExceptionThrown:
					note("exception: " + e.ExceptionDetails.Text)
				case *log.EventEntryAdded:
					if e.Entry.Level == log.EntryLevelError || e.Entry.Level == log.EntryLevelWarning {
						note("log: " + e.Entry.Text)
					}
				case *network.EventRequestWillBeSent:
					if !strings.HasPrefix(e.Request.URL, "file://") {
						note("request to " + e.Request.URL)
					}
				}
			})
			if err != nil {
				t.Fatal(err)
			}
			if err := chromedp.Do(tab, chromedp.Navigate("file://"+path)); err != nil {
				t.Fatal(err)
			}
			ready, err := chromedp.Run(tab, chromedp.Poll[string](`document.body.getAttribute("data-ready")`, chromedp.WithPollingTimeout(20*time.Second)))
			if err != nil || ready != "1" {
				t.Fatalf("page not drawn: ready %q, %v", ready, err)
			}
			st, err := chromedp.Run(tab, chromedp.Evaluate[pageStats](readStats))
			if err != nil {
				t.Fatal(err)
			}
			if st.Charts != pg.charts || st.Legends != pg.charts || len(st.Undrawn) > 0 {
				t.Errorf("%d charts with %d legends, undrawn %q; want %d drawn", st.Charts, st.Legends, st.Undrawn, pg.charts)
			}
			for table, n := range pg.rows {
				if st.Rows[table] != n {
					t.Errorf("table %s has %d rows, want %d (all: %v)", table, st.Rows[table], n, st.Rows)
				}
			}
			if st.EmptyNums > 0 {
				t.Errorf("%d number cells are empty", st.EmptyNums)
			}
			if st.Resources > 0 {
				t.Errorf("the page fetched %d resources; it must be self-contained", st.Resources)
			}
			if len(st.Hoverless) > 0 {
				t.Errorf("with the cursor on them, these charts show no value in the legend: %q", st.Hoverless)
			}
			for sel, want := range pg.elements {
				n, err := chromedp.Run(tab, chromedp.Evaluate[int](`document.querySelectorAll(`+strconv.Quote(sel)+`).length`))
				if err != nil {
					t.Fatal(err)
				}
				if n != want {
					t.Errorf("%d elements match %s, want %d", n, sel, want)
				}
			}
			if pg.name == "report.html" {
				checkSort(t, tab)
			}
			if pg.name == "report-polling.html" {
				checkEndpointPick(t, tab)
			}
			// Every table fits the page: none scrolls sideways to hide a run.
			wide, err := chromedp.Run(tab, chromedp.Evaluate[int](`[...document.querySelectorAll(".scroll")].filter(d => d.scrollWidth > d.clientWidth + 1).length`))
			if err != nil {
				t.Fatal(err)
			}
			if wide > 0 {
				t.Errorf("%d tables are wider than the page", wide)
			}
			if pg.name == "report-refusals.html" {
				// After the collapse failures outnumber successes: they are
				// drawn on an axis of their own, not squashing the ok line.
				apart, err := chromedp.Run(tab, chromedp.Evaluate[bool](`window.surgePlots.some(u => u.root.closest("figure").dataset.chart === "throughput" && !!u.scales.y2 && u.series.some(s => s.label === "failed" && s.scale === "y2"))`))
				if err != nil || !apart {
					t.Errorf("the throughput chart of a collapse draws failures on the axis of the successes (%v)", err)
				}
			}
			shot, err := chromedp.Run(tab, chromedp.FullScreenshot(100))
			if err != nil {
				t.Fatal(err)
			}
			png := strings.TrimSuffix(path, ".html") + ".png"
			if err := os.WriteFile(png, shot, 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("screenshot %s (%d KiB)", png, len(shot)/1024)
			if d := os.Getenv("SURGE_SCREENSHOT_DIR"); d != "" {
				os.WriteFile(filepath.Join(d, filepath.Base(png)), shot, 0o644)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(problems) > 0 {
				t.Errorf("the page logged errors or made requests:\n%s", strings.Join(problems, "\n"))
			}
		})
	}
}

// checkSort clicks the p95 header of the endpoint table and checks the rows
// are then in descending order of p95, and ascending after a second click.
func checkSort(t *testing.T, tab context.Context) {
	t.Helper()
	const order = `(() => {
	  const t = document.querySelector('table[data-table="endpoints"]');
	  const col = [...t.tHead.rows[0].cells].findIndex(th => th.textContent.startsWith("p95"));
	  t.tHead.rows[0].cells[col].click();
	  return [...t.tBodies[0].rows].map(r => r._row.latency_ms.p95);
	})()`
	for _, desc := range []bool{true, false} {
		v, err := chromedp.Run(tab, chromedp.Evaluate[[]float64](order))
		if err != nil {
			t.Fatal(err)
		}
		for i := 1; i < len(v); i++ {
			if desc && v[i] > v[i-1] || !desc && v[i] < v[i-1] {
				t.Errorf("after sorting by p95 (descending %v): %v", desc, v)
				break
			}
		}
	}
}

// checkEndpointPick unticks an endpoint in the charts by endpoint and checks
// that its line is gone from them (the chart's series and the pixels of its
// colour), that ticking it again brings it back, and that picking p99
// draws each endpoint's p99 instead of its p95.
func checkEndpointPick(t *testing.T, tab context.Context) {
	t.Helper()
	type drawn struct {
		Labels []string    `json:"labels"`
		Pixels int         `json:"pixels"` // of the folder listing's colour
		Title  string      `json:"title"`
		Data   [][]float64 `json:"data"`
	}
	const read = `((chart) => {
	  const u = window.surgePlots.find(u => u.root.closest("figure").dataset.chart === chart);
	  if (!u) return {labels: [], pixels: 0, title: "", data: []};
	  const src = u.root.querySelector("canvas");
	  // A copy to read, so that no canvas of the page is read back twice.
	  const c = document.createElement("canvas");
	  c.width = src.width; c.height = src.height;
	  const ctx = c.getContext("2d", {willReadFrequently: true});
	  ctx.drawImage(src, 0, 0);
	  const d = ctx.getImageData(0, 0, c.width, c.height).data;
	  let pixels = 0; // #4c78a8, the first endpoint's colour
	  for (let i = 0; i < d.length; i += 4) {
	    if (d[i + 3] > 200 && Math.abs(d[i] - 0x4c) < 24 && Math.abs(d[i + 1] - 0x78) < 24 && Math.abs(d[i + 2] - 0xa8) < 24) pixels++;
	  }
	  return {labels: u.series.slice(1).map(s => s.label), pixels, title: u.root.closest("figure").querySelector("figcaption").textContent,
	    data: u.data.slice(1).map(v => v.map(x => x == null ? -1 : x))};
	})`
	get := func(chart string) drawn {
		t.Helper()
		d, err := chromedp.Run(tab, chromedp.Evaluate[drawn](read+`(`+strconv.Quote(chart)+`)`))
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	click := func(js string) {
		t.Helper()
		if _, err := chromedp.Run(tab, chromedp.Evaluate[bool](js+`; true`)); err != nil {
			t.Fatal(err)
		}
	}
	const folders = "GET /api/v1/folders/{id}"
	before := get("endpoint-throughput")
	if len(before.Labels) != 3 || before.Labels[0] != folders || before.Pixels < 50 {
		t.Fatalf("before picking: %q with %d pixels of the first endpoint's colour", before.Labels, before.Pixels)
	}
	// The folder listing stalled at 42–43 s: its line drops to 0 there,
	// the others' do not.
	for i, l := range before.Labels {
		v := before.Data[i]
		if stalled := v[42] == 0 && v[43] == 0; stalled != (l == folders) {
			t.Errorf("%s: ok/s at 42–43 s %v, %v", l, v[42], v[43])
		}
	}
	// Its dip is shaded and named in the chart's key; unticked, it is not.
	keyOf := func(chart string) int {
		t.Helper()
		n, err := chromedp.Run(tab, chromedp.Evaluate[int](`[...document.querySelectorAll('figure[data-chart="`+chart+`"] .chart-key li')].filter(li => li.textContent.startsWith(`+strconv.Quote(folders+": throughput dip at 42s")+`)).length`))
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := keyOf("endpoint-throughput"); n != 1 {
		t.Errorf("the throughput chart by endpoint names %s's dip %d times, want 1", folders, n)
	}
	untick := `[...document.querySelectorAll("fieldset.endpoint-pick label")].find(l => l.dataset.endpoint === ` + strconv.Quote(folders) + `).querySelector("input").click()`
	click(untick)
	after := get("endpoint-throughput")
	if len(after.Labels) != 2 || slices.Contains(after.Labels, folders) {
		t.Errorf("after unticking %s the chart draws %q", folders, after.Labels)
	}
	if after.Pixels*5 > before.Pixels {
		t.Errorf("after unticking %s, %d pixels of its colour remain (%d before)", folders, after.Pixels, before.Pixels)
	}
	if n := keyOf("endpoint-throughput"); n != 0 {
		t.Errorf("unticked, %s's dip is still named on the chart", folders)
	}
	for _, chart := range []string{"endpoint-failures", "endpoint-latency"} {
		if l := get(chart).Labels; len(l) != 2 || slices.Contains(l, folders) {
			t.Errorf("after unticking %s the %s chart draws %q", folders, chart, l)
		}
	}
	click(untick)
	if again := get("endpoint-throughput"); len(again.Labels) != 3 || again.Pixels < before.Pixels/2 {
		t.Errorf("ticked again: %q with %d pixels", again.Labels, again.Pixels)
	}
	p95 := get("endpoint-latency")
	click(`(() => { const s = document.querySelector('select[data-pick="percentile"]'); s.value = "p99"; s.dispatchEvent(new Event("change")); })()`)
	p99 := get("endpoint-latency")
	if !strings.Contains(p99.Title, "p99") || len(p99.Data) != 3 {
		t.Fatalf("after picking p99: %q, %d series", p99.Title, len(p99.Data))
	}
	higher := 0
	for i := range p99.Data {
		for k := range p99.Data[i] {
			if p99.Data[i][k] < p95.Data[i][k] {
				t.Fatalf("%s at %d: p99 %v under p95 %v", p99.Labels[i], k, p99.Data[i][k], p95.Data[i][k])
			}
			if p99.Data[i][k] > p95.Data[i][k] {
				higher++
			}
		}
	}
	if higher == 0 {
		t.Error("picking p99 drew the same values as p95")
	}
}
