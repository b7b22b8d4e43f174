package yamlfile

import (
	"fmt"

	"github.com/surge-load/surge/scenario"
)

// Limits of a scenario file's shape, checked by a linear scan before the
// YAML parser sees the file: the parser's time and memory grow faster than
// the file with deep nesting and with many keys, so a small hostile file
// could otherwise take gigabytes or overflow the stack. A real scenario
// file is a few levels deep and has hundreds of keys.
const (
	MaxDepth = 64      // nesting of mappings and sequences, block or flow
	MaxKeys  = 20_000  // mapping keys in the whole file
	MaxItems = 200_000 // sequence items and flow entries in the whole file
)

// prescan checks src against MaxDepth, MaxKeys and MaxItems, in one pass
// that understands just enough YAML (quotes, comments, flow brackets,
// indentation, "- " items and "key:" keys) to count. A quote opens a
// quoted scalar only where a scalar may start, as in YAML, so a quote inside
// a plain scalar hides nothing from the count.
func prescan(name string, src []byte) error {
	var (
		line, col     = 1, 1
		flow          int   // open [ and { brackets
		indents       []int // the block indentation levels open
		keys, items   int
		atLineStart   = true
		indent        int
		dashes        int // "- " items on this line before its content
		quote         byte
		comment       bool
		contentOnLine bool
		expectValue   = true // a scalar may start here (so may a quote)
	)
	fail := func(msg, fix string) error {
		return scenario.Errors{{File: name, Line: line, Col: col, Msg: msg, Fix: fix}}
	}
	depth := func() int { return len(indents) + dashes + flow }
	check := func() error {
		switch {
		case depth() > MaxDepth:
			return fail(fmt.Sprintf("nested more than %d levels deep", MaxDepth),
				"a scenario file needs a few levels; this one is generated or hostile")
		case keys > MaxKeys:
			return fail(fmt.Sprintf("more than %d keys", MaxKeys),
				"put large lists of values in a data file (csv: or jsonl:) instead")
		case items > MaxItems:
			return fail(fmt.Sprintf("more than %d list items", MaxItems),
				"put large lists of values in a data file (csv: or jsonl:) instead")
		}
		return nil
	}
	for i := 0; i < len(src); i++ {
		// The counts of everything before i.
		if err := check(); err != nil {
			return err
		}
		c := src[i]
		if c == '\n' {
			line, col = line+1, 1
			atLineStart, indent, dashes, comment, contentOnLine, expectValue = true, 0, 0, false, false, true
			if quote == '\'' || quote == '"' {
				// A quoted scalar may span lines; its content counts for nothing.
				atLineStart = false
			}
			continue
		}
		col++
		switch {
		case comment:
			continue
		case quote != 0:
			switch {
			case quote == '"' && c == '\\':
				i++
			case c == quote:
				if quote == '\'' && i+1 < len(src) && src[i+1] == '\'' {
					i++
				} else {
					quote = 0
				}
			}
			continue
		}
		if atLineStart {
			if c == ' ' {
				indent++
				continue
			}
			if c == '#' || c == '\r' || c == '\t' {
				if c == '#' {
					comment = true
				}
				continue
			}
			atLineStart = false
			if flow == 0 {
				for len(indents) > 0 && indents[len(indents)-1] >= indent {
					indents = indents[:len(indents)-1]
				}
				indents = append(indents, indent)
			}
		}
		switch c {
		case '#':
			if i == 0 || src[i-1] == ' ' || src[i-1] == '\t' {
				comment = true
			}
		case '\'', '"':
			if expectValue {
				quote = c
			}
		case '-':
			if !contentOnLine && (i+1 == len(src) || src[i+1] == ' ' || src[i+1] == '\n' || src[i+1] == '\r') {
				dashes++
				items++
				continue // still before the line's content
			}
		case '[', '{':
			if expectValue || flow > 0 {
				flow++
				items++
				contentOnLine = true
				continue // a value may follow
			}
		case ']', '}':
			if flow > 0 {
				flow--
			}
		case ',':
			if flow > 0 {
				items++
				continue // a value may follow
			}
		case ':':
			if i+1 == len(src) || src[i+1] == ' ' || src[i+1] == '\n' || src[i+1] == '\r' || src[i+1] == '\t' || flow > 0 && (src[i+1] == ',' || src[i+1] == ']' || src[i+1] == '}') {
				keys++
				expectValue, contentOnLine = true, true
				continue
			}
		case '?':
			expectValue, contentOnLine = true, true
			continue
		}
		if c != ' ' && c != '\t' {
			contentOnLine, expectValue = true, false
		}
	}
	return check()
}
