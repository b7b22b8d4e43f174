package sanitize

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Text returns s safe to print: secrets redacted (the user info of URLs,
// Secret name=value pairs, bearer and basic credentials) and every control
// character escaped in Go's notation (ESC is \x1b, a newline \n, a
// right-to-left override \u202e), as are invalid UTF-8 bytes, so that text
// that came from the network cannot move the cursor, clear the screen,
// retitle the terminal or reorder what is shown. Text is idempotent.
func Text(s string) string {
	return Escape(redactText(s))
}

// Escape returns s with control characters, invisible format characters
// and invalid UTF-8 escaped, and nothing else changed.
func Escape(s string) string {
	if safe(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteString(`\x`)
			b.WriteString(strconv.FormatUint(uint64(s[i])|0x100, 16)[1:])
		case printable(r):
			b.WriteString(s[i : i+size])
		default:
			q := strconv.QuoteRuneToASCII(r)
			b.WriteString(q[1 : len(q)-1])
		}
		i += size
	}
	return b.String()
}

// printable reports whether r may be shown as is: a graphic character or a
// plain space, and not a format character such as a bidirectional override.
func printable(r rune) bool {
	return r == ' ' || unicode.IsGraphic(r) && !unicode.Is(unicode.Cf, r)
}

// safe reports whether s needs no escaping, quickly for plain ASCII.
func safe(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c >= 0x7f {
			if c < 0x80 {
				return false
			}
			// Not ASCII: check rune by rune.
			for _, r := range s[i:] {
				if r == utf8.RuneError || !printable(r) {
					return false
				}
			}
			return true
		}
	}
	return true
}

// CSVCell returns a text cell for a spreadsheet: Text, and a leading
// apostrophe if it would start with =, +, -, @, a tab or a carriage
// return, which spreadsheets take for a formula.
func CSVCell(s string) string {
	s = Text(s)
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}
