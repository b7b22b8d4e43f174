package report

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/surge-load/surge/result"
)

// TestPercentilesAgreeAcrossViews renders one result as the terminal
// summary, the Markdown summary, the CSV, the report's data section and a
// comparison, and checks that each shows the same p50, p95 and p99 for
// every endpoint and the total: each view reads the result's fields, none
// recomputes them.
func TestPercentilesAgreeAcrossViews(t *testing.T) {
	for name, r := range map[string]*result.Result{"shop": shop.result(), "new.json": readFixture(t, "new.json")} {
		t.Run(name, func(t *testing.T) {
			var summary, md, endpointsCSV bytes.Buffer
			Summary(&summary, r)
			Markdown(&md, r)
			if err := EndpointsCSVTo(&endpointsCSV, r); err != nil {
				t.Fatal(err)
			}
			records, err := csv.NewReader(&endpointsCSV).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			col := map[string]int{}
			for i, h := range records[0] {
				col[h] = i
			}
			// The data section as the page parses it.
			page, _ := json.Marshal(NewReportData(r))
			var data ReportData
			if err := json.Unmarshal(page, &data); err != nil {
				t.Fatal(err)
			}
			other := *r
			c, err := Compare([]Labeled{{Label: "a", Result: r}, {Label: "b", Result: &other}})
			if err != nil {
				t.Fatal(err)
			}

			type row struct {
				name string
				s    *result.Stats
			}
			rows := []row{{"Total", &r.Totals}}
			for i := range r.Endpoints {
				rows = append(rows, row{r.Endpoints[i].Name, &r.Endpoints[i].Stats})
			}
			for _, rw := range rows {
				want := map[string]float64{"p50": rw.s.Latency.P50, "p95": rw.s.Latency.P95, "p99": rw.s.Latency.P99}
				wantText := map[string]string{}
				for k, v := range want {
					wantText[k] = Ms(v)
				}
				// Summary and Markdown: the row's cells.
				if rw.name != "Total" || len(r.Endpoints) != 1 {
					label := rw.name
					if rw.name == "Total" {
						label = "**Total**"
					}
					cells := []string{wantText["p50"], wantText["p95"], wantText["p99"]}
					if line := lineWith(summary.String(), rw.name); !containsInOrder(line, cells) {
						t.Errorf("summary row %q lacks %v", line, cells)
					}
					if line := lineWith(md.String(), "| "+label+" |"); !containsInOrder(line, cells) {
						t.Errorf("markdown row %q lacks %v", line, cells)
					}
				}
				// CSV: the unrounded numbers.
				for _, rec := range records[1:] {
					if rec[0] != rw.name {
						continue
					}
					for k, v := range want {
						got, err := strconv.ParseFloat(rec[col["Latency "+k+" (ms)"]], 64)
						if err != nil || got != v {
							t.Errorf("CSV %s %s = %q, want %v", rw.name, k, rec[col["Latency "+k+" (ms)"]], v)
						}
					}
				}
				// The report's data section: numbers and cells.
				er := data.Totals
				for _, e := range data.Endpoints {
					if e.Name == rw.name {
						er = e
					}
				}
				got := map[string]float64{"p50": er.LatencyMs.P50, "p95": er.LatencyMs.P95, "p99": er.LatencyMs.P99}
				gotText := map[string]string{"p50": er.Text.P50, "p95": er.Text.P95, "p99": er.Text.P99}
				for k := range want {
					if got[k] != want[k] || gotText[k] != wantText[k] {
						t.Errorf("report %s %s = %v %q, want %v %q", rw.name, k, got[k], gotText[k], want[k], wantText[k])
					}
				}
				// The comparison.
				sec, ok := c.Section(rw.name)
				if !ok {
					continue // a single endpoint is compared as the total
				}
				for k := range want {
					cr, _ := sec.Row(k)
					if cr.Values[0] != want[k] || cr.Text[0] != wantText[k] {
						t.Errorf("compare %s %s = %v %q, want %v %q", rw.name, k, cr.Values[0], cr.Text[0], want[k], wantText[k])
					}
				}
			}
		})
	}
}

func lineWith(text, s string) string {
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, s) {
			return l
		}
	}
	return ""
}

func containsInOrder(line string, parts []string) bool {
	for _, p := range parts {
		i := strings.Index(line, p)
		if i < 0 {
			return false
		}
		line = line[i+len(p):]
	}
	return true
}
