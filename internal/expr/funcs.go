package expr

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"reflect"
	"regexp"
	"strconv"
	"sync/atomic"
	"unicode/utf8"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"
)

// functionNames are the functions surge adds to the expression language;
// now and the other builtins of expr-lang come with it.
var functionNames = []string{"pick", "len", "randInt", "randFloat", "uuid", "seq", "env", "regex",
	"normal", "lognormal", "exponential", "zipf", "pickw"}

// funcs are the functions of one plan's expressions, with the state they
// share: the seq counter, the environment values and the compiled regular
// expressions.
type Funcs struct {
	options []expr.Option
	seq     atomic.Int64
	env     map[string]string // --env values, before the process environment
	regexps regexCache        // filled while compiling, read-only after
}

func NewFuncs(env map[string]string) *Funcs {
	f := &Funcs{env: env, regexps: regexCache{}}
	f.options = []expr.Option{
		expr.DisableBuiltin("len"),
		expr.Function("len", fnLen, new(func(any) int)),
		expr.Function("pick", fnPick, new(func(*rand.Rand, any) any)),
		expr.Function("randInt", fnRandInt, new(func(*rand.Rand, int, int) int)),
		expr.Function("randFloat", fnRandFloat, new(func(*rand.Rand, float64, float64) float64)),
		expr.Function("uuid", fnUUID, new(func(*rand.Rand) string)),
		expr.Function("normal", fnNormal, new(func(*rand.Rand, float64, float64) float64)),
		expr.Function("lognormal", fnLognormal, new(func(*rand.Rand, float64, float64) float64)),
		expr.Function("exponential", fnExponential, new(func(*rand.Rand, float64) float64)),
		expr.Function("zipf", fnZipf, new(func(*rand.Rand, int, float64) int)),
		expr.Function("pickw", fnPickw, new(func(*rand.Rand, any, any) any)),
		expr.Function("seq", func(...any) (any, error) { return int(f.seq.Add(1)), nil }, new(func() int)),
		expr.Function("env", f.fnEnv, new(func(string) string), new(func(string, string) string)),
		expr.Function("regex", f.fnRegex, new(func(string, string) any)),
	}
	return f
}

// lookupEnv returns an environment value: from the plan's options first,
// then from the process environment.
func (f *Funcs) LookupEnv(name string) (string, bool) {
	if v, ok := f.env[name]; ok {
		return v, true
	}
	return os.LookupEnv(name)
}

// checkCall checks, while compiling, the calls whose arguments must be
// constants: regex patterns, compiled once here, and env names, which must
// be set unless a default is given.
func (f *Funcs) checkCall(src string, call *ast.CallNode) *Error {
	id, ok := call.Callee.(*ast.IdentifierNode)
	if !ok {
		return nil
	}
	at := func(n ast.Node) int { return byteOffset(src, n.Location().From) }
	if p := checkRandomCall(id.Value, call, at); p != nil {
		return p
	}
	switch id.Value {
	case "regex":
		if len(call.Arguments) != 2 {
			return nil // the checker reports it
		}
		s, ok := call.Arguments[1].(*ast.StringNode)
		if !ok {
			return &Error{Offset: at(call.Arguments[1]), Msg: "the pattern of regex must be a constant string",
				Fix: "write it in quotes, as in regex(body, `id=(\\d+)`)"}
		}
		re, err := regexp.Compile(s.Value)
		if err != nil {
			return &Error{Offset: at(call.Arguments[1]), Msg: fmt.Sprintf("bad regular expression: %v", err),
				Fix: "see https://pkg.go.dev/regexp/syntax"}
		}
		f.regexps[s.Value] = re
	case "env":
		if len(call.Arguments) != 1 {
			return nil
		}
		s, ok := call.Arguments[0].(*ast.StringNode)
		if !ok {
			return nil
		}
		if _, set := f.LookupEnv(s.Value); !set {
			return &Error{Offset: at(call.Arguments[0]), Msg: fmt.Sprintf("environment value %s is not set", s.Value),
				Fix: fmt.Sprintf("pass --env %s=VALUE, set it in the environment, or give a default: env(%q, \"default\")", s.Value, s.Value)}
		}
	}
	return nil
}

func (f *Funcs) fnEnv(args ...any) (any, error) {
	name, _ := args[0].(string)
	if v, ok := f.LookupEnv(name); ok {
		return v, nil
	}
	if len(args) > 1 {
		return args[1], nil
	}
	return nil, fmt.Errorf("environment value %s is not set", name)
}

// fnRegex returns the first submatch of the pattern in s, or the whole
// match if the pattern has no group, or nil if it does not match.
func (f *Funcs) fnRegex(args ...any) (any, error) {
	s, _ := args[0].(string)
	pattern, _ := args[1].(string)
	re := f.regexps[pattern]
	if re == nil {
		return nil, fmt.Errorf("regex: pattern %q was not compiled with the plan", pattern)
	}
	m := re.FindStringSubmatch(s)
	switch {
	case m == nil:
		return nil, nil
	case len(m) > 1:
		return m[1], nil
	}
	return m[0], nil
}

func fnPick(args ...any) (any, error) {
	r, err := userRand(args)
	if err != nil {
		return nil, err
	}
	switch v := args[1].(type) {
	case Collection:
		x, ok := v.Draw(r)
		if !ok {
			return nil, fmt.Errorf("%s %s is empty", v.Kind(), v.Name())
		}
		return x, nil
	case []any:
		if len(v) == 0 {
			return nil, errors.New("pick from an empty list")
		}
		return v[r.IntN(len(v))], nil
	}
	return nil, fmt.Errorf("pick takes a pool, a data source or a list, not %s", KindOf(args[1]))
}

func fnLen(args ...any) (any, error) {
	switch v := args[0].(type) {
	case Collection:
		return v.Len(), nil
	case string:
		return utf8.RuneCountInString(v), nil
	case []any:
		return len(v), nil
	case map[string]any:
		return len(v), nil
	case nil:
		return 0, nil
	}
	rv := reflect.ValueOf(args[0])
	switch rv.Kind() {
	case reflect.Slice, reflect.Array, reflect.Map:
		return rv.Len(), nil
	}
	return nil, fmt.Errorf("len takes a pool, a data source, a list, a map or a string, not %s", KindOf(args[0]))
}

func fnRandInt(args ...any) (any, error) {
	r, err := userRand(args)
	if err != nil {
		return nil, err
	}
	lo, err1 := toInt(args[1])
	hi, err2 := toInt(args[2])
	if err := errors.Join(err1, err2); err != nil {
		return nil, fmt.Errorf("randInt: %w", err)
	}
	if hi < lo {
		return nil, fmt.Errorf("randInt(%d, %d): the upper bound is below the lower", lo, hi)
	}
	span := uint64(hi-lo) + 1
	if span == 0 { // the whole int range
		return int(r.Uint64()), nil
	}
	return lo + int(r.Uint64N(span)), nil
}

func fnRandFloat(args ...any) (any, error) {
	r, err := userRand(args)
	if err != nil {
		return nil, err
	}
	lo, ok1 := Number(args[1])
	hi, ok2 := Number(args[2])
	if !ok1 || !ok2 || math.IsNaN(lo) || math.IsNaN(hi) || hi < lo {
		return nil, fmt.Errorf("randFloat(%v, %v): want two numbers, the first not above the second", args[1], args[2])
	}
	return lo + r.Float64()*(hi-lo), nil
}

// fnUUID returns a random (version 4) UUID.
func fnUUID(args ...any) (any, error) {
	r, err := userRand(args)
	if err != nil {
		return nil, err
	}
	var b [16]byte
	a, c := r.Uint64(), r.Uint64()
	for i := range 8 {
		b[i], b[8+i] = byte(a>>(8*i)), byte(c>>(8*i))
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	const hex = "0123456789abcdef"
	out := make([]byte, 0, 36)
	for i, x := range b {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			out = append(out, '-')
		}
		out = append(out, hex[x>>4], hex[x&0xf])
	}
	return string(out), nil
}

// toInt converts a number or a numeric string to an int.
func toInt(v any) (int, error) {
	switch n := v.(type) {
	case int:
		return n, nil
	case int64:
		return int(n), nil
	case float64:
		if n != math.Trunc(n) || math.Abs(n) > 1<<62 {
			return 0, fmt.Errorf("%v is not an integer", n)
		}
		return int(n), nil
	case string:
		i, err := strconv.Atoi(n)
		if err != nil {
			return 0, fmt.Errorf("%q is not an integer", n)
		}
		return i, nil
	}
	return 0, fmt.Errorf("%v (%s) is not an integer", v, KindOf(v))
}
