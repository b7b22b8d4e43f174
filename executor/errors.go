package executor

import (
	"errors"
	"fmt"
)

// An Error is a problem with a load model or its parts (stages, rates,
// segments), found by Validate or a parser. Msg says what, for people, and
// names the value; Error prefixes it with the package's name.
type Error struct {
	Msg string
}

func (e *Error) Error() string { return "executor: " + e.Msg }

// errorf makes an *Error.
func errorf(format string, args ...any) error {
	return &Error{Msg: fmt.Sprintf(format, args...)}
}

// Message returns the message of err without the package's name if err is
// or wraps an *Error, for people who gave the value (a flag, a file's
// field); otherwise err.Error().
func Message(err error) string {
	if e, ok := errors.AsType[*Error](err); ok {
		return e.Msg
	}
	return err.Error()
}
