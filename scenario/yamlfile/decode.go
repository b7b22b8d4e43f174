package yamlfile

import (
	"fmt"
	"math"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/token"

	"github.com/surge-load/surge/internal/suggest"
	"github.com/surge-load/surge/scenario"
)

// maxDepth bounds the nesting of a file, aliases included, so that no
// input can exhaust the stack; maxValues bounds the values decoded, so that
// aliases of aliases cannot expand a small file into a huge one.
const (
	maxDepth  = 64
	maxValues = 200_000
)

// A decoder turns the nodes of a parsed file into a Spec, collecting every
// problem with its position and recording where each field is, so that
// the problems Compile finds can be placed too.
type decoder struct {
	file    string
	errs    scenario.Errors
	pos     Positions
	anchors map[string]ast.Node
	depth   int
	values  int // values decoded so far
}

// count counts one more value decoded; it reports false, once with an
// error, when there are too many.
func (d *decoder) count(n ast.Node, path string) bool {
	d.values++
	if d.values == maxValues+1 {
		d.fail(n, path, "use aliases of aliases sparingly", "the file expands to more than %d values", maxValues)
	}
	return d.values <= maxValues
}

// A field is one key of a mapping and its value.
type field struct {
	key  string
	node ast.Node // the key
	val  ast.Node
}

// fail records a problem at node n.
func (d *decoder) fail(n ast.Node, path, fix, format string, args ...any) {
	line, col := at(n)
	d.errs = append(d.errs, &scenario.Error{File: d.file, Line: line, Col: col, Path: path, Msg: fmt.Sprintf(format, args...), Fix: fix})
}

// at returns the line and column of n.
func at(n ast.Node) (line, col int) {
	if n == nil {
		return 0, 0
	}
	if mv, ok := n.(*ast.MappingValueNode); ok && mv.Key != nil {
		n = mv.Key
	}
	tk := n.GetToken()
	if tk == nil || tk.Position == nil {
		return 0, 0
	}
	return tk.Position.Line, tk.Position.Column
}

// recordKey notes that the field at path is named by the key node k.
func (d *decoder) recordKey(path string, k ast.Node) {
	line, col := at(k)
	if line == 0 {
		return
	}
	p := d.pos[path]
	p.keyLine, p.keyCol = line, col
	if p.line == 0 {
		p.line, p.col = line, col
	}
	d.pos[path] = p
}

// record notes that the value of path is node n. A mapping or a list
// named by a key keeps the key's position, which says more than where its
// first item is.
func (d *decoder) record(path string, n ast.Node) {
	line, col := at(n)
	if line == 0 {
		return
	}
	p := d.pos[path]
	switch d.resolve(n).(type) {
	case *ast.MappingNode, *ast.MappingValueNode, *ast.SequenceNode:
		if p.keyLine > 0 {
			return
		}
		if mv := firstKey(d.resolve(n)); mv != nil {
			line, col = at(mv)
		}
	}
	p.line, p.col, p.value, p.quoted = line, col, "", false
	if tk := n.GetToken(); tk != nil && !strings.Contains(tk.Value, "\n") {
		switch tk.Type {
		case token.DoubleQuoteType, token.SingleQuoteType:
			p.quoted, p.value = true, tk.Value
		case token.StringType:
			p.value = tk.Value
		}
	}
	d.pos[path] = p
}

// read records that the value of path is node n and returns the node
// that holds the value (resolve).
func (d *decoder) read(n ast.Node, path string) ast.Node {
	d.record(path, n)
	return d.resolve(n)
}

// firstKey returns the first pair of a mapping, or nil.
func firstKey(n ast.Node) ast.Node {
	switch x := n.(type) {
	case *ast.MappingNode:
		if len(x.Values) > 0 {
			return x.Values[0]
		}
	case *ast.MappingValueNode:
		return x
	}
	return nil
}

// resolve follows anchors, aliases and tags to the node that holds the
// value; nil stands for null.
func (d *decoder) resolve(n ast.Node) ast.Node {
	for range maxDepth {
		switch x := n.(type) {
		case *ast.AnchorNode:
			n = x.Value
		case *ast.TagNode:
			n = x.Value
		case *ast.AliasNode:
			name := ""
			if x.Value != nil {
				name = x.Value.GetToken().Value
			}
			target, ok := d.anchors[name]
			if !ok {
				d.fail(x, "", "define the anchor (&"+name+") before the alias", "alias *%s has no anchor", name)
				return nil
			}
			n = target
		case *ast.NullNode:
			return nil
		default:
			return n
		}
	}
	return nil
}

// collectAnchors records the anchors of the tree under n.
func (d *decoder) collectAnchors(n ast.Node, depth int) {
	if n == nil || depth > maxDepth {
		return
	}
	switch x := n.(type) {
	case *ast.AnchorNode:
		if x.Name != nil {
			d.anchors[x.Name.GetToken().Value] = x.Value
		}
		d.collectAnchors(x.Value, depth+1)
	case *ast.TagNode:
		d.collectAnchors(x.Value, depth+1)
	case *ast.MappingNode:
		for _, v := range x.Values {
			d.collectAnchors(v, depth+1)
		}
	case *ast.MappingValueNode:
		d.collectAnchors(x.Value, depth+1)
	case *ast.SequenceNode:
		for _, v := range x.Values {
			d.collectAnchors(v, depth+1)
		}
	}
}

// enter guards against nesting deeper than maxDepth; call leave after.
func (d *decoder) enter(n ast.Node, path string) bool {
	d.depth++
	if d.depth > maxDepth {
		d.fail(n, path, "flatten the file; check aliases that refer to themselves", "nested more than %d levels deep", maxDepth)
		return false
	}
	return true
}

func (d *decoder) leave() { d.depth-- }

// describe names the kind of value n holds, for messages.
func describe(n ast.Node) string {
	switch n.(type) {
	case nil:
		return "null"
	case *ast.MappingNode, *ast.MappingValueNode:
		return "a mapping"
	case *ast.SequenceNode:
		return "a list"
	case *ast.IntegerNode, *ast.FloatNode, *ast.InfinityNode, *ast.NanNode:
		return "a number"
	case *ast.BoolNode:
		return "true or false"
	}
	return "text"
}

// pairs returns the key-value pairs of the mapping n, with merge keys
// (<<: *anchor) merged in; explicit keys win.
func (d *decoder) pairs(n ast.Node, path string, depth int) ([]*ast.MappingValueNode, bool) {
	var values []*ast.MappingValueNode
	switch x := n.(type) {
	case *ast.MappingNode:
		values = x.Values
	case *ast.MappingValueNode:
		values = []*ast.MappingValueNode{x}
	default:
		return nil, false
	}
	var out []*ast.MappingValueNode
	for _, mv := range values {
		if mv.Key == nil || !mv.Key.IsMergeKey() {
			out = append(out, mv)
			continue
		}
		if depth > maxDepth {
			continue
		}
		var merged []ast.Node
		switch v := d.resolve(mv.Value).(type) {
		case *ast.SequenceNode:
			for _, e := range v.Values {
				merged = append(merged, d.resolve(e))
			}
		default:
			merged = []ast.Node{v}
		}
		for _, m := range merged {
			ps, ok := d.pairs(m, path, depth+1)
			if !ok {
				d.fail(mv, path, "merge a mapping, as in <<: *defaults", "the merge key needs a mapping, not %s", describe(m))
				continue
			}
			out = append(out, ps...)
		}
	}
	// Explicit keys, which come later in out, win over merged ones.
	seen := map[string]bool{}
	var keep []*ast.MappingValueNode
	for i := len(out) - 1; i >= 0; i-- {
		k := keyOf(out[i])
		if !seen[k] {
			seen[k] = true
			keep = append(keep, out[i])
		}
	}
	for i, j := 0, len(keep)-1; i < j; i, j = i+1, j-1 {
		keep[i], keep[j] = keep[j], keep[i]
	}
	return keep, true
}

func keyOf(mv *ast.MappingValueNode) string {
	if mv.Key == nil {
		return ""
	}
	if tk := mv.Key.GetToken(); tk != nil {
		return tk.Value
	}
	return mv.Key.String()
}

// mapping returns the fields of the mapping n, reporting keys not in
// known, with a suggestion. known nil accepts any key.
func (d *decoder) mapping(n ast.Node, path string, known []string, what string) ([]field, bool) {
	if !d.count(n, path) {
		return nil, false
	}
	orig, n := n, d.read(n, path)
	ps, ok := d.pairs(n, path, 0)
	if !ok {
		d.fail(orig, path, "write it as key: value lines or {key: value}", "%s must be a mapping, not %s", what, describe(n))
		return nil, false
	}
	var out []field
	for _, mv := range ps {
		k := keyOf(mv)
		if known != nil && !contains(known, k) {
			fix := suggest.DidYouMean(k, known)
			if fix == "" {
				fix = "the keys of " + what + " are " + strings.Join(known, ", ")
			}
			d.fail(mv.Key, join(path, k), fix, "unknown key %q in %s", k, what)
			continue
		}
		out = append(out, field{key: k, node: mv.Key, val: mv.Value})
	}
	return out, true
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// join appends key to path.
func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// list returns the items of the list n.
func (d *decoder) list(n ast.Node, path, what string) ([]ast.Node, bool) {
	if !d.count(n, path) {
		return nil, false
	}
	orig, n := n, d.read(n, path)
	seq, ok := n.(*ast.SequenceNode)
	if !ok {
		d.fail(orig, path, "write it as lines starting with - or as [a, b]", "%s must be a list, not %s", what, describe(n))
		return nil, false
	}
	return seq.Values, true
}

// str returns the text of the scalar n.
func (d *decoder) str(n ast.Node, path, what string) (string, bool) {
	orig, n := n, d.read(n, path)
	switch x := n.(type) {
	case *ast.StringNode:
		return x.Value, true
	case *ast.LiteralNode:
		if x.Value != nil {
			return x.Value.Value, true
		}
		return "", true
	case *ast.IntegerNode, *ast.FloatNode, *ast.BoolNode:
		return n.GetToken().Value, true
	}
	d.fail(orig, path, "write it as text, quoted if it has special characters", "%s must be text, not %s", what, describe(n))
	return "", false
}

// integer returns the integer n.
func (d *decoder) integer(n ast.Node, path, what string) (int, bool) {
	orig, n := n, d.read(n, path)
	if x, ok := n.(*ast.IntegerNode); ok {
		if v, fits := intOf(x); fits {
			return v, true
		}
	}
	d.fail(orig, path, "write a whole number such as 10", "%s must be a whole number, not %s", what, valueText(n))
	return 0, false
}

// intOf returns the integer x holds, and whether it fits in an int.
func intOf(x *ast.IntegerNode) (int, bool) {
	switch v := x.Value.(type) {
	case int64:
		if v >= math.MinInt && v <= math.MaxInt {
			return int(v), true
		}
	case uint64:
		if v <= math.MaxInt {
			return int(v), true
		}
	}
	return 0, false
}

// floatOf returns the integer x holds as a float64.
func floatOf(x *ast.IntegerNode) (float64, bool) {
	switch v := x.Value.(type) {
	case int64:
		return float64(v), true
	case uint64:
		return float64(v), true
	}
	return 0, false
}

// number returns the number n.
func (d *decoder) number(n ast.Node, path, what string) (float64, bool) {
	orig, n := n, d.read(n, path)
	switch x := n.(type) {
	case *ast.IntegerNode:
		if v, ok := floatOf(x); ok {
			return v, true
		}
	case *ast.FloatNode:
		return x.Value, true
	}
	d.fail(orig, path, "write a number such as 10 or 2.5", "%s must be a number, not %s", what, valueText(n))
	return 0, false
}

// duration returns the duration n, written as 30s, 1m30s or 500ms.
func (d *decoder) duration(n ast.Node, path, what string) (time.Duration, bool) {
	orig, n := n, d.read(n, path)
	if x, ok := n.(*ast.IntegerNode); ok && fmt.Sprint(x.Value) == "0" {
		return 0, true
	}
	if x, ok := n.(*ast.StringNode); ok {
		v, err := time.ParseDuration(strings.TrimSpace(x.Value))
		if err == nil {
			return v, true
		}
	}
	d.fail(orig, path, "write a duration such as 500ms, 30s, 2m or 1h30m", "%s must be a duration, not %s", what, valueText(n))
	return 0, false
}

// positiveNumber returns the number n, which must be above zero: a
// setting whose zero would mean "not given" (and so its default) is never
// written as 0 by mistake without a word.
func (d *decoder) positiveNumber(n ast.Node, path, what string) (float64, bool) {
	v, ok := d.number(n, path, what)
	if ok && !(v > 0) {
		d.fail(n, path, "give a number above zero, or leave "+what+" out for its default", "%s %v must be above zero", what, v)
		return 0, false
	}
	return v, ok
}

// positiveDuration returns the duration n, which must be above zero, as
// positiveNumber's.
func (d *decoder) positiveDuration(n ast.Node, path, what string) (time.Duration, bool) {
	v, ok := d.duration(n, path, what)
	if ok && v <= 0 {
		d.fail(n, path, "give a duration such as 30s, or leave "+what+" out for its default", "%s %v must be above zero", what, v)
		return 0, false
	}
	return v, ok
}

// pause returns a pause written as 1s or 1s..3s.
func (d *decoder) pause(n ast.Node, path, what string) (scenario.Pause, bool) {
	s, ok := d.str(n, path, what)
	if !ok {
		return scenario.Pause{}, false
	}
	p, err := scenario.ParsePause(s)
	if err != nil {
		d.fail(n, path, "write a duration such as 1s, or a range such as 1s..3s", "%s %v", what, err)
		return scenario.Pause{}, false
	}
	return p, true
}

// stringMap returns a mapping of text values.
func (d *decoder) stringMap(n ast.Node, path, what string) (map[string]string, bool) {
	fields, ok := d.mapping(n, path, nil, what)
	if !ok {
		return nil, false
	}
	out := make(map[string]string, len(fields))
	for _, f := range fields {
		p := join(path, f.key)
		d.recordKey(p, f.node)
		if v, ok := d.str(f.val, p, what+" "+f.key); ok {
			out[f.key] = v
		}
	}
	return out, true
}

// value returns n as a plain value: maps, lists, text, numbers, booleans
// and nil, recording the position of each part.
func (d *decoder) value(n ast.Node, path string) any {
	if !d.count(n, path) {
		return nil
	}
	orig, n := n, d.read(n, path)
	if !d.enter(orig, path) {
		return nil
	}
	defer d.leave()
	switch x := n.(type) {
	case nil:
		return nil
	case *ast.MappingNode, *ast.MappingValueNode:
		fields, _ := d.mapping(n, path, nil, "the value")
		m := make(map[string]any, len(fields))
		for _, f := range fields {
			m[f.key] = d.value(f.val, join(path, f.key))
		}
		return m
	case *ast.SequenceNode:
		out := make([]any, len(x.Values))
		for i, e := range x.Values {
			out[i] = d.value(e, fmt.Sprintf("%s[%d]", path, i))
		}
		return out
	case *ast.IntegerNode:
		if v, fits := intOf(x); fits {
			return v
		}
		if v, ok := floatOf(x); ok {
			return v
		}
	case *ast.FloatNode:
		return x.Value
	case *ast.BoolNode:
		return x.Value
	case *ast.StringNode:
		return x.Value
	case *ast.LiteralNode:
		if x.Value != nil {
			return x.Value.Value
		}
		return ""
	}
	d.fail(orig, path, "write text, a number, true, false, a list or a mapping", "%s cannot be a value here", valueText(n))
	return nil
}

// valueText quotes a short scalar for messages, or describes n.
func valueText(n ast.Node) string {
	switch n.(type) {
	case *ast.StringNode, *ast.IntegerNode, *ast.FloatNode, *ast.BoolNode:
		v := n.GetToken().Value
		if utf8.RuneCountInString(v) > 40 {
			v = string([]rune(v)[:40]) + "…"
		}
		return fmt.Sprintf("%q", v)
	}
	return describe(n)
}
