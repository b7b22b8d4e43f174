package expr

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/expr-lang/expr/types"
)

// list is a Collection, as a pool is.
type list struct {
	name  string
	items []any
}

func (l list) Name() string { return l.name }
func (l list) Kind() string { return "pool" }
func (l list) Len() int     { return len(l.items) }
func (l list) Draw(r *rand.Rand) (any, bool) {
	if len(l.items) == 0 {
		return nil, false
	}
	return l.items[r.IntN(len(l.items))], true
}

func testScope() *Scope {
	return &Scope{Types: types.Map{"id": types.Any, "name": types.Any, "n": types.Any, "folders": types.TypeOf(list{}), NameUser: types.Int, NameIter: types.Int}}
}

func TestTemplates(t *testing.T) {
	f := NewFuncs(nil)
	e := &Evaluator{Env: map[string]any{"id": 42, "name": "a b/c", "n": 2.5, "folders": list{"folders", []any{7}}, RandVar: NewRand(1, 0, 0)}}
	cases := []struct{ src, want string }{
		{"plain", "plain"},
		{"/f/{{ id }}", "/f/42"},
		{"{{ n }}-{{ n * 2 }}", "2.5-5"},
		{"{{ pick(folders) }}", "7"},
		{`{{ "}" }}`, "}"},
		{"{{ [1, 2] }}", "[1,2]"},
	}
	for _, c := range cases {
		tp, err := f.CompileTemplate(c.src, testScope())
		if err != nil {
			t.Fatalf("%q: %v", c.src, err)
		}
		var buf []byte
		if got, err := tp.String(e, &buf); err != nil || got != c.want {
			t.Errorf("%q: got %q, %v; want %q", c.src, got, err, c.want)
		}
	}
	// URLs escape values for the part they land in.
	u, err := f.CompileURL("http://h/f/{{ name }}?q={{ name }}", testScope())
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := u.Render(nil, e); string(got) != "http://h/f/a%20b%2Fc?q=a+b%2Fc" {
		t.Errorf("url %q", got)
	}
	for src, msg := range map[string]string{"{{ id": "not closed", "{{ }}": "empty", "{{ nope }}": "nope is not defined", "{{ id + }}": "unexpected"} {
		if _, err := f.CompileTemplate(src, testScope()); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%q: error %v, want %q", src, err, msg)
		}
	}
}

// A string that is one template keeps its value's type in a JSON body.
func TestJSONBody(t *testing.T) {
	f := NewFuncs(nil)
	body := map[string]any{
		"id":    "{{ id }}",
		"label": "#{{ id }}",
		"n":     "{{ n }}",
		"list":  []any{"{{ name }}", 1, true, nil},
		"fixed": map[string]any{"a": "x\"y"},
	}
	n := f.CompileJSON(body, testScope(), "json", func(p string, err error) { t.Fatalf("%s: %v", p, err) })
	e := &Evaluator{Env: map[string]any{"id": 42, "name": "a", "n": 2.5}}
	got, err := n.AppendTo(nil, e)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"fixed":{"a":"x\"y"},"id":42,"label":"#42","list":["a",1,true,null],"n":2.5}`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if _, ok := f.CompileJSON(map[string]any{"a": []any{1}}, testScope(), "json", nil).(jsonRaw); !ok {
		t.Error("a body without templates is not encoded once")
	}
}

func TestFunctions(t *testing.T) {
	f := NewFuncs(map[string]string{"NAME": "v"})
	e := &Evaluator{Env: map[string]any{RandVar: NewRand(1, 0, 0)}}
	for src, check := range map[string]func(any) bool{
		`env("NAME")`:                  func(v any) bool { return v == "v" },
		`env("NOPE_X", "d")`:           func(v any) bool { return v == "d" },
		`randInt(3, 3)`:                func(v any) bool { return v == 3 },
		`randFloat(1, 2)`:              func(v any) bool { x := v.(float64); return x >= 1 && x < 2 },
		`len(uuid())`:                  func(v any) bool { return v == 36 },
		`seq() < seq()`:                func(v any) bool { return v == true },
		`regex("id=42;", "id=(\\d+)")`: func(v any) bool { return v == "42" },
		`regex("x", "y")`:              func(v any) bool { return v == nil },
		`now().Year() > 2000`:          func(v any) bool { return v == true },
		`len("héllo")`:                 func(v any) bool { return v == 5 },
	} {
		x, err := f.Compile(src, &Scope{Types: types.Map{}})
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		if v, err := e.Eval(x); err != nil || !check(v) {
			t.Errorf("%s = %v, %v", src, v, err)
		}
	}
}

// A number literal that does not parse is named with a fix, without the
// internals of strconv that expr quotes ("strconv.ParseFloat: parsing …").
func TestBadNumberLiteralsSayWhatIsWrong(t *testing.T) {
	f := NewFuncs(nil)
	for src, want := range map[string]string{
		"{{ 1e }}":                   "1e is not a number",
		"{{ 0x }}":                   "0x is not a number",
		"{{ 99999999999999999999 }}": "the number 99999999999999999999 is out of range",
		"{{ 1.5e999 }}":              "the number 1.5e999 is out of range",
		"{{ id > 1e }}":              "1e is not a number",
	} {
		_, err := f.CompileTemplate(src, testScope())
		var e *Error
		if !errors.As(err, &e) || !strings.Contains(e.Msg, want) || e.Fix == "" {
			t.Errorf("%q: error %#v, want %q with a fix", src, err, want)
		}
		if err != nil && (strings.Contains(err.Error(), "strconv") || e != nil && strings.Contains(e.Fix, "strconv")) {
			t.Errorf("%q: the error quotes strconv: %v", src, err)
		}
	}
}
