package expr

import (
	"fmt"
	"slices"
	"strconv"
)

// A jsonNode is a compiled JSON body template: a tree whose constant
// subtrees are encoded once, when the plan is compiled.
type JSONNode interface {
	AppendTo(b []byte, e *Evaluator) ([]byte, error)
}

// jsonRaw is a constant subtree, already encoded.
type jsonRaw []byte

func (n jsonRaw) AppendTo(b []byte, _ *Evaluator) ([]byte, error) { return append(b, n...), nil }

// jsonValue is a string that is one template and nothing else: its value
// keeps its type.
type jsonValue struct{ x *Expression }

func (n jsonValue) AppendTo(b []byte, e *Evaluator) ([]byte, error) {
	v, err := e.Eval(n.x)
	if err != nil {
		return b, err
	}
	out, err := AppendJSON(b, v)
	if err != nil {
		return b, fmt.Errorf("{{ %s }}: %w", n.x.Src, err)
	}
	return out, nil
}

// jsonString is a string with templates in text: it stays a string.
type jsonString struct{ t *Template }

func (n jsonString) AppendTo(b []byte, e *Evaluator) ([]byte, error) {
	var tmp [64]byte
	s, err := n.t.Render(tmp[:0], e)
	if err != nil {
		return b, err
	}
	return AppendJSONString(b, string(s)), nil
}

// jsonObject is an object with at least one template inside; keys are
// sorted and encoded once.
type jsonObject struct {
	keys []string // encoded, with the colon
	vals []JSONNode
}

func (n *jsonObject) AppendTo(b []byte, e *Evaluator) ([]byte, error) {
	b = append(b, '{')
	var err error
	for i, k := range n.keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, k...)
		if b, err = n.vals[i].AppendTo(b, e); err != nil {
			return b, err
		}
	}
	return append(b, '}'), nil
}

// jsonArray is an array with at least one template inside.
type jsonArray []JSONNode

func (n jsonArray) AppendTo(b []byte, e *Evaluator) ([]byte, error) {
	b = append(b, '[')
	var err error
	for i, v := range n {
		if i > 0 {
			b = append(b, ',')
		}
		if b, err = v.AppendTo(b, e); err != nil {
			return b, err
		}
	}
	return append(b, ']'), nil
}

// compileJSON compiles the body tree v. path names v for errors, and
// report records one.
func (f *Funcs) CompileJSON(v any, sc *Scope, path string, report func(path string, err error)) JSONNode {
	switch x := v.(type) {
	case string:
		t, err := f.CompileTemplate(x, sc)
		if err != nil {
			report(path, err)
			return jsonRaw("null")
		}
		if s, ok := t.Constant(); ok {
			return jsonRaw(AppendJSONString(nil, s))
		}
		if t.Whole != nil {
			return jsonValue{t.Whole}
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
			n := f.CompileJSON(x[k], sc, path+"."+k, report)
			_, raw := n.(jsonRaw)
			constant = constant && raw
			obj.keys = append(obj.keys, string(append(AppendJSONString(nil, k), ':')))
			obj.vals = append(obj.vals, n)
		}
		if constant {
			b, _ := obj.AppendTo(nil, nil)
			return jsonRaw(b)
		}
		return obj
	case []any:
		arr := make(jsonArray, len(x))
		constant := true
		for i, e := range x {
			arr[i] = f.CompileJSON(e, sc, path+"["+strconv.Itoa(i)+"]", report)
			_, raw := arr[i].(jsonRaw)
			constant = constant && raw
		}
		if constant {
			b, _ := arr.AppendTo(nil, nil)
			return jsonRaw(b)
		}
		return arr
	}
	b, err := AppendJSON(nil, v)
	if err != nil {
		report(path, fmt.Errorf("cannot be written as JSON: %w", err))
		return jsonRaw("null")
	}
	return jsonRaw(b)
}
