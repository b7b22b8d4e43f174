package report

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"html"
	"io"

	"github.com/surge-load/surge/atomicfile"
	"github.com/surge-load/surge/result"
)

// The page's assets. uPlot draws the charts; docs/reports.md says which
// version this is and how to update it.
var (
	//go:embed assets/uPlot.iife.min.js
	uPlotJS string
	//go:embed assets/uPlot.min.css
	uPlotCSS string
	//go:embed assets/page.js
	pageJS string
	//go:embed assets/page.css
	pageCSS string
)

// HTML writes the report of r as one self-contained HTML page: the run, its
// verdict and findings, a capacity search's curve and table, charts over
// time, the endpoint, stream, timing and error tables. The page loads
// nothing from the network and opens from a file.
func HTML(w io.Writer, r *result.Result) error {
	d := NewReportData(r)
	return writePage(w, "surge report · "+d.Run.Title, d, pageOptions{})
}

// LivePage writes the page of a run going on: the report of r, the run so
// far, with script run after the report's own, which redraws it with
// window.surgeDraw(data) as updates arrive. The page may connect to the
// server it came from, and nothing else.
func LivePage(w io.Writer, r *result.Result, script string) error {
	d := NewReportData(r)
	d.ForLive()
	return writePage(w, "surge live · "+d.Run.Title, d, pageOptions{script: script, connect: true})
}

// pageOptions vary the page for the live view.
type pageOptions struct {
	script  string // run after the page's own
	connect bool   // may connect back to its server
}

// WriteHTML writes the report of r to the file path, atomically: a failed
// write leaves the previous file as it was.
func WriteHTML(path string, r *result.Result) error {
	return atomicfile.Write(path, func(w io.Writer) error { return HTML(w, r) })
}

// writePage writes the page that draws data. The data section is JSON in a
// script element; encoding/json escapes <, > and & in strings, so no value
// can close the element early.
func writePage(w io.Writer, title string, data any, o pageOptions) error {
	js, err := json.Marshal(data)
	if err != nil {
		return fmt.Errorf("encode report data: %w", err)
	}
	var b bytes.Buffer
	b.WriteString(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:`)
	if o.connect {
		b.WriteString("; connect-src 'self'")
	}
	b.WriteString(`">
<meta name="generator" content="surge">
<title>`)
	b.WriteString(html.EscapeString(title))
	b.WriteString("</title>\n<style>\n")
	b.WriteString(uPlotCSS)
	b.WriteString("\n</style>\n<style>\n")
	b.WriteString(pageCSS)
	b.WriteString(`</style>
</head>
<body>
<noscript><p class="noscript">This report draws its tables and charts with JavaScript. Enable JavaScript to see them; the numbers are also in the data section of this file.</p></noscript>
<main id="app"></main>
<script type="application/json" id="surge-data">`)
	b.Write(js)
	b.WriteString("</script>\n<script>\n")
	b.WriteString(uPlotJS)
	b.WriteString("\n</script>\n<script>\n")
	b.WriteString(pageJS)
	if o.script != "" {
		b.WriteString("</script>\n<script>\n")
		b.WriteString(o.script)
	}
	b.WriteString("</script>\n</body>\n</html>\n")
	_, err = w.Write(b.Bytes())
	return err
}
