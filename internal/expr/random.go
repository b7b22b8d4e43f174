package expr

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/expr-lang/expr/ast"
)

// Every random draw of a run comes from a generator of the virtual user
// making it, seeded from the run's seed (Options.Seed) and the user, so
// that a run with the same seed draws the same values. Expressions reach
// it through a hidden first argument: the calls of randomFuncs are
// rewritten when compiled, pick(x) into pick($rng, x).

// rngName is the variable holding the user's generator. No expression can
// name it: identifiers cannot start with $.
const RandVar = "$rng"

var rngType = typeOf((*rand.Rand)(nil))

// randomFuncs are the functions that draw random values, with the numbers
// of arguments they take as written, and how to call them.
var randomFuncs = map[string]struct {
	args  []int
	usage string
}{
	"pick":        {[]int{1}, "pick(pool)"},
	"randInt":     {[]int{2}, "randInt(low, high)"},
	"randFloat":   {[]int{2}, "randFloat(low, high)"},
	"uuid":        {[]int{0}, "uuid()"},
	"normal":      {[]int{2}, "normal(mean, sd)"},
	"lognormal":   {[]int{2}, "lognormal(mu, sigma), the mean and sd of the logarithm"},
	"exponential": {[]int{1}, "exponential(mean)"},
	"zipf":        {[]int{2}, "zipf(n, s), a rank from 1 to n"},
	"pickw":       {[]int{2}, "pickw(list, weights)"},
}

// newRand returns the generator of user id of scenario sc (-1 for the
// setup and for values compiled with the plan) in a run seeded with seed.
func NewRand(seed uint64, sc, id int) *rand.Rand {
	return rand.New(rand.NewPCG(seed, uint64(sc)<<32^uint64(uint32(id))))
}

// rngArg adds the user's generator as the first argument of the calls of
// randomFuncs.
type rngArg struct{}

func (rngArg) Visit(node *ast.Node) {
	c, ok := (*node).(*ast.CallNode)
	if !ok {
		return
	}
	id, ok := c.Callee.(*ast.IdentifierNode)
	if !ok {
		return
	}
	if _, ok := randomFuncs[id.Value]; !ok {
		return
	}
	if len(c.Arguments) > 0 {
		if a, ok := c.Arguments[0].(*ast.IdentifierNode); ok && a.Value == RandVar {
			return // patched already
		}
	}
	c.Arguments = append([]ast.Node{&ast.IdentifierNode{Value: RandVar}}, c.Arguments...)
}

// checkRandomCall checks the number of arguments of a call of randomFuncs
// as written, so that the hidden argument never shows in a message.
func checkRandomCall(name string, call *ast.CallNode, at func(ast.Node) int) *Error {
	f, ok := randomFuncs[name]
	if !ok {
		return nil
	}
	for _, n := range f.args {
		if len(call.Arguments) == n {
			return nil
		}
	}
	return &Error{Offset: at(call), Msg: fmt.Sprintf("%s takes %d argument(s), not %d", name, f.args[0], len(call.Arguments)),
		Fix: "call it as " + f.usage}
}

// userRand returns the generator passed as a hidden first argument.
func userRand(args []any) (*rand.Rand, error) {
	if len(args) > 0 {
		if r, ok := args[0].(*rand.Rand); ok && r != nil {
			return r, nil
		}
	}
	return nil, errors.New("no random generator: the expression was not compiled by surge")
}

// floats returns the numbers args[from:], for the function name.
func floats(name string, args []any, from int) ([]float64, error) {
	out := make([]float64, 0, len(args)-from)
	for _, a := range args[from:] {
		x, ok := Number(a)
		if !ok || math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, fmt.Errorf("%s: %v (%s) is not a finite number", name, a, KindOf(a))
		}
		out = append(out, x)
	}
	return out, nil
}

// fnNormal draws from the normal distribution normal(mean, sd).
func fnNormal(args ...any) (any, error) {
	r, err := userRand(args)
	if err != nil {
		return nil, err
	}
	p, err := floats("normal", args, 1)
	if err != nil {
		return nil, err
	}
	if p[1] < 0 {
		return nil, fmt.Errorf("normal(%v, %v): the standard deviation is negative", p[0], p[1])
	}
	return p[0] + r.NormFloat64()*p[1], nil
}

// fnLognormal draws exp(X), X from the normal distribution with mean mu
// and standard deviation sigma.
func fnLognormal(args ...any) (any, error) {
	r, err := userRand(args)
	if err != nil {
		return nil, err
	}
	p, err := floats("lognormal", args, 1)
	if err != nil {
		return nil, err
	}
	if p[1] < 0 {
		return nil, fmt.Errorf("lognormal(%v, %v): sigma is negative", p[0], p[1])
	}
	return math.Exp(p[0] + r.NormFloat64()*p[1]), nil
}

// fnExponential draws from the exponential distribution of the mean.
func fnExponential(args ...any) (any, error) {
	r, err := userRand(args)
	if err != nil {
		return nil, err
	}
	p, err := floats("exponential", args, 1)
	if err != nil {
		return nil, err
	}
	if p[0] <= 0 {
		return nil, fmt.Errorf("exponential(%v): the mean must be positive", p[0])
	}
	return r.ExpFloat64() * p[0], nil
}

// fnZipf draws a rank k from 1 to n with probability proportional to
// 1/k^s, for any s > 0.
func fnZipf(args ...any) (any, error) {
	r, err := userRand(args)
	if err != nil {
		return nil, err
	}
	n, err := toInt(args[1])
	if err != nil {
		return nil, fmt.Errorf("zipf: n: %w", err)
	}
	p, err := floats("zipf", args, 2)
	if err != nil {
		return nil, err
	}
	if n < 1 || p[0] <= 0 {
		return nil, fmt.Errorf("zipf(%d, %v): want n of 1 or more and s above 0", n, p[0])
	}
	return zipfRank(r, n, p[0]), nil
}

// fnPickw picks an item of list with probability proportional to its
// weight, the item of the same index in weights.
func fnPickw(args ...any) (any, error) {
	r, err := userRand(args)
	if err != nil {
		return nil, err
	}
	list, ok1 := args[1].([]any)
	ws, ok2 := args[2].([]any)
	if !ok1 || !ok2 {
		return nil, fmt.Errorf("pickw takes a list and a list of weights, not %s and %s", KindOf(args[1]), KindOf(args[2]))
	}
	if len(list) == 0 || len(list) != len(ws) {
		return nil, fmt.Errorf("pickw: %d items and %d weights; give one weight per item, and at least one item", len(list), len(ws))
	}
	w, err := floats("pickw", ws, 0)
	if err != nil {
		return nil, err
	}
	total := 0.0
	for _, x := range w {
		if x < 0 {
			return nil, fmt.Errorf("pickw: weight %v is negative", x)
		}
		total += x
	}
	if total <= 0 {
		return nil, errors.New("pickw: the weights add up to 0")
	}
	x := r.Float64() * total
	for i, wi := range w {
		if x < wi {
			return list[i], nil
		}
		x -= wi
	}
	for i := len(w) - 1; ; i-- { // rounding left x at the end: the last item with weight
		if w[i] > 0 {
			return list[i], nil
		}
	}
}

// zipfRank draws a rank from 1 to n with P(k) proportional to k^-s, by
// rejection-inversion (Hörmann and Derflinger, 1996): constant time and
// memory for any n, and any s > 0, unlike math/rand's Zipf (s > 1 only).
func zipfRank(r *rand.Rand, n int, s float64) int {
	h := func(x float64) float64 { return math.Exp(-s * math.Log(x)) }
	hIntegral := func(x float64) float64 {
		lx := math.Log(x)
		return helper2((1-s)*lx) * lx
	}
	hIntegralInverse := func(x float64) float64 {
		t := x * (1 - s)
		if t < -1 {
			t = -1 // numerical safety
		}
		return math.Exp(helper1(t) * x)
	}
	x1 := hIntegral(1.5) - 1
	xn := hIntegral(float64(n) + 0.5)
	cut := 2 - hIntegralInverse(hIntegral(2.5)-h(2))
	for {
		u := xn + r.Float64()*(x1-xn)
		x := hIntegralInverse(u)
		k := int(x + 0.5)
		if k < 1 {
			k = 1
		} else if k > n {
			k = n
		}
		if float64(k)-x <= cut || u >= hIntegral(float64(k)+0.5)-h(float64(k)) {
			return k
		}
	}
}

// helper1 is log1p(x)/x, continuous at 0.
func helper1(x float64) float64 {
	if math.Abs(x) > 1e-8 {
		return math.Log1p(x) / x
	}
	return 1 - x*(0.5-x*(1.0/3-0.25*x))
}

// helper2 is expm1(x)/x, continuous at 0.
func helper2(x float64) float64 {
	if math.Abs(x) > 1e-8 {
		return math.Expm1(x) / x
	}
	return 1 + x*0.5*(1+x*(1.0/3)*(1+0.25*x))
}
