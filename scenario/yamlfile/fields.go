package yamlfile

import (
	"fmt"

	"github.com/goccy/go-yaml/ast"
)

// A fieldDecoder decodes the value of one key of a mapping into the Go
// value being built, a *T.
type fieldDecoder[T any] struct {
	key    string
	decode func(d *decoder, f field, path string, out *T)
}

// A fieldTable declares each key of one kind of mapping once, with how its
// value is decoded: the keys a mapping accepts and what each sets both come
// from it.
type fieldTable[T any] struct {
	keys  []string
	byKey map[string]fieldDecoder[T]
}

// fieldsOf returns the table of decoders, whose keys come in their order
// in the messages that list them.
func fieldsOf[T any](decoders ...fieldDecoder[T]) *fieldTable[T] {
	t := &fieldTable[T]{byKey: make(map[string]fieldDecoder[T], len(decoders))}
	for _, fd := range decoders {
		if _, dup := t.byKey[fd.key]; dup {
			panic("yamlfile: key " + fd.key + " declared twice")
		}
		t.keys = append(t.keys, fd.key)
		t.byKey[fd.key] = fd
	}
	return t
}

// has reports whether the table declares key.
func (t *fieldTable[T]) has(key string) bool {
	_, ok := t.byKey[key]
	return ok
}

// decodeFields decodes fields, the keys of a mapping at path, into out,
// recording where each key is.
func (t *fieldTable[T]) decodeFields(d *decoder, fields []field, path string, out *T) {
	for _, f := range fields {
		p := join(path, f.key)
		d.recordKey(p, f.node)
		if fd, ok := t.byKey[f.key]; ok {
			fd.decode(d, f, p, out)
		}
	}
}

// decode decodes the mapping n, what in messages, into out; it reports
// whether n is a mapping.
func (t *fieldTable[T]) decode(d *decoder, n ast.Node, path, what string, out *T) bool {
	fields, ok := d.mapping(n, path, t.keys, what)
	if ok {
		t.decodeFields(d, fields, path, out)
	}
	return ok
}

// A reader is one of the decoder's ways of reading a value: str, integer,
// number, duration, boolean, pause, stringMap, object, plain, or a list
// of one of them (listOf, oneOrList).
type reader[V any] func(d *decoder, n ast.Node, path, what string) (V, bool)

// scalar declares key, whose value read reads, what in messages, into the
// field at returns.
func scalar[T, V any](key, what string, read reader[V], at func(*T) *V) fieldDecoder[T] {
	return fieldDecoder[T]{key, func(d *decoder, f field, p string, out *T) {
		*at(out), _ = read(d, f.val, p, what)
	}}
}

// custom declares key, decoded by decode.
func custom[T any](key string, decode func(d *decoder, f field, path string, out *T)) fieldDecoder[T] {
	return fieldDecoder[T]{key, decode}
}

// within lifts the decoders of a part of U, the *T that at returns, to U.
func within[T, U any](t *fieldTable[T], at func(*U) *T) []fieldDecoder[U] {
	out := make([]fieldDecoder[U], 0, len(t.keys))
	for _, k := range t.keys {
		fd := t.byKey[k]
		out = append(out, fieldDecoder[U]{k, func(d *decoder, f field, p string, u *U) { fd.decode(d, f, p, at(u)) }})
	}
	return out
}

// listOf returns a reader of a list whose items read reads, item in
// messages.
func listOf[V any](item string, read reader[V]) reader[[]V] {
	return func(d *decoder, n ast.Node, path, what string) ([]V, bool) {
		items, ok := d.list(n, path, what)
		var out []V
		for i, it := range items {
			if v, ok := read(d, it, fmt.Sprintf("%s[%d]", path, i), item); ok {
				out = append(out, v)
			}
		}
		return out, ok
	}
}

// oneOrList is listOf, but a single value, what in messages, stands for a
// list of it and is placed as item [0] too.
func oneOrList[V any](item string, read reader[V]) reader[[]V] {
	list := listOf(item, read)
	return func(d *decoder, n ast.Node, path, what string) ([]V, bool) {
		if _, isList := d.resolve(n).(*ast.SequenceNode); isList {
			return list(d, n, path, what)
		}
		v, ok := read(d, n, path, what)
		if !ok {
			return nil, false
		}
		d.pos[path+"[0]"] = d.pos[path]
		return []V{v}, true
	}
}

// object reads a plain value (value) that is set even when it is null: a
// null is then a nil map[string]any, not a nil any.
func (d *decoder) object(n ast.Node, path, _ string) (any, bool) {
	v := d.value(n, path)
	if v == nil {
		v = map[string]any(nil)
	}
	return v, true
}

// plain reads a plain value (value).
func (d *decoder) plain(n ast.Node, path, _ string) (any, bool) {
	return d.value(n, path), true
}

// mappings calls decode with the node, path and fields of each item of the
// list n, what in messages, that is a mapping with keys, item in messages;
// it reports whether n is a list.
func (d *decoder) mappings(n ast.Node, path, what string, keys []string, item string, decode func(item ast.Node, path string, fields []field)) bool {
	items, ok := d.list(n, path, what)
	for i, it := range items {
		p := fmt.Sprintf("%s[%d]", path, i)
		if fields, ok := d.mapping(it, p, keys, item); ok {
			decode(it, p, fields)
		}
	}
	return ok
}
