package expr

import (
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/expr-lang/expr/vm"
)

// A template is a string with expressions in double braces, such as
// "/folders/{{ pick(folders) }}?size=10". It is split once, when the plan
// is compiled, into literal text and compiled expressions, so rendering it
// only runs the expressions and appends.
type Template struct {
	Src   string
	parts []part
	// whole is set when the template is one expression and nothing else:
	// its value keeps its type where a type can be kept, in JSON.
	Whole *Expression
}

// A part of a template: literal text, or an expression whose value is
// escaped with esc, if esc is not nil.
type part struct {
	lit string
	x   *Expression
	esc func(string) string
}

// An evaluator runs expressions for one virtual user.
type Evaluator struct {
	VM  vm.VM
	Env map[string]any
}

func (e *Evaluator) Eval(x *Expression) (any, error) { return x.run(&e.VM, e.Env) }

// compileTemplate splits src and compiles its expressions in scope sc.
func (f *Funcs) CompileTemplate(src string, sc *Scope) (*Template, error) {
	t := &Template{Src: src}
	rest, off := src, 0
	for rest != "" {
		i := strings.Index(rest, "{{")
		if i < 0 {
			t.parts = append(t.parts, part{lit: rest})
			break
		}
		if i > 0 {
			t.parts = append(t.parts, part{lit: rest[:i]})
		}
		j := strings.Index(rest[i+2:], "}}")
		if j < 0 {
			return nil, &Error{Offset: off + i, Msg: "{{ is not closed", Fix: "end the expression with }}"}
		}
		code := rest[i+2 : i+2+j]
		x, err := f.Compile(strings.TrimSpace(code), sc)
		if err != nil {
			var ee *Error
			if errors.As(err, &ee) {
				lead := len(code) - len(strings.TrimLeft(code, " \t\r\n"))
				ee.Offset += off + i + 2 + lead
			}
			return nil, err
		}
		t.parts = append(t.parts, part{x: x})
		rest, off = rest[i+2+j+2:], off+i+2+j+2
	}
	if len(t.parts) == 1 && t.parts[0].x != nil {
		t.Whole = t.parts[0].x
	}
	return t, nil
}

// compileURL compiles a URL template. Expression values are escaped for
// the part of the URL they land in: path or query. An expression that
// starts the URL, as in "{{ base }}/users", is inserted as it is.
func (f *Funcs) CompileURL(src string, sc *Scope) (*Template, error) {
	t, err := f.CompileTemplate(src, sc)
	if err != nil {
		return nil, err
	}
	esc := url.PathEscape
	for i := range t.parts {
		p := &t.parts[i]
		if p.x == nil {
			if strings.ContainsAny(p.lit, "?#") {
				esc = url.QueryEscape
			}
			continue
		}
		if i > 0 {
			p.esc = esc
		}
	}
	return t, nil
}

// constant returns the template's text if it has no expressions.
func (t *Template) Constant() (string, bool) {
	var b strings.Builder
	for _, p := range t.parts {
		if p.x != nil {
			return "", false
		}
		b.WriteString(p.lit)
	}
	return b.String(), true
}

// render appends the template's text to b.
func (t *Template) Render(b []byte, e *Evaluator) ([]byte, error) {
	for _, p := range t.parts {
		if p.x == nil {
			b = append(b, p.lit...)
			continue
		}
		v, err := e.Eval(p.x)
		if err != nil {
			return b, err
		}
		if p.esc == nil {
			if b, err = appendText(b, v); err != nil {
				return b, fmt.Errorf("{{ %s }}: %w", p.x.Src, err)
			}
			continue
		}
		s, err := Text(v)
		if err != nil {
			return b, fmt.Errorf("{{ %s }}: %w", p.x.Src, err)
		}
		b = append(b, p.esc(s)...)
	}
	return b, nil
}

// String renders the template to a string.
func (t *Template) String(e *Evaluator, buf *[]byte) (string, error) {
	if s, ok := t.Constant(); ok {
		return s, nil
	}
	b, err := t.Render((*buf)[:0], e)
	*buf = b
	return string(b), err
}

// appendText appends the text form of v: strings as they are, numbers
// without exponents, times in RFC 3339, lists and maps as JSON.
func appendText(b []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return b, errors.New("the value is nil")
	case string:
		return append(b, x...), nil
	case time.Time:
		return x.AppendFormat(b, time.RFC3339Nano), nil
	case time.Duration:
		return append(b, x.String()...), nil
	case int, int64, float64, bool:
		return AppendJSON(b, x)
	case fmt.Stringer:
		return append(b, x.String()...), nil
	}
	return AppendJSON(b, v)
}

// text returns the text form of v.
func Text(v any) (string, error) {
	switch x := v.(type) {
	case string:
		return x, nil
	case int:
		return strconv.Itoa(x), nil
	}
	b, err := appendText(nil, v)
	return string(b), err
}

// Expressions returns the expressions of t, in order.
func (t *Template) Expressions() []*Expression {
	var xs []*Expression
	for _, p := range t.parts {
		if p.x != nil {
			xs = append(xs, p.x)
		}
	}
	return xs
}
