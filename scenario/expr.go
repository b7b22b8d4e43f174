package scenario

import (
	"errors"
	"fmt"
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
)

// An expression is compiled once, when the plan is built, and run by every
// virtual user with its own variables.
type expression struct {
	src  string
	prog *vm.Program
	// name is set when the expression is one variable name: it is then
	// read from the variables without running the program.
	name string
	// slots are the simple JSON paths the expression reads, such as
	// "items.0.id" for json.items[0].id: they are read straight from the
	// response body (gjson) into the variables slotPrefix+path.
	slots []string
	// uses lists the names the expression reads.
	uses []string
}

// slotPrefix starts the names of JSON path slots. No expression can name
// one: identifiers cannot hold a dot.
const slotPrefix = "$json."

// Response fields, known to expressions that run after a request.
const (
	nameStatus   = "status"
	nameHeaders  = "headers"
	nameJSON     = "json"
	nameBody     = "body"
	nameDuration = "duration_ms"
	nameUser     = "user"
	nameIter     = "iteration"
)

var responseNames = []string{nameStatus, nameHeaders, nameJSON, nameBody, nameDuration}

// A scope declares the names an expression may use and their types.
type scope struct {
	types    types.Map
	response bool // the expression runs after a request
}

func (s *scope) names() []string {
	var ns []string
	for n := range s.types {
		if !strings.HasPrefix(n, slotPrefix) {
			ns = append(ns, n)
		}
	}
	slices.Sort(ns)
	return ns
}

// with returns a copy of s that also declares the response fields.
func (s *scope) withResponse() *scope {
	t := make(types.Map, len(s.types)+len(responseNames))
	for k, v := range s.types {
		t[k] = v
	}
	t[nameStatus] = types.Int
	t[nameHeaders] = types.TypeOf(map[string]string(nil))
	t[nameJSON] = types.Any
	t[nameBody] = types.String
	t[nameDuration] = types.Float64
	return &scope{types: t, response: true}
}

// exprError is a problem at a byte offset of an expression.
type exprError struct {
	offset   int
	msg, fix string
}

func (e *exprError) Error() string { return e.msg }

// compileExpr compiles src in scope sc.
func (f *funcs) compileExpr(src string, sc *scope) (*expression, error) {
	if strings.TrimSpace(src) == "" {
		return nil, &exprError{msg: "the expression is empty", fix: "write an expression such as len(folders) > 100"}
	}
	tree, err := parser.Parse(src)
	if err != nil {
		return nil, fromExprError(src, err, sc)
	}
	x := &expression{src: src}
	if sc.response {
		ast.Walk(&tree.Node, jsonPaths{})
	}
	var problem *exprError
	ast.Walk(&tree.Node, visitor(func(n *ast.Node) {
		switch n := (*n).(type) {
		case *ast.IdentifierNode:
			if strings.HasPrefix(n.Value, slotPrefix) {
				x.slots = append(x.slots, n.Value[len(slotPrefix):])
			} else if !slices.Contains(x.uses, n.Value) {
				x.uses = append(x.uses, n.Value)
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
	env := make(types.Map, len(sc.types)+len(x.slots)+1)
	for k, v := range sc.types {
		env[k] = v
	}
	for _, s := range x.slots {
		env[slotPrefix+s] = types.Any
	}
	env[rngName] = rngType
	opts := append([]expr.Option{expr.Env(env), expr.Patch(rngArg{})}, f.options...)
	if sc.response {
		opts = append(opts, expr.Patch(jsonPaths{}))
	}
	prog, err := compileSafely(src, opts)
	if err != nil {
		return nil, fromExprError(src, err, sc)
	}
	x.prog = prog
	if id, ok := tree.Node.(*ast.IdentifierNode); ok && !strings.HasPrefix(id.Value, slotPrefix) {
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
func (x *expression) run(machine *vm.VM, env map[string]any) (any, error) {
	if x.name != "" {
		return env[x.name], nil
	}
	v, err := machine.Run(x.prog, env)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", x.src, firstLine(err))
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

// fromExprError turns an error of expr into an exprError with an offset and
// a fix.
func fromExprError(src string, err error, sc *scope) error {
	var fe *file.Error
	if !errors.As(err, &fe) {
		return &exprError{msg: err.Error()}
	}
	e := &exprError{offset: byteOffset(src, fe.From), msg: fe.Message}
	if name, ok := strings.CutPrefix(fe.Message, "unknown name "); ok {
		e.msg = fmt.Sprintf("%s is not defined", name)
		switch {
		case slices.Contains(responseNames, name) && !sc.response:
			e.fix = name + " is known only after a request: use it in expect, capture, append or remove"
		case Suggest(name, sc.names()) != "":
			e.fix = DidYouMean(name, sc.names())
		default:
			e.fix = "define it in vars, capture it from a response, or declare it under pools or data"
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
	case base.Value == nameJSON:
	case strings.HasPrefix(base.Value, slotPrefix):
		prefix = base.Value[len(slotPrefix):] + "."
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
	ast.Patch(node, &ast.IdentifierNode{Value: slotPrefix + prefix + key})
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
func reservedNames() []string {
	names := append([]string{nameUser, nameIter, "true", "false", "nil", "in", "not", "and", "or",
		"matches", "contains", "startsWith", "endsWith", "let", "if", "else"}, responseNames...)
	names = append(names, functionNames...)
	for _, b := range builtin.Builtins {
		names = append(names, b.Name)
	}
	return names
}

// typeOf returns the expression type of the values of Go type v.
func typeOf(v any) types.Type { return types.TypeOf(v) }

var (
	poolType   = typeOf((*Pool)(nil))
	sourceType = typeOf((*source)(nil))
)

// regexCache holds the patterns of regex calls, compiled with the plan.
type regexCache map[string]*regexp.Regexp

// isBool reports whether v is a boolean true; non-booleans are an error.
func isTrue(v any) (bool, error) {
	b, ok := v.(bool)
	if !ok {
		return false, fmt.Errorf("got %v (%s), want true or false", v, kindOf(v))
	}
	return b, nil
}

// kindOf names the type of an expression value for messages.
func kindOf(v any) string {
	switch v.(type) {
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
	case *Pool:
		return "pool"
	case *source:
		return "data source"
	}
	return reflect.TypeOf(v).String()
}
