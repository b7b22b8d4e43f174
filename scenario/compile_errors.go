package scenario

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// MaxErrors is the most problems Compile (and a scenario file's parser)
// reports at once.
const MaxErrors = 50

// An Error is one problem with a Spec: where it is, what is wrong and how to
// fix it.
type Error struct {
	// Path names the field, with the names a scenario file uses, as in
	// "scenarios.browse.tasks[0].weight".
	Path string
	// Offset is the byte offset of the problem within the field's string
	// value, for errors inside templates and expressions.
	Offset int
	// Key says that the problem is the name of the field, the last key of
	// Path, rather than its value.
	Key bool
	// File, Line and Col say where the field is in a scenario file; Line
	// is zero for a Spec built in Go.
	File      string
	Line, Col int
	Msg       string // what is wrong
	Fix       string // how to fix it; may be empty
}

func (e *Error) Error() string {
	where := e.Path
	if e.Line > 0 {
		where = fmt.Sprintf("%s:%d:%d", e.File, e.Line, e.Col)
	}
	if e.Fix == "" {
		return where + ": " + e.Msg
	}
	return where + ": " + e.Msg + "; " + e.Fix
}

// Errors is a list of problems, in the order of their positions.
type Errors []*Error

func (es Errors) Error() string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// Sort orders es by file position, then by path, and keeps at most
// MaxErrors of them.
func (es Errors) Sort() Errors {
	slices.SortStableFunc(es, func(a, b *Error) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col), cmp.Compare(a.Path, b.Path))
	})
	es = slices.CompactFunc(es, func(a, b *Error) bool { return a.Error() == b.Error() })
	if len(es) > MaxErrors {
		es = es[:MaxErrors]
	}
	return es
}
