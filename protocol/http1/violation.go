package http1

import (
	"fmt"

	"github.com/surge-load/surge/errclass"
)

// A violation is a response that breaks HTTP/1.1. It matches
// errclass.ErrProtocol.
type violation struct{ what string }

func (e *violation) Error() string        { return "malformed HTTP/1.1 response: " + e.what }
func (e *violation) Is(target error) bool { return target == errclass.ErrProtocol }

func violated(format string, args ...any) error {
	return &violation{what: fmt.Sprintf(format, args...)}
}

// quote cuts b to n bytes for an error message.
func quote(b []byte, n int) []byte {
	if len(b) > n {
		return b[:n]
	}
	return b
}
