package httpc

import (
	"strconv"
	"unicode"
	"unicode/utf8"
)

// snippetBytes is how much of an error response's body is kept to say why
// the server refused: enough for a JSON error message or the first line of
// an error page.
const snippetBytes = 256

// snippetRunes is how long the snippet of the message is, at most, before
// it is cut with "…".
const snippetRunes = 120

// A StatusError is the failure of an exchange whose response had a status
// of 400 or above. Its message holds the beginning of the body, which
// usually says why ("lock wait timeout exceeded"), so that the result's
// sample messages tell causes apart without the server's logs.
//
// The body is kept as it came and turned into text only when the message
// is wanted: recording a failure that repeats one already seen formats
// nothing (AppendKey).
type StatusError struct {
	Status int
	n      int
	head   [snippetBytes]byte // the first n bytes of the body
}

// newStatusError makes the error of status from the beginning of its body.
func newStatusError(status int, body []byte) *StatusError {
	e := &StatusError{Status: status}
	e.n = copy(e.head[:], body)
	return e
}

// Snippet returns the beginning of the body as text: whitespace runs
// become one space, bytes that are not UTF-8 are dropped and the text is
// cut to 120 characters.
func (e *StatusError) Snippet() string { return string(e.appendSnippet(nil)) }

func (e *StatusError) Error() string { return string(e.AppendMessage(nil)) }

// AppendMessage appends the error's message, Error(), to b.
func (e *StatusError) AppendMessage(b []byte) []byte {
	b = append(b, "status "...)
	b = strconv.AppendInt(b, int64(e.Status), 10)
	if e.hasText() {
		b = append(b, ": "...)
		b = e.appendSnippet(b)
	}
	return b
}

// AppendKey appends to b bytes that are equal for two StatusErrors exactly
// when their messages are (a metrics.KeyedError): the status and the
// body's start as they came, copied, not formatted.
func (e *StatusError) AppendKey(b []byte) []byte {
	b = append(b, byte(e.Status>>8), byte(e.Status))
	return append(b, e.head[:e.n]...)
}

// hasText reports whether the body holds anything but whitespace and
// bytes that are not UTF-8.
func (e *StatusError) hasText() bool {
	for s := e.head[:e.n]; len(s) > 0; {
		r, size := utf8.DecodeRune(s)
		if (r != utf8.RuneError || size > 1) && !unicode.IsSpace(r) {
			return true
		}
		s = s[size:]
	}
	return false
}

// appendSnippet appends the snippet of the body to b.
func (e *StatusError) appendSnippet(b []byte) []byte {
	runes, space := 0, false
	for s := e.head[:e.n]; len(s) > 0; {
		r, size := utf8.DecodeRune(s)
		s = s[size:]
		switch {
		case r == utf8.RuneError && size <= 1:
			continue
		case unicode.IsSpace(r):
			space = runes > 0
			continue
		}
		if space {
			if runes == snippetRunes {
				return append(b, "…"...)
			}
			b = append(b, ' ')
			runes++
			space = false
		}
		if runes == snippetRunes {
			return append(b, "…"...)
		}
		b = utf8.AppendRune(b, r)
		runes++
	}
	return b
}
