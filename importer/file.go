package importer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/goccy/go-yaml"
)

// A File is an imported scenario file.
type File struct {
	// Header is the comment at the top: where the file came from, what
	// was left out, what to change.
	Header []string
	// Target is the base URL that request URLs starting with / are
	// relative to; empty if every URL is absolute.
	Target    string
	Vars      yaml.MapSlice // variables, in order
	Scenarios []Scenario
}

// A Scenario is one journey of the file: a flow of steps, or tasks of
// weight 1 each.
type Scenario struct {
	Name  string
	Flow  []Step
	Tasks []Step
}

// A Step is a request, a pause, or a named group of steps.
type Step struct {
	Name    string
	Method  string
	URL     string
	Query   yaml.MapSlice // values are templates
	Headers yaml.MapSlice
	JSON    any // a tree of yaml.MapSlice, []any and scalars; nil for none
	Form    yaml.MapSlice
	Body    *string
	Status  []int         // expected statuses; empty for the default (below 400)
	Capture yaml.MapSlice // variable: expression

	Sleep string // a pause, such as 1.2s

	Steps []Step // a group
}

// importLoad is the load of every imported scenario: each journey once,
// by one user, so that the file runs as is; the header says how to raise it.
var importLoad = yaml.MapSlice{{Key: "iterations", Value: 1}, {Key: "users", Value: 1}}

// YAML returns the scenario file.
func (f *File) YAML() []byte {
	var b bytes.Buffer
	for _, h := range f.Header {
		for _, line := range strings.Split(h, "\n") {
			b.WriteString(strings.TrimRight("# "+line, " ") + "\n")
		}
	}
	b.WriteString("# Each scenario runs once, by one user; for a load test, replace its load,\n")
	b.WriteString("# for example with load: {users: 50, ramp: 30s, duration: 5m}.\n")
	doc := yaml.MapSlice{}
	if f.Target != "" {
		doc = append(doc, yaml.MapItem{Key: "target", Value: f.Target})
	}
	if len(f.Vars) > 0 {
		doc = append(doc, yaml.MapItem{Key: "vars", Value: f.Vars})
	}
	scs := yaml.MapSlice{}
	for _, sc := range f.Scenarios {
		m := yaml.MapSlice{{Key: "load", Value: importLoad}}
		if len(sc.Tasks) > 0 {
			m = append(m, yaml.MapItem{Key: "tasks", Value: steps(sc.Tasks)})
		} else {
			m = append(m, yaml.MapItem{Key: "flow", Value: steps(sc.Flow)})
		}
		scs = append(scs, yaml.MapItem{Key: sc.Name, Value: m})
	}
	doc = append(doc, yaml.MapItem{Key: "scenarios", Value: scs})
	out, err := yaml.MarshalWithOptions(doc, yaml.IndentSequence(true), yaml.CustomMarshaler[string](quoteOdd))
	if err != nil { // the document holds only maps, lists and scalars
		panic(fmt.Sprintf("importer: encode the scenario file: %v", err))
	}
	b.Write(out)
	return b.Bytes()
}

// quoteOdd writes a string with control characters, invalid UTF-8 or
// spaces at an end as a double-quoted scalar, which keeps it exactly; the
// encoder would write some of them plain, and they would read back
// differently.
func quoteOdd(s string) ([]byte, error) {
	odd := !utf8.ValidString(s) || strings.TrimSpace(s) != s
	for _, r := range s {
		if r < 0x20 && r != '\n' || r == 0x7f || r == 0xfeff {
			odd = true
		}
	}
	if odd {
		return json.Marshal(strings.ToValidUTF8(s, "\uFFFD"))
	}
	return yaml.Marshal(s)
}

func steps(ss []Step) []any {
	out := make([]any, 0, len(ss))
	for _, s := range ss {
		out = append(out, s.yaml())
	}
	return out
}

var methodKeys = map[string]string{"GET": "get", "POST": "post", "PUT": "put", "PATCH": "patch", "DELETE": "delete", "HEAD": "head", "OPTIONS": "options"}

func (s Step) yaml() yaml.MapSlice {
	m := yaml.MapSlice{}
	add := func(k string, v any) { m = append(m, yaml.MapItem{Key: k, Value: v}) }
	if s.Name != "" {
		add("name", s.Name)
	}
	switch {
	case s.Sleep != "":
		add("sleep", s.Sleep)
		return m
	case s.Steps != nil:
		add("steps", steps(s.Steps))
		return m
	}
	if k, ok := methodKeys[s.Method]; ok {
		add(k, s.URL)
	} else {
		add("method", s.Method)
		add("url", s.URL)
	}
	if len(s.Query) > 0 {
		add("query", s.Query)
	}
	if len(s.Headers) > 0 {
		add("headers", s.Headers)
	}
	switch {
	case s.JSON != nil:
		add("json", s.JSON)
	case len(s.Form) > 0:
		add("form", s.Form)
	case s.Body != nil:
		add("body", *s.Body)
	}
	if len(s.Status) == 1 {
		add("expect", yaml.MapSlice{{Key: "status", Value: s.Status[0]}})
	} else if len(s.Status) > 1 {
		add("expect", yaml.MapSlice{{Key: "status", Value: s.Status}})
	}
	if len(s.Capture) > 0 {
		add("capture", s.Capture)
	}
	return m
}

// literal escapes text so that a template reads it as it is: surge would
// take {{ in it for the start of an expression, and a { at its end would
// make one with a template that follows it.
func literal(s string) string {
	s = strings.ReplaceAll(s, "{{", `{{ "{{" }}`)
	if t, ok := strings.CutSuffix(s, "{"); ok {
		s = t + `{{ "{" }}`
	}
	return s
}

// literalTree applies literal to every string of a decoded JSON value,
// keys too, turning objects into ordered maps with sorted keys.
func literalTree(v any) any {
	return mapTree(v, func(v any) any {
		if s, ok := v.(string); ok {
			return literal(s)
		}
		return v
	})
}

// mapTree rebuilds a JSON tree for a scenario file: lists item by item,
// objects as mappings in the order of their keys (written literally), and
// every other value as leaf returns it.
func mapTree(v any, leaf func(any) any) any {
	switch x := v.(type) {
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = mapTree(e, leaf)
		}
		return out
	case map[string]any:
		out := yaml.MapSlice{}
		for _, k := range sortedKeys(x) {
			out = append(out, yaml.MapItem{Key: literal(k), Value: mapTree(x[k], leaf)})
		}
		return out
	}
	return leaf(v)
}

// splitTarget returns the scheme and host of an absolute URL, and the rest.
func splitTarget(raw string) (origin, rest string, ok bool) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", "", false
	}
	origin = u.Scheme + "://" + u.Host
	rest = strings.TrimPrefix(raw, origin)
	if !strings.HasPrefix(rest, "/") {
		rest = "/" + rest
	}
	return origin, rest, true
}
