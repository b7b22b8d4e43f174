package yamlfile

import (
	"fmt"
	"strings"
	"time"

	"github.com/goccy/go-yaml/ast"

	"github.com/surge-load/surge/internal/suggest"
	"github.com/surge-load/surge/protocol/httpc"
	"github.com/surge-load/surge/scenario"
)

// The keys of each mapping of a scenario file.
var (
	specFields = fieldsOf(
		scalar("target", "target", (*decoder).str, func(s *scenario.Spec) *string { return &s.Target }),
		custom("defaults", func(d *decoder, f field, p string, s *scenario.Spec) {
			defaultsFields.decode(d, f.val, p, "defaults", &s.Defaults)
		}),
		custom("vars", func(d *decoder, f field, p string, s *scenario.Spec) { s.Vars = d.vars(f.val, p) }),
		custom("pools", func(d *decoder, f field, p string, s *scenario.Spec) { s.Pools = d.pools(f.val) }),
		custom("data", func(d *decoder, f field, p string, s *scenario.Spec) { s.Data = d.data(f.val) }),
		custom("setup", func(d *decoder, f field, p string, s *scenario.Spec) { s.Setup = d.steps(f.val, p) }),
		custom("scenarios", func(d *decoder, f field, p string, s *scenario.Spec) { s.Scenarios = d.scenarios(f.val) }),
		scalar("warmup", "warmup", (*decoder).duration, func(s *scenario.Spec) *time.Duration { return &s.Warmup }),
		scalar("thresholds", "thresholds", listOf("a threshold", (*decoder).str), func(s *scenario.Spec) *[]string { return &s.Thresholds }),
		scalar("outputs", "outputs", listOf("an output, KIND=URL", (*decoder).str), func(s *scenario.Spec) *[]string { return &s.Outputs }),
		custom("search", func(d *decoder, f field, p string, s *scenario.Spec) { s.Search = d.search(f.val) }),
		scalar("monitor", "a monitor spec", (*decoder).stringMap, func(s *scenario.Spec) *map[string]string { return &s.Monitor }),
	)
	defaultsFields = fieldsOf(
		scalar("headers", "headers", (*decoder).stringMap, func(o *scenario.Defaults) *map[string]string { return &o.Headers }),
		scalar("timeout", "timeout", (*decoder).duration, func(o *scenario.Defaults) *time.Duration { return &o.Timeout }),
		custom("cookies", func(d *decoder, f field, p string, o *scenario.Defaults) {
			on, _ := d.boolean(f.val, p, "cookies")
			o.NoCookies = !on
		}),
		custom("http2", func(d *decoder, f field, p string, o *scenario.Defaults) {
			if v, ok := d.str(f.val, p, "http2"); ok {
				h, err := httpc.ParseHTTP2(v)
				if err != nil {
					d.fail(f.val, p, "write true (HTTP/2 when a TLS server offers it), false (HTTP/1.1 only) or prior-knowledge (h2c on http URLs)", "%v", err)
				}
				o.HTTP2 = h
			}
		}),
		scalar("http3", "http3", (*decoder).boolean, func(o *scenario.Defaults) *bool { return &o.HTTP3 }),
	)
	dataFields = fieldsOf(
		custom("list", func(d *decoder, f field, p string, ds *scenario.Data) {
			items, _ := d.list(f.val, p, "list")
			ds.List = make([]any, len(items))
			for i, item := range items {
				ds.List[i] = d.value(item, fmt.Sprintf("%s[%d]", p, i))
			}
		}),
		custom("range", func(d *decoder, f field, p string, ds *scenario.Data) { ds.Range = d.rangeOf(f.val, p) }),
		scalar("csv", "csv", (*decoder).str, func(ds *scenario.Data) *string { return &ds.CSV }),
		scalar("jsonl", "jsonl", (*decoder).str, func(ds *scenario.Data) *string { return &ds.JSONL }),
		custom("order", func(d *decoder, f field, p string, ds *scenario.Data) {
			if o, ok := d.str(f.val, p, "order"); ok {
				switch scenario.Order(o) {
				case scenario.Random, scenario.Sequential, scenario.Unique:
					ds.Order = scenario.Order(o)
				default:
					d.fail(f.val, p, fixOr(o, []string{"random", "sequential", "unique"}, "use random, sequential or unique"),
						"order %q is not one of random, sequential, unique", o)
				}
			}
		}),
	)
	rangeFields = fieldsOf(
		custom("from", func(d *decoder, f field, p string, r *rangeDecoding) { r.From, r.from = d.integer(f.val, p, "from") }),
		custom("to", func(d *decoder, f field, p string, r *rangeDecoding) { r.To, r.to = d.integer(f.val, p, "to") }),
		scalar("step", "step", (*decoder).integer, func(r *rangeDecoding) *int { return &r.Step }),
		scalar("format", "format", (*decoder).str, func(r *rangeDecoding) *string { return &r.Format }),
	)
	scenarioFields = fieldsOf(
		custom("load", func(d *decoder, f field, p string, sc *scenarioDecoding) { sc.load, sc.Load = f.val, d.load(f.val, p) }),
		scalar("start_after", "start_after", (*decoder).duration, func(sc *scenarioDecoding) *time.Duration { return &sc.StartAfter }),
		scalar("think", "think", (*decoder).pause, func(sc *scenarioDecoding) *scenario.Pause { return &sc.Think }),
		custom("on_start", func(d *decoder, f field, p string, sc *scenarioDecoding) { sc.OnStart = d.steps(f.val, p) }),
		custom("tasks", func(d *decoder, f field, p string, sc *scenarioDecoding) { sc.Tasks = d.tasks(f.val, p) }),
		custom("flow", func(d *decoder, f field, p string, sc *scenarioDecoding) { sc.Flow = d.steps(f.val, p) }),
	)
	methodKeys    = []string{"get", "post", "put", "patch", "delete", "head", "options"}
	requestFields = fieldsOf(
		scalar("query", "query", (*decoder).stringMap, func(r *scenario.Request) *map[string]string { return &r.Query }),
		scalar("headers", "headers", (*decoder).stringMap, func(r *scenario.Request) *map[string]string { return &r.Headers }),
		scalar("json", "json", (*decoder).object, func(r *scenario.Request) *any { return &r.JSON }),
		scalar("form", "form", (*decoder).stringMap, func(r *scenario.Request) *map[string]string { return &r.Form }),
		scalar("body", "body", (*decoder).str, func(r *scenario.Request) *string { return &r.Body }),
		scalar("timeout", "timeout", (*decoder).duration, func(r *scenario.Request) *time.Duration { return &r.Timeout }),
	)
	expectFields = fieldsOf(
		scalar("status", "status", oneOrList("a status", (*decoder).integer), func(e *scenario.Expect) *[]int { return &e.Status }),
		scalar("contains", "contains", (*decoder).str, func(e *scenario.Expect) *string { return &e.Contains }),
		scalar("max_duration", "max_duration", (*decoder).duration, func(e *scenario.Expect) *time.Duration { return &e.MaxDuration }),
		scalar("that", "that", oneOrList("an expression", (*decoder).str), func(e *scenario.Expect) *[]string { return &e.That }),
	)
	// stepFields and taskFields are set by init: a step holds steps.
	stepFields *fieldTable[stepDecoding]
	taskFields *fieldTable[taskDecoding]
)

func init() {
	var fields []fieldDecoder[stepDecoding]
	add := func(fds ...fieldDecoder[stepDecoding]) { fields = append(fields, fds...) }
	add(
		scalar("name", "name", (*decoder).str, func(x *stepDecoding) *string { return &x.step.Name }),
		scalar("when", "when", (*decoder).str, func(x *stepDecoding) *string { return &x.step.When }),
		custom("method", (*decoder).stepMethod),
		custom("url", func(d *decoder, f field, p string, x *stepDecoding) {
			x.urlKey, x.hasRequest = f.node, true
			x.req.URL, _ = d.str(f.val, p, "the URL")
		}),
	)
	add(within(requestFields, func(x *stepDecoding) *scenario.Request { return &x.req })...)
	add(
		custom("expect", func(d *decoder, f field, p string, x *stepDecoding) { x.step.Expect = d.expect(f.val, p) }),
		scalar("capture", "capture", (*decoder).stringMap, func(x *stepDecoding) *map[string]string { return &x.step.Capture }),
		scalar("set", "set", (*decoder).stringMap, func(x *stepDecoding) *map[string]string { return &x.step.Set }),
		scalar("append", "append", (*decoder).stringMap, func(x *stepDecoding) *map[string]string { return &x.step.Append }),
		scalar("remove", "remove", (*decoder).stringMap, func(x *stepDecoding) *map[string]string { return &x.step.Remove }),
		scalar("sleep", "sleep", (*decoder).pause, func(x *stepDecoding) *scenario.Pause { return &x.step.Sleep }),
		custom("steps", func(d *decoder, f field, p string, x *stepDecoding) { x.step.Steps = d.steps(f.val, p) }),
		scalar("repeat", "repeat", (*decoder).integer, func(x *stepDecoding) *int { return &x.step.Repeat }),
		scalar("while", "while", (*decoder).str, func(x *stepDecoding) *string { return &x.step.While }),
		scalar("on_failure", "on_failure", (*decoder).str, func(x *stepDecoding) *string { return &x.step.OnFailure }),
		scalar("error_key", "error_key", (*decoder).str, func(x *stepDecoding) *string { return &x.step.ErrorKey }),
		custom("sse", func(d *decoder, f field, p string, x *stepDecoding) { x.step.SSE = d.sse(f.val, p) }),     // see stream.go
		custom("ws", func(d *decoder, f field, p string, x *stepDecoding) { x.step.WebSocket = d.ws(f.val, p) }), // see stream.go
		custom("grpc", func(d *decoder, f field, p string, x *stepDecoding) { x.step.GRPC = d.grpc(f.val, p) }),  // see grpc.go
	)
	for _, m := range methodKeys {
		add(custom(m, (*decoder).stepMethodKey))
	}
	stepFields = fieldsOf(fields...)
	taskFields = fieldsOf(append([]fieldDecoder[taskDecoding]{
		scalar("weight", "weight", (*decoder).integer, func(t *taskDecoding) *int { return &t.weight }),
	}, within(stepFields, func(t *taskDecoding) *stepDecoding { return &t.step })...)...)
}

// A rangeDecoding is a range as it is decoded, with whether its bounds
// were read.
type rangeDecoding struct {
	scenario.Range
	from, to bool
}

// A scenarioDecoding is a scenario as it is decoded, with its load's node.
type scenarioDecoding struct {
	scenario.Scenario
	load ast.Node
}

// A stepDecoding is a step as it is decoded: its request apart, and the
// keys that name the request's method and URL.
type stepDecoding struct {
	step              scenario.Step
	req               scenario.Request
	methodKey, urlKey ast.Node
	hasRequest        bool
}

// A taskDecoding is a task as it is decoded: a step with a weight.
type taskDecoding struct {
	weight int
	step   stepDecoding
}

// spec decodes the document's top-level mapping.
func (d *decoder) spec(root ast.Node) *scenario.Spec {
	s := &scenario.Spec{}
	specFields.decode(d, root, "", "a scenario file", s)
	return s
}

// vars decodes the vars mapping: any names, plain values.
func (d *decoder) vars(n ast.Node, path string) map[string]any {
	vs, ok := d.mapping(n, path, nil, "vars")
	if !ok {
		return nil
	}
	out := map[string]any{}
	for _, v := range vs {
		d.recordKey(join(path, v.key), v.node)
		out[v.key] = d.value(v.val, join(path, v.key))
	}
	return out
}

func (d *decoder) pools(n ast.Node) map[string][]any {
	fields, ok := d.mapping(n, "pools", nil, "pools")
	if !ok {
		return nil
	}
	out := map[string][]any{}
	for _, f := range fields {
		p := join("pools", f.key)
		d.recordKey(p, f.node)
		if d.resolve(f.val) == nil {
			out[f.key] = nil
			continue
		}
		items, ok := d.list(f.val, p, "a pool")
		if !ok {
			continue
		}
		vals := make([]any, len(items))
		for i, item := range items {
			vals[i] = d.value(item, fmt.Sprintf("%s[%d]", p, i))
		}
		out[f.key] = vals
	}
	return out
}

func (d *decoder) data(n ast.Node) map[string]scenario.Data {
	sources, ok := d.mapping(n, "data", nil, "data")
	if !ok {
		return nil
	}
	out := map[string]scenario.Data{}
	for _, src := range sources {
		p := join("data", src.key)
		d.recordKey(p, src.node)
		var ds scenario.Data
		if dataFields.decode(d, src.val, p, "a data source", &ds) {
			out[src.key] = ds
		}
	}
	return out
}

// fixOr suggests the candidate closest to s, or says fix.
func fixOr(s string, candidates []string, fix string) string {
	if m := suggest.DidYouMean(s, candidates); m != "" {
		return m
	}
	return fix
}

func (d *decoder) rangeOf(n ast.Node, path string) *scenario.Range {
	var r rangeDecoding
	if !rangeFields.decode(d, n, path, "a range", &r) {
		return nil
	}
	if !r.from || !r.to {
		d.fail(n, path, "write it as range: {from: 1, to: 100}", "a range needs from and to")
	}
	return &r.Range
}

func (d *decoder) scenarios(n ast.Node) []scenario.Scenario {
	fields, ok := d.mapping(n, "scenarios", nil, "scenarios")
	if !ok {
		return nil
	}
	var out []scenario.Scenario
	for _, f := range fields {
		p := join("scenarios", f.key)
		d.recordKey(p, f.node)
		sc := scenarioDecoding{Scenario: scenario.Scenario{Name: f.key}}
		if !scenarioFields.decode(d, f.val, p, "a scenario", &sc) {
			continue
		}
		if sc.load == nil {
			d.fail(f.node, p, "add one, such as load: {users: 10, duration: 1m}", "scenario %s has no load", f.key)
			sc.Load = nil
		}
		out = append(out, sc.Scenario)
	}
	return out
}

func (d *decoder) tasks(n ast.Node, path string) []scenario.Task {
	var out []scenario.Task
	d.mappings(n, path, "tasks", taskFields.keys, "a task", func(_ ast.Node, p string, fields []field) {
		x := taskDecoding{weight: 1}
		taskFields.decodeFields(d, fields, p, &x)
		out = append(out, scenario.Task{Weight: x.weight, Step: d.step(&x.step, fields, p)})
	})
	return out
}

// steps decodes a list of steps.
func (d *decoder) steps(n ast.Node, path string) []scenario.Step {
	if _, isList := d.resolve(n).(*ast.SequenceNode); !isList {
		d.list(n, path, "steps") // says what it is instead
		return nil
	}
	if !d.enter(n, path) {
		return nil
	}
	defer d.leave()
	out := []scenario.Step{}
	d.mappings(n, path, "steps", stepFields.keys, "a step", func(_ ast.Node, p string, fields []field) {
		var x stepDecoding
		stepFields.decodeFields(d, fields, p, &x)
		out = append(out, d.step(&x, fields, p))
	})
	return out
}

// step checks the request of a step decoded from fields and returns the
// step.
func (d *decoder) step(x *stepDecoding, fields []field, path string) scenario.Step {
	s, req, methodKey, urlKey := x.step, x.req, x.methodKey, x.urlKey
	switch {
	case urlKey != nil && methodKey != nil && req.Method != "" && contains(methodKeys, strings.ToLower(keyText(methodKey))):
		d.fail(urlKey, join(path, "url"), "the URL goes after the method: get: /path", "the step has both %s and url", keyText(methodKey))
	case urlKey != nil && methodKey == nil:
		d.fail(urlKey, join(path, "url"), "write get: /path, or add method: NAME", "url needs a method")
	case methodKey != nil && urlKey == nil && keyText(methodKey) == "method":
		d.fail(methodKey, join(path, "method"), "add url: /path", "method needs a url")
	}
	if x.hasRequest {
		s.Request = &req
	} else {
		for _, f := range fields {
			if requestFields.has(f.key) {
				d.fail(f.node, join(path, f.key), "add the request, as in get: /path or post: /path", "%s belongs to a request, and the step has none", f.key)
			}
		}
	}
	return s
}

// stepMethodKey decodes a request written as its method's key: get: /path.
func (d *decoder) stepMethodKey(f field, p string, x *stepDecoding) {
	if x.methodKey != nil {
		d.fail(f.node, p, "split it into one step per request", "the step has two requests: %s and %s", keyText(x.methodKey), f.key)
		return
	}
	x.methodKey, x.hasRequest = f.node, true
	x.req.Method = strings.ToUpper(f.key)
	x.req.URL, _ = d.str(f.val, p, "the URL")
	path := strings.TrimSuffix(p, "."+f.key)
	d.pos[join(path, "url")] = d.pos[p]
	d.pos[join(path, "method")] = d.pos[p]
}

// stepMethod decodes method: NAME, which goes with url: /path.
func (d *decoder) stepMethod(f field, p string, x *stepDecoding) {
	x.hasRequest = true
	if x.methodKey != nil {
		d.fail(f.node, p, "keep one: get: /path, or method: NAME with url: /path", "the step has both %s and method", keyText(x.methodKey))
		return
	}
	x.methodKey = f.node
	x.req.Method, _ = d.str(f.val, p, "method")
}

func keyText(n ast.Node) string {
	if tk := n.GetToken(); tk != nil {
		return tk.Value
	}
	return ""
}

func (d *decoder) expect(n ast.Node, path string) *scenario.Expect {
	e := &scenario.Expect{}
	if !expectFields.decode(d, n, path, "expect", e) {
		return nil
	}
	return e
}
