package report

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/surge-load/surge/analysis"
	"github.com/surge-load/surge/metrics"
	"github.com/surge-load/surge/result"
)

// FuzzResultDocument feeds hostile result documents to everything that
// reads one: result.Decode, then the summary, Markdown, HTML and CSV, a
// comparison, the analysis that surge merge runs, and metrics.Merge, none
// of which may panic; what they print holds no raw ESC. The seeds are the
// fixtures in testdata/*.json and testdata/fuzz/FuzzResultDocument.
func FuzzResultDocument(f *testing.F) {
	fixtures, _ := filepath.Glob("testdata/*.json")
	for _, name := range fixtures {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`{"schema_version":2,"run":{"target":"http://u:p@h/\u001b[2J"},"endpoints":[{"name":"=1+1","latency_histogram":"HISTFAAAABx4nJNpmSzMwMDAxQABzFCaEUTz2X+AsQA/awKs"}]}`))
	f.Add([]byte(`{"schema_version":2,"totals":{"latency_histogram":"!!!"},"series":[{"t":-1,"duration_s":1e308}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := result.Decode(b)
		if err != nil {
			return
		}
		var out strings.Builder
		Summary(&out, r)
		Markdown(&out, r)
		_ = HTML(io.Discard, r)
		for _, csv := range []func(io.Writer, *result.Result) error{EndpointsCSVTo, SeriesCSVTo, ErrorsCSVTo, CapacityCSVTo} {
			_ = csv(&out, r)
		}
		if c, err := Compare([]Labeled{{Label: "a", Result: r}, {Label: "b", Result: r}}); err == nil {
			CompareTable(&out, c)
		}
		if strings.ContainsRune(out.String(), 0x1b) {
			t.Fatalf("an output holds a raw ESC")
		}
		if m, err := metrics.Merge(r, r); err == nil {
			analysis.JudgeGenerator(m)
			m.Collapse = analysis.DetectCollapse(m)
			analysis.Evaluate(m, nil)
		}
	})
}
