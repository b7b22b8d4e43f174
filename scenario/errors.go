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

// Suggest returns the candidate closest to name, if it is close enough to
// be a likely typo, or "".
func Suggest(name string, candidates []string) string {
	best, bestD := "", 0
	for _, c := range candidates {
		d := distance(strings.ToLower(name), strings.ToLower(c))
		if d <= max(1, len(c)/3) && (best == "" || d < bestD) {
			best, bestD = c, d
		}
	}
	return best
}

// DidYouMean returns "did you mean X?" for the candidate closest to name, or
// "".
func DidYouMean(name string, candidates []string) string {
	if s := Suggest(name, candidates); s != "" {
		return fmt.Sprintf("did you mean %s?", s)
	}
	return ""
}

// distance is the Levenshtein edit distance of a and b.
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
