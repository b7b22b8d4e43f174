package scenario

import (
	"fmt"
	"slices"
	"strconv"
)

// A jsonNode is a compiled JSON body template: a tree whose constant
// subtrees are encoded once, when the plan is compiled.
type jsonNode interface {
	appendTo(b []byte, e *evaluator) ([]byte, error)
}

// jsonRaw is a constant subtree, already encoded.
type jsonRaw []byte

func (n jsonRaw) appendTo(b []byte, _ *evaluator) ([]byte, error) { return append(b, n...), nil }

// jsonValue is a string that is one template and nothing else: its value
// keeps its type.
type jsonValue struct{ x *expression }

func (n jsonValue) appendTo(b []byte, e *evaluator) ([]byte, error) {
	v, err := e.eval(n.x)
	if err != nil {
		return b, err
	}
	out, err := appendJSON(b, v)
	if err != nil {
		return b, fmt.Errorf("{{ %s }}: %w", n.x.src, err)
	}
	return out, nil
}

// jsonString is a string with templates in text: it stays a string.
type jsonString struct{ t *template }

func (n jsonString) appendTo(b []byte, e *evaluator) ([]byte, error) {
	var tmp [64]byte
	s, err := n.t.render(tmp[:0], e)
	if err != nil {
		return b, err
	}
	return appendJSONString(b, string(s)), nil
}

// jsonObject is an object with at least one template inside; keys are
// sorted and encoded once.
type jsonObject struct {
	keys []string // encoded, with the colon
	vals []jsonNode
}

func (n *jsonObject) appendTo(b []byte, e *evaluator) ([]byte, error) {
	b = append(b, '{')
	var err error
	for i, k := range n.keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, k...)
		if b, err = n.vals[i].appendTo(b, e); err != nil {
			return b, err
		}
	}
	return append(b, '}'), nil
}

// jsonArray is an array with at least one template inside.
type jsonArray []jsonNode

func (n jsonArray) appendTo(b []byte, e *evaluator) ([]byte, error) {
	b = append(b, '[')
	var err error
	for i, v := range n {
		if i > 0 {
			b = append(b, ',')
		}
		if b, err = v.appendTo(b, e); err != nil {
			return b, err
		}
	}
	return append(b, ']'), nil
}

// compileJSON compiles the body tree v. path names v for errors, and
// report records one.
func (f *funcs) compileJSON(v any, sc *scope, path string, report func(path string, err error)) jsonNode {
	switch x := v.(type) {
	case string:
		t, err := f.compileTemplate(x, sc)
		if err != nil {
			report(path, err)
			return jsonRaw("null")
		}
		if s, ok := t.constant(); ok {
			return jsonRaw(appendJSONString(nil, s))
		}
		if t.whole != nil {
			return jsonValue{t.whole}
		}
		return jsonString{t}
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		obj := &jsonObject{}
		constant := true
		for _, k := range keys {
			n := f.compileJSON(x[k], sc, path+"."+k, report)
			_, raw := n.(jsonRaw)
			constant = constant && raw
			obj.keys = append(obj.keys, string(append(appendJSONString(nil, k), ':')))
			obj.vals = append(obj.vals, n)
		}
		if constant {
			b, _ := obj.appendTo(nil, nil)
			return jsonRaw(b)
		}
		return obj
	case []any:
		arr := make(jsonArray, len(x))
		constant := true
		for i, e := range x {
			arr[i] = f.compileJSON(e, sc, path+"["+strconv.Itoa(i)+"]", report)
			_, raw := arr[i].(jsonRaw)
			constant = constant && raw
		}
		if constant {
			b, _ := arr.appendTo(nil, nil)
			return jsonRaw(b)
		}
		return arr
	}
	b, err := appendJSON(nil, v)
	if err != nil {
		report(path, fmt.Errorf("cannot be written as JSON: %w", err))
		return jsonRaw("null")
	}
	return jsonRaw(b)
}
