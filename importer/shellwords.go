package importer

import (
	"fmt"
	"strings"
)

// A word is a shell word and the byte offset where it started; sep marks a
// command separator (an unquoted newline, ;, && or |).
type word struct {
	text   string
	offset int
	sep    bool
}

// shellWords splits src as a POSIX shell would: single and double quotes,
// $'…' strings, backslash escapes, and backslash-newline continuations
// (also ^ and ` at the end of a line, as Windows docs write them). It
// does no expansion: $VAR stays as written.
func shellWords(src string) ([]word, error) {
	var (
		out   []word
		cur   strings.Builder
		in    bool // inside a word
		start int
	)
	flush := func() {
		if in {
			out = append(out, word{text: cur.String(), offset: start})
			cur.Reset()
			in = false
		}
	}
	begin := func(i int) {
		if !in {
			in, start = true, i
		}
	}
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '\\' && i+1 < len(src) && (src[i+1] == '\n' || src[i+1] == '\r'):
			i++ // a continuation
			if src[i] == '\r' && i+1 < len(src) && src[i+1] == '\n' {
				i++
			}
		case (c == '^' || c == '`') && restOfLineEmpty(src[i+1:]):
			i = skipLine(src, i+1) // cmd.exe and PowerShell continuations
		case c == '\\':
			begin(i)
			if i+1 < len(src) {
				i++
				cur.WriteByte(src[i])
			}
		case c == '\'':
			begin(i)
			end := strings.IndexByte(src[i+1:], '\'')
			if end < 0 {
				return nil, &wordError{offset: i, msg: "a single quote is not closed"}
			}
			cur.WriteString(src[i+1 : i+1+end])
			i += end + 1
		case c == '$' && i+1 < len(src) && src[i+1] == '\'':
			begin(i)
			j, err := ansiC(src, i+2, &cur)
			if err != nil {
				return nil, err
			}
			i = j
		case c == '"':
			begin(i)
			j := i + 1
			for ; j < len(src) && src[j] != '"'; j++ {
				if src[j] == '\\' && j+1 < len(src) && strings.IndexByte("\"\\$`\n", src[j+1]) >= 0 {
					j++
					if src[j] == '\n' {
						continue
					}
				}
				cur.WriteByte(src[j])
			}
			if j >= len(src) {
				return nil, &wordError{offset: i, msg: "a double quote is not closed"}
			}
			i = j
		case c == ' ' || c == '\t' || c == '\r':
			flush()
		case c == '\n' || c == ';' || c == '|' || c == '&':
			flush()
			if c == '&' && i+1 < len(src) && src[i+1] == '&' || c == '|' && i+1 < len(src) && src[i+1] == '|' {
				i++
			}
			out = append(out, word{offset: i, sep: true})
		case c == '#' && !in:
			i = skipLine(src, i) - 1 // a comment, up to the newline
		default:
			begin(i)
			cur.WriteByte(c)
		}
	}
	flush()
	return out, nil
}

func restOfLineEmpty(s string) bool {
	line, _, _ := strings.Cut(s, "\n")
	return strings.TrimSpace(line) == ""
}

// skipLine returns the index after the newline that ends the line at i.
func skipLine(src string, i int) int {
	j := strings.IndexByte(src[i:], '\n')
	if j < 0 {
		return len(src)
	}
	return i + j + 1
}

// ansiC reads a $'…' string from src[i:] into b and returns the index of
// its closing quote.
func ansiC(src string, i int, b *strings.Builder) (int, error) {
	for ; i < len(src); i++ {
		c := src[i]
		if c == '\'' {
			return i, nil
		}
		if c != '\\' || i+1 >= len(src) {
			b.WriteByte(c)
			continue
		}
		i++
		switch src[i] {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		default:
			b.WriteByte(src[i])
		}
	}
	return 0, &wordError{offset: i, msg: "a $' quote is not closed"}
}

// A wordError is a problem at a byte offset of a command.
type wordError struct {
	offset int
	msg    string
}

func (e *wordError) Error() string { return fmt.Sprintf("offset %d: %s", e.offset, e.msg) }
