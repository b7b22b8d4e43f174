package httpc

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// snippetBytes is how much of an error response's body is kept to say why
// the server refused: enough for a JSON error message or the first line of
// an error page.
const snippetBytes = 256

// A StatusError is the failure of an exchange whose response had a status
// of 400 or above. Snippet is the beginning of the body, which usually says
// why ("lock wait timeout exceeded"), so that the result's sample messages
// tell causes apart without the server's logs.
type StatusError struct {
	Status  int
	Snippet string
}

func (e *StatusError) Error() string {
	if e.Snippet == "" {
		return fmt.Sprintf("status %d", e.Status)
	}
	return fmt.Sprintf("status %d: %s", e.Status, e.Snippet)
}

// newStatusError makes the error of status from the beginning of its body:
// whitespace runs become one space and the text is cut to 120 characters.
func newStatusError(status int, body []byte) *StatusError {
	if len(body) > snippetBytes {
		body = body[:snippetBytes]
	}
	s := strings.Join(strings.Fields(strings.ToValidUTF8(string(body), "")), " ")
	if utf8.RuneCountInString(s) > 120 {
		s = string([]rune(s)[:120]) + "…"
	}
	return &StatusError{Status: status, Snippet: s}
}
