package expr

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/builtin"
	"github.com/expr-lang/expr/file"
	"github.com/expr-lang/expr/parser"
	"github.com/expr-lang/expr/types"
	"github.com/expr-lang/expr/vm"
	"github.com/surge-load/surge/internal/suggest"
)

// An expression is compiled once, when the plan is built, and run by every
// virtual user with its own variables.
type Expression struct {
	Src  string
	prog *vm.Program
	// name is set when the expression is one variable name: it is then
	// read from the variables without running the program.
	name string
	// slots are the simple JSON paths the expression reads, such as
	// "items.0.id" for json.items[0].id: they are read straight from the
	// response body (gjson) into the variables slotPrefix+path.
	Slots []string
	// uses lists the names the expression reads.
	Uses []string
}

// slotPrefix starts the names of JSON path slots. No expression can name
// one: identifiers cannot hold a dot.
const SlotPrefix = "$json."

// Response fields, known to expressions that run after a request.
const (
	NameStatus   = "status"
	NameHeaders  = "headers"
	NameJSON     = "json"
	NameBody     = "body"
	NameDuration = "duration_ms"
	NameUser     = "user"
	NameIter     = "iteration"
)

var responseNames = []string{NameStatus, NameHeaders, NameJSON, NameBody, NameDuration}

// A scope declares the names an expression may use and their types.
type Scope struct {
	Types    types.Map
	Response bool // the expression runs after a request
}

func (s *Scope) Names() []string {
	var ns []string
	for n := range s.Types {
		if !strings.HasPrefix(n, SlotPrefix) {
			ns = append(ns, n)
		}
	}
	slices.Sort(ns)
	return ns
}

// with returns a copy of s that also declares the response fields.
func (s *Scope) WithResponse() *Scope {
	t := make(types.Map, len(s.Types)+len(responseNames))
	for k, v := range s.Types {
		t[k] = v
	}
	t[NameStatus] = types.Int
	t[NameHeaders] = types.TypeOf(map[string]string(nil))
	t[NameJSON] = types.Any
	t[NameBody] = types.String
	t[NameDuration] = types.Float64
	return &Scope{Types: t, Response: true}
}

// exprError is a problem at a byte offset of an expression.
type Error struct {
	Offset   int
	Msg, Fix string
}

func (e *Error) Error() string { return e.Msg }

// compileExpr compiles src in scope sc.
func (f *Funcs) Compile(src string, sc *Scope) (*Expression, error) {
	if strings.TrimSpace(src) == "" {
		return nil, &Error{Msg: "the expression is empty", Fix: "write an expression such as len(folders) > 100"}
	}
	tree, err := parser.Parse(src)
	if err != nil {
		return nil, fromExprError(src, err, sc)
	}
	x := &Expression{Src: src}
	if sc.Response {
		ast.Walk(&tree.Node, jsonPaths{})
	}
	var problem *Error
	ast.Walk(&tree.Node, visitor(func(n *ast.Node) {
		switch n := (*n).(type) {
		case *ast.IdentifierNode:
			if strings.HasPrefix(n.Value, SlotPrefix) {
				x.Slots = append(x.Slots, n.Value[len(SlotPrefix):])
			} else if !slices.Contains(x.Uses, n.Value) {
				x.Uses = append(x.Uses, n.Value)
			}
		case *ast.CallNode:
			if p := f.checkCall(src, n); p != nil && problem == nil {
				problem = p
			}
		}
	}))
	if problem != nil {
		return nil, problem
	}
	env := make(types.Map, len(sc.Types)+len(x.Slots)+1)
	for k, v := range sc.Types {
		env[k] = v
	}
	for _, s := range x.Slots {
		env[SlotPrefix+s] = types.Any
	}
	env[RandVar] = rngType
	opts := append([]expr.Option{expr.Env(env), expr.Patch(rngArg{})}, f.options...)
	if sc.Response {
		opts = append(opts, expr.Patch(jsonPaths{}))
	}
	prog, err := compileSafely(src, opts)
	if err != nil {
		return nil, fromExprError(src, err, sc)
	}
	x.prog = prog
	if id, ok := tree.Node.(*ast.IdentifierNode); ok && !strings.HasPrefix(id.Value, SlotPrefix) {
		x.name = id.Value
	}
	return x, nil
}

// compileSafely runs expr.Compile, turning a panic of the library into an
// error: no input may crash surge.
func compileSafely(src string, opts []expr.Option) (prog *vm.Program, err error) {
	defer func() {
		if r := recover(); r != nil {
			prog, err = nil, fmt.Errorf("the expression cannot be compiled: %v", r)
		}
	}()
	return expr.Compile(src, opts...)
}

// run evaluates x with the variables env, reusing machine.
func (x *Expression) run(machine *vm.VM, env map[string]any) (any, error) {
	if x.name != "" {
		return env[x.name], nil
	}
	v, err := machine.Run(x.prog, env)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", x.Src, firstLine(err))
	}
	return v, nil
}

// firstLine drops the source excerpt expr adds to runtime errors.
func firstLine(err error) error {
	msg, _, cut := strings.Cut(err.Error(), "\n")
	if !cut {
		return err
	}
	return errors.New(msg)
}

// badLiteral matches expr's errors for a number literal that does not
// parse, which quote strconv's own message.
var badLiteral = regexp.MustCompile(`^invalid (hex|float|integer|binary|octal) literal: strconv\.\w+: parsing "(.*)": (.*)$`)

// literalError rewords expr's error for a number literal that does not
// parse (`1e`, `0x`, `99999999999999999999`) without strconv's internals.
func literalError(msg string) (text, fix string, ok bool) {
	m := badLiteral.FindStringSubmatch(msg)
	if m == nil {
		return "", "", false
	}
	lit, kind := m[2], m[1]
	if strings.Contains(m[3], "out of range") {
		if kind == "float" {
			return fmt.Sprintf("the number %s is out of range", lit), "numbers go up to about 1.8e308", true
		}
		return fmt.Sprintf("the number %s is out of range", lit), "whole numbers go up to 9223372036854775807; write a larger one with a fraction or exponent, such as 1e20", true
	}
	return fmt.Sprintf("%s is not a number", lit), "write a number such as 42, 1.5, 2e3, 0x1F, 0o17 or 0b101, or quote text as a string", true
}

// fromExprError turns an error of expr into an exprError with an offset and
// a fix.
func fromExprError(src string, err error, sc *Scope) error {
	var fe *file.Error
	if !errors.As(err, &fe) {
		return &Error{Msg: err.Error()}
	}
	e := &Error{Offset: byteOffset(src, fe.From), Msg: fe.Message}
	if msg, fix, ok := literalError(fe.Message); ok {
		e.Msg, e.Fix = msg, fix
	}
	if name, ok := strings.CutPrefix(fe.Message, "unknown name "); ok {
		e.Msg = fmt.Sprintf("%s is not defined", name)
		switch {
		case slices.Contains(responseNames, name) && !sc.Response:
			e.Fix = name + " is known only after a request: use it in expect, capture, append or remove"
		case suggest.Closest(name, append(sc.Names(), functionNames...)) != "":
			e.Fix = suggest.DidYouMean(name, append(sc.Names(), functionNames...))
		default:
			e.Fix = "define it in vars, capture it from a response, or declare it under pools or data"
		}
	}
	return e
}

// byteOffset converts expr's offsets, which count runes, to a byte offset
// in src.
func byteOffset(src string, runes int) int {
	n := 0
	for i := range src {
		if n == runes {
			return i
		}
		n++
	}
	return len(src)
}

// jsonPaths replaces simple paths into the response body, such as
// json.items[0].id, with the slot that holds their value.
type jsonPaths struct{}

func (jsonPaths) Visit(node *ast.Node) {
	m, ok := (*node).(*ast.MemberNode)
	if !ok || m.Method {
		return
	}
	base, ok := m.Node.(*ast.IdentifierNode)
	if !ok {
		return
	}
	var prefix string
	switch {
	case base.Value == NameJSON:
	case strings.HasPrefix(base.Value, SlotPrefix):
		prefix = base.Value[len(SlotPrefix):] + "."
	default:
		return
	}
	var key string
	switch p := m.Property.(type) {
	case *ast.StringNode:
		if p.Value == "" {
			return
		}
		key = escapeGJSON(p.Value)
	case *ast.IntegerNode:
		if p.Value < 0 {
			return
		}
		key = strconv.Itoa(p.Value)
	default:
		return
	}
	ast.Patch(node, &ast.IdentifierNode{Value: SlotPrefix + prefix + key})
}

// escapeGJSON escapes the characters of a key that a gjson path treats
// specially.
func escapeGJSON(key string) string {
	var b strings.Builder
	for _, r := range key {
		if strings.ContainsRune(`.*?|#@\!=<>%,:"[]{}()`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// visitor is an ast.Visitor made of a function.
type visitor func(*ast.Node)

func (v visitor) Visit(n *ast.Node) { v(n) }

// reservedNames are the names no variable, pool or data source may take:
// the response fields, the user's id and iteration, the functions, and the
// words of the expression language.
func ReservedNames() []string {
	names := append([]string{NameUser, NameIter, "true", "false", "nil", "in", "not", "and", "or",
		"matches", "contains", "startsWith", "endsWith", "let", "if", "else"}, responseNames...)
	names = append(names, functionNames...)
	for _, b := range builtin.Builtins {
		names = append(names, b.Name)
	}
	return names
}

// typeOf returns the expression type of the values of Go type v.
func typeOf(v any) types.Type { return types.TypeOf(v) }

// A Collection is a value of a scenario that pick and len take besides
// lists, maps and strings: a pool or a data source.
type Collection interface {
	Name() string
	Kind() string // for messages: "pool", "data source"
	Len() int
	// Draw returns one of its values, chosen with r as its order says; ok
	// is false if it has none.
	Draw(r *rand.Rand) (v any, ok bool)
}

// regexCache holds the patterns of regex calls, compiled with the plan.
type regexCache map[string]*regexp.Regexp

// isBool reports whether v is a boolean true; non-booleans are an error.
func IsTrue(v any) (bool, error) {
	b, ok := v.(bool)
	if !ok {
		return false, fmt.Errorf("got %v (%s), want true or false", v, KindOf(v))
	}
	return b, nil
}

// kindOf names the type of an expression value for messages.
func KindOf(v any) string {
	switch x := v.(type) {
	case nil:
		return "nil"
	case string:
		return "string"
	case int, int64, float64:
		return "number"
	case bool:
		return "bool"
	case map[string]any:
		return "map"
	case []any:
		return "list"
	case Collection:
		return x.Kind()
	}
	return reflect.TypeOf(v).String()
}

// Reserved reports whether name is taken by the scenario language (a
// response field, the user's id or iteration, a function, a word of the
// expression language), so that no variable, pool or data source may be
// called so.
func Reserved(name string) bool { return slices.Contains(ReservedNames(), name) }
