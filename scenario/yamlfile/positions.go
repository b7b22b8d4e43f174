package yamlfile

import (
	"errors"
	"strings"
	"unicode/utf8"

	"github.com/surge-load/surge/scenario"
)

// Positions maps the field paths of a Spec parsed from a file, such as
// "scenarios.browse.tasks[0].weight", to where they are in the file.
type Positions map[string]place

// A place is the position of a value in a file.
type place struct {
	line, col       int // the value
	keyLine, keyCol int // the key that names it, if any
	// value is the text of a one-line scalar, and quoted says whether it
	// is in quotes: they place errors at an offset inside it.
	value  string
	quoted bool
}

// Locate gives every scenario.Error in err without a line the file, line
// and column of its path, or of the closest enclosing field that has one,
// and returns the errors sorted by position. Other errors are returned as
// they are.
func (p Positions) Locate(file string, err error) error {
	var es scenario.Errors
	if !errors.As(err, &es) {
		return err
	}
	for _, e := range es {
		if e.Line > 0 {
			continue
		}
		e.File = file
		path := e.Path
		for {
			if pl, ok := p[path]; ok {
				e.Line, e.Col = pl.line, pl.col
				if e.Key && path == e.Path && pl.keyLine > 0 {
					e.Line, e.Col = pl.keyLine, pl.keyCol
				}
				if path == e.Path && e.Offset > 0 && pl.value != "" && e.Offset <= len(pl.value) {
					e.Col += utf8.RuneCountInString(pl.value[:e.Offset])
					if pl.quoted {
						e.Col++
					}
				}
				break
			}
			parent := parentPath(path)
			if parent == path {
				e.Line, e.Col = 1, 1
				break
			}
			path = parent
		}
	}
	return es.Sort()
}

// parentPath drops the last component of a path: a key or an index.
func parentPath(path string) string {
	if strings.HasSuffix(path, "]") {
		if i := strings.LastIndexByte(path, '['); i > 0 {
			return path[:i]
		}
	}
	if i := strings.LastIndexByte(path, '.'); i >= 0 {
		return path[:i]
	}
	return ""
}
