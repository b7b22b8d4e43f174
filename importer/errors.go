package importer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// An Error is input that cannot be imported: where it is and what is wrong.
type Error struct {
	Source string // the file name, or "curl command 2"
	Line   int    // 1-based; 0 when the place is a Path
	Col    int
	Path   string // a path into the document, as in log.entries[3].request.url
	Msg    string
	Fix    string // what to do; may be empty
}

func (e *Error) Error() string {
	var b bytes.Buffer
	b.WriteString(e.Source)
	switch {
	case e.Line > 0:
		fmt.Fprintf(&b, ":%d:%d", e.Line, e.Col)
	}
	b.WriteString(": ")
	if e.Path != "" {
		b.WriteString(e.Path + ": ")
	}
	b.WriteString(e.Msg)
	if e.Fix != "" {
		b.WriteString("; " + e.Fix)
	}
	return b.String()
}

// lineCol converts a byte offset of src to a 1-based line and column.
func lineCol(src []byte, offset int64) (line, col int) {
	if offset > int64(len(src)) {
		offset = int64(len(src))
	}
	if offset < 0 {
		offset = 0
	}
	before := src[:offset]
	line = bytes.Count(before, []byte("\n")) + 1
	col = int(offset) - (bytes.LastIndexByte(before, '\n') + 1) + 1
	return line, col
}

// decodeJSON decodes src into v, turning syntax and type errors into an
// *Error at their line and column. what names the kind of document.
func decodeJSON(source string, src []byte, v any, what string) error {
	err := json.Unmarshal(src, v)
	if err == nil {
		return nil
	}
	e := &Error{Source: source, Fix: "is it " + what + "? export it again, or fix the JSON"}
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		e.Line, e.Col = lineCol(src, se.Offset-1) // Offset is after the byte in error
		e.Msg = "broken JSON: " + se.Error()
	case errors.As(err, &te):
		e.Line, e.Col = lineCol(src, te.Offset)
		e.Path = te.Field
		e.Msg = fmt.Sprintf("must be %s, not a JSON %s", te.Type, te.Value)
		if te.Field == "" {
			e.Msg = "the document " + e.Msg
		}
	default:
		e.Msg = "broken JSON: " + err.Error()
	}
	return e
}

// jsonValue decodes one JSON value, keeping integers integers (int64), so
// that an id of 2 is written 2, not 2.0.
func jsonValue(src []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(src))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, errors.New("data after the JSON value")
	}
	return numbers(v), nil
}

func numbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return i
		}
		f, _ := x.Float64()
		return f
	case []any:
		for i := range x {
			x[i] = numbers(x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = numbers(x[k])
		}
	}
	return v
}
