package report

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
)

func TestHTMLIsSelfContained(t *testing.T) {
	var b bytes.Buffer
	if err := HTML(&b, shop.result()); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	// Nothing is loaded from elsewhere: no external scripts, styles,
	// fonts or images, and a policy that forbids them anyway.
	for _, re := range []string{`<script[^>]+src=`, `<link[^>]+href=`, `@import`, `url\(\s*['"]?(https?:)?//`, `<img[^>]+src=["']?https?:`} {
		if m := regexp.MustCompile(re).FindString(page); m != "" {
			t.Errorf("page loads %q", m)
		}
	}
	if !strings.Contains(page, `Content-Security-Policy" content="default-src 'none'`) {
		t.Error("page has no content security policy forbidding network loads")
	}
	// Error messages from the server cannot break out of the data section.
	if strings.Contains(page, "<script>alert(1)") {
		t.Error("a sample message's <script> is in the page unescaped")
	}
	start := strings.Index(page, `<script type="application/json" id="surge-data">`)
	if start < 0 {
		t.Fatal("no data section")
	}
	rest := page[start+len(`<script type="application/json" id="surge-data">`):]
	var d ReportData
	if err := json.Unmarshal([]byte(rest[:strings.Index(rest, "</script>")]), &d); err != nil {
		t.Fatalf("data section: %v", err)
	}
	if d.Kind != "report" || len(d.Endpoints) != 3 || d.Errors[0].Samples[0].Message == "" {
		t.Errorf("data section: %+v", d.Run)
	}
	for _, asset := range []string{uPlotJS, uPlotCSS, pageJS, pageCSS} {
		if strings.Contains(strings.ToLower(asset), "</script") || strings.Contains(strings.ToLower(asset), "</style") {
			t.Error("an embedded asset would close its element early")
		}
	}
	if !strings.Contains(uPlotJS, "uPlot (v1.6.32)") {
		t.Error("embedded uPlot is not the version docs/reports.md names")
	}
}
