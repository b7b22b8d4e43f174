package yamlfile

import (
	"fmt"
	"strings"

	"github.com/goccy/go-yaml/ast"

	"github.com/surge-load/surge/internal/suggest"
	"github.com/surge-load/surge/protocol/httpc"
	"github.com/surge-load/surge/scenario"
)

// The keys of each mapping of a scenario file.
var (
	topKeys      = []string{"target", "defaults", "vars", "pools", "data", "setup", "scenarios", "warmup", "thresholds", "outputs", "search", "monitor"}
	defaultsKeys = []string{"headers", "timeout", "cookies", "http2", "http3"}
	dataKeys     = []string{"list", "range", "csv", "jsonl", "order"}
	rangeKeys    = []string{"from", "to", "step", "format"}
	scenarioKeys = []string{"load", "start_after", "think", "on_start", "tasks", "flow"}
	methodKeys   = []string{"get", "post", "put", "patch", "delete", "head", "options"}
	stepKeys     = append([]string{"name", "when", "method", "url", "query", "headers", "json", "form", "body",
		"timeout", "expect", "capture", "set", "append", "remove", "sleep", "steps", "repeat", "while", "on_failure", "error_key", "sse", "ws", "grpc"}, methodKeys...)
	taskKeys   = append([]string{"weight"}, stepKeys...)
	expectKeys = []string{"status", "contains", "max_duration", "that"}
)

// spec decodes the document's top-level mapping.
func (d *decoder) spec(root ast.Node) *scenario.Spec {
	s := &scenario.Spec{}
	fields, ok := d.mapping(root, "", topKeys, "a scenario file")
	if !ok {
		return s
	}
	for _, f := range fields {
		p := f.key
		d.recordKey(p, f.node)
		switch f.key {
		case "target":
			s.Target, _ = d.str(f.val, p, "target")
		case "defaults":
			d.defaults(f.val, &s.Defaults)
		case "vars":
			if vs, ok := d.mapping(f.val, p, nil, "vars"); ok {
				s.Vars = map[string]any{}
				for _, v := range vs {
					d.recordKey(join(p, v.key), v.node)
					s.Vars[v.key] = d.value(v.val, join(p, v.key))
				}
			}
		case "pools":
			s.Pools = d.pools(f.val)
		case "data":
			s.Data = d.data(f.val)
		case "setup":
			s.Setup = d.steps(f.val, p)
		case "scenarios":
			s.Scenarios = d.scenarios(f.val)
		case "warmup":
			s.Warmup, _ = d.duration(f.val, p, "warmup")
		case "search":
			s.Search = d.search(f.val)
		case "monitor":
			s.Monitor, _ = d.stringMap(f.val, p, "a monitor spec")
		case "outputs":
			items, _ := d.list(f.val, p, "outputs")
			for i, item := range items {
				if o, ok := d.str(item, fmt.Sprintf("%s[%d]", p, i), "an output, KIND=URL"); ok {
					s.Outputs = append(s.Outputs, o)
				}
			}
		case "thresholds":
			items, _ := d.list(f.val, p, "thresholds")
			for i, item := range items {
				if t, ok := d.str(item, fmt.Sprintf("%s[%d]", p, i), "a threshold"); ok {
					s.Thresholds = append(s.Thresholds, t)
				}
			}
		}
	}
	return s
}

func (d *decoder) defaults(n ast.Node, out *scenario.Defaults) {
	fields, _ := d.mapping(n, "defaults", defaultsKeys, "defaults")
	for _, f := range fields {
		p := join("defaults", f.key)
		d.recordKey(p, f.node)
		switch f.key {
		case "headers":
			out.Headers, _ = d.stringMap(f.val, p, "headers")
		case "timeout":
			out.Timeout, _ = d.duration(f.val, p, "timeout")
		case "cookies":
			on, _ := d.boolean(f.val, p, "cookies")
			out.NoCookies = !on
		case "http2":
			if v, ok := d.str(f.val, p, "http2"); ok {
				h, err := httpc.ParseHTTP2(v)
				if err != nil {
					d.fail(f.val, p, "write true (HTTP/2 when a TLS server offers it), false (HTTP/1.1 only) or prior-knowledge (h2c on http URLs)", "%v", err)
				}
				out.HTTP2 = h
			}
		case "http3":
			out.HTTP3, _ = d.boolean(f.val, p, "http3")
		}
	}
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
		fields, ok := d.mapping(src.val, p, dataKeys, "a data source")
		if !ok {
			continue
		}
		var ds scenario.Data
		for _, f := range fields {
			fp := join(p, f.key)
			d.recordKey(fp, f.node)
			switch f.key {
			case "list":
				items, _ := d.list(f.val, fp, "list")
				ds.List = make([]any, len(items))
				for i, item := range items {
					ds.List[i] = d.value(item, fmt.Sprintf("%s[%d]", fp, i))
				}
			case "range":
				ds.Range = d.rangeOf(f.val, fp)
			case "csv":
				ds.CSV, _ = d.str(f.val, fp, "csv")
			case "jsonl":
				ds.JSONL, _ = d.str(f.val, fp, "jsonl")
			case "order":
				if o, ok := d.str(f.val, fp, "order"); ok {
					switch scenario.Order(o) {
					case scenario.Random, scenario.Sequential, scenario.Unique:
						ds.Order = scenario.Order(o)
					default:
						d.fail(f.val, fp, fixOr(o, []string{"random", "sequential", "unique"}, "use random, sequential or unique"),
							"order %q is not one of random, sequential, unique", o)
					}
				}
			}
		}
		out[src.key] = ds
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
	fields, ok := d.mapping(n, path, rangeKeys, "a range")
	if !ok {
		return nil
	}
	r := &scenario.Range{}
	var from, to bool
	for _, f := range fields {
		p := join(path, f.key)
		d.recordKey(p, f.node)
		switch f.key {
		case "from":
			r.From, from = d.integer(f.val, p, "from")
		case "to":
			r.To, to = d.integer(f.val, p, "to")
		case "step":
			r.Step, _ = d.integer(f.val, p, "step")
		case "format":
			r.Format, _ = d.str(f.val, p, "format")
		}
	}
	if !from || !to {
		d.fail(n, path, "write it as range: {from: 1, to: 100}", "a range needs from and to")
	}
	return r
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
		sc := scenario.Scenario{Name: f.key}
		body, ok := d.mapping(f.val, p, scenarioKeys, "a scenario")
		if !ok {
			continue
		}
		var load ast.Node
		for _, b := range body {
			bp := join(p, b.key)
			d.recordKey(bp, b.node)
			switch b.key {
			case "load":
				load = b.val
				sc.Load = d.load(b.val, bp)
			case "start_after":
				sc.StartAfter, _ = d.duration(b.val, bp, "start_after")
			case "think":
				sc.Think, _ = d.pause(b.val, bp, "think")
			case "on_start":
				sc.OnStart = d.steps(b.val, bp)
			case "tasks":
				sc.Tasks = d.tasks(b.val, bp)
			case "flow":
				sc.Flow = d.steps(b.val, bp)
			}
		}
		if load == nil {
			d.fail(f.node, p, "add one, such as load: {users: 10, duration: 1m}", "scenario %s has no load", f.key)
			sc.Load = nil
		}
		out = append(out, sc)
	}
	return out
}

func (d *decoder) tasks(n ast.Node, path string) []scenario.Task {
	items, ok := d.list(n, path, "tasks")
	if !ok {
		return nil
	}
	var out []scenario.Task
	for i, item := range items {
		p := fmt.Sprintf("%s[%d]", path, i)
		t := scenario.Task{Weight: 1}
		fields, ok := d.mapping(item, p, taskKeys, "a task")
		if !ok {
			continue
		}
		var rest []field
		for _, f := range fields {
			if f.key == "weight" {
				d.recordKey(join(p, f.key), f.node)
				t.Weight, _ = d.integer(f.val, join(p, f.key), "weight")
				continue
			}
			rest = append(rest, f)
		}
		t.Step = d.stepFields(item, rest, p)
		out = append(out, t)
	}
	return out
}

// steps decodes a list of steps.
func (d *decoder) steps(n ast.Node, path string) []scenario.Step {
	items, ok := d.list(n, path, "steps")
	if !ok {
		return nil
	}
	if !d.enter(n, path) {
		return nil
	}
	defer d.leave()
	out := make([]scenario.Step, 0, len(items))
	for i, item := range items {
		p := fmt.Sprintf("%s[%d]", path, i)
		fields, ok := d.mapping(item, p, stepKeys, "a step")
		if !ok {
			continue
		}
		out = append(out, d.stepFields(item, fields, p))
	}
	return out
}

// stepFields decodes the fields of one step.
func (d *decoder) stepFields(n ast.Node, fields []field, path string) scenario.Step {
	var s scenario.Step
	var req scenario.Request
	var methodKey, urlKey ast.Node
	hasRequest := false
	for _, f := range fields {
		p := join(path, f.key)
		d.recordKey(p, f.node)
		switch f.key {
		case "get", "post", "put", "patch", "delete", "head", "options":
			if methodKey != nil {
				d.fail(f.node, p, "split it into one step per request", "the step has two requests: %s and %s", keyText(methodKey), f.key)
				continue
			}
			methodKey, hasRequest = f.node, true
			req.Method = strings.ToUpper(f.key)
			req.URL, _ = d.str(f.val, p, "the URL")
			d.pos[join(path, "url")] = d.pos[p]
			d.pos[join(path, "method")] = d.pos[p]
		case "method":
			hasRequest = true
			if methodKey != nil {
				d.fail(f.node, p, "keep one: get: /path, or method: NAME with url: /path", "the step has both %s and method", keyText(methodKey))
				continue
			}
			methodKey = f.node
			req.Method, _ = d.str(f.val, p, "method")
		case "url":
			urlKey, hasRequest = f.node, true
			req.URL, _ = d.str(f.val, p, "the URL")
		case "query":
			req.Query, _ = d.stringMap(f.val, p, "query")
		case "headers":
			req.Headers, _ = d.stringMap(f.val, p, "headers")
		case "json":
			req.JSON = d.value(f.val, p)
			if req.JSON == nil {
				req.JSON = map[string]any(nil)
			}
		case "form":
			req.Form, _ = d.stringMap(f.val, p, "form")
		case "body":
			req.Body, _ = d.str(f.val, p, "body")
		case "timeout":
			req.Timeout, _ = d.duration(f.val, p, "timeout")
		case "name":
			s.Name, _ = d.str(f.val, p, "name")
		case "when":
			s.When, _ = d.str(f.val, p, "when")
		case "expect":
			s.Expect = d.expect(f.val, p)
		case "capture":
			s.Capture, _ = d.stringMap(f.val, p, "capture")
		case "set":
			s.Set, _ = d.stringMap(f.val, p, "set")
		case "append":
			s.Append, _ = d.stringMap(f.val, p, "append")
		case "remove":
			s.Remove, _ = d.stringMap(f.val, p, "remove")
		case "sleep":
			s.Sleep, _ = d.pause(f.val, p, "sleep")
		case "steps":
			s.Steps = d.steps(f.val, p)
		case "repeat":
			s.Repeat, _ = d.integer(f.val, p, "repeat")
		case "while":
			s.While, _ = d.str(f.val, p, "while")
		case "on_failure":
			s.OnFailure, _ = d.str(f.val, p, "on_failure")
		case "error_key":
			s.ErrorKey, _ = d.str(f.val, p, "error_key")
		case "sse":
			s.SSE = d.sse(f.val, p) // see stream.go
		case "ws":
			s.WebSocket = d.ws(f.val, p)
		case "grpc":
			s.GRPC = d.grpc(f.val, p) // see grpc.go
		}
	}
	switch {
	case urlKey != nil && methodKey != nil && req.Method != "" && contains(methodKeys, strings.ToLower(keyText(methodKey))):
		d.fail(urlKey, join(path, "url"), "the URL goes after the method: get: /path", "the step has both %s and url", keyText(methodKey))
	case urlKey != nil && methodKey == nil:
		d.fail(urlKey, join(path, "url"), "write get: /path, or add method: NAME", "url needs a method")
	case methodKey != nil && urlKey == nil && keyText(methodKey) == "method":
		d.fail(methodKey, join(path, "method"), "add url: /path", "method needs a url")
	}
	if hasRequest {
		s.Request = &req
	} else {
		for _, f := range fields {
			switch f.key {
			case "query", "headers", "json", "form", "body", "timeout":
				d.fail(f.node, join(path, f.key), "add the request, as in get: /path or post: /path", "%s belongs to a request, and the step has none", f.key)
			}
		}
	}
	return s
}

func keyText(n ast.Node) string {
	if tk := n.GetToken(); tk != nil {
		return tk.Value
	}
	return ""
}

func (d *decoder) expect(n ast.Node, path string) *scenario.Expect {
	fields, ok := d.mapping(n, path, expectKeys, "expect")
	if !ok {
		return nil
	}
	e := &scenario.Expect{}
	for _, f := range fields {
		p := join(path, f.key)
		d.recordKey(p, f.node)
		switch f.key {
		case "status":
			if items, isList := d.resolve(f.val).(*ast.SequenceNode); isList {
				d.record(p, f.val)
				for i, item := range items.Values {
					if code, ok := d.integer(item, fmt.Sprintf("%s[%d]", p, i), "a status"); ok {
						e.Status = append(e.Status, code)
					}
				}
			} else if code, ok := d.integer(f.val, p, "status"); ok {
				e.Status = []int{code}
				d.pos[p+"[0]"] = d.pos[p]
			}
		case "contains":
			e.Contains, _ = d.str(f.val, p, "contains")
		case "max_duration":
			e.MaxDuration, _ = d.duration(f.val, p, "max_duration")
		case "that":
			if items, isList := d.resolve(f.val).(*ast.SequenceNode); isList {
				d.record(p, f.val)
				for i, item := range items.Values {
					if x, ok := d.str(item, fmt.Sprintf("%s[%d]", p, i), "an expression"); ok {
						e.That = append(e.That, x)
					}
				}
			} else if x, ok := d.str(f.val, p, "that"); ok {
				e.That = []string{x}
				d.pos[p+"[0]"] = d.pos[p]
			}
		}
	}
	return e
}
