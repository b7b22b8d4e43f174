package report

import (
	"io"
	"strings"
	"unicode/utf8"
)

// writeColumns writes rows as a plain-text table: the first column aligned
// left, the others right, two spaces apart, each line indented by indent.
func writeColumns(w io.Writer, indent string, rows [][]string) {
	var widths []int
	for _, r := range rows {
		for i, c := range r {
			if i >= len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], utf8.RuneCountInString(c))
		}
	}
	var b strings.Builder
	for _, r := range rows {
		b.WriteString(indent)
		for i, c := range r {
			pad := strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c))
			if i == 0 {
				b.WriteString(c)
				if len(r) > 1 {
					b.WriteString(pad)
				}
				continue
			}
			b.WriteString("  ")
			b.WriteString(pad)
			b.WriteString(c)
		}
		b.WriteString("\n")
	}
	io.WriteString(w, b.String())
}

// mdCell escapes s for a cell of a Markdown table.
func mdCell(s string) string {
	s = strings.ReplaceAll(s, "\\", "\\\\")
	s = strings.ReplaceAll(s, "|", "\\|")
	return strings.ReplaceAll(s, "\n", " ")
}

// writeMarkdownTable writes a Markdown table; align holds "l" or "r" per
// column.
func writeMarkdownTable(w io.Writer, align string, rows [][]string) {
	var b strings.Builder
	for i, r := range rows {
		b.WriteString("|")
		for _, c := range r {
			b.WriteString(" ")
			b.WriteString(mdCell(c))
			b.WriteString(" |")
		}
		b.WriteString("\n")
		if i == 0 {
			b.WriteString("|")
			for j := range r {
				if j < len(align) && align[j] == 'r' {
					b.WriteString("--:|")
				} else {
					b.WriteString(":--|")
				}
			}
			b.WriteString("\n")
		}
	}
	io.WriteString(w, b.String())
}
