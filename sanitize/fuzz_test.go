package sanitize

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzText checks that Text and CSVCell never panic, always return valid
// UTF-8 without control characters, and are idempotent.
func FuzzText(f *testing.F) {
	for _, s := range []string{"\x1b[2J\x1b]0;t\x07", "http://u:p@h/?token=x&a=1", "\xff\xfe", "\u202e", "=1+1", "Bearer abcdefghijkl", "a=b=c&&token="} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		_ = URL(s)
		if s != "" && (Text(s) == "" || Escape(s) == "") {
			t.Fatalf("%q became empty", s)
		}
		out := Text(s)
		if !utf8.ValidString(out) {
			t.Fatalf("Text(%q) = %q is not UTF-8", s, out)
		}
		for _, r := range out {
			if !printable(r) {
				t.Fatalf("Text(%q) = %q keeps %U", s, out, r)
			}
		}
		if Text(out) != out {
			t.Fatalf("Text is not idempotent on %q: %q then %q", s, out, Text(out))
		}
		if c := CSVCell(s); c != "" && strings.ContainsRune("=+-@", rune(c[0])) {
			t.Fatalf("CSVCell(%q) = %q starts a formula", s, c)
		}
	})
}
