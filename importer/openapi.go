package importer

import (
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
	"github.com/goccy/go-yaml/token"
)

// OpenAPIOptions configure OpenAPI.
type OpenAPIOptions struct {
	// Target is the base URL of the operations when the description has
	// no server, or a relative one; it replaces the description's server
	// when it has a host.
	Target string
}

var openAPIMethods = []string{"get", "put", "post", "delete", "options", "head", "patch", "trace"}

// OpenAPI imports an OpenAPI 3.0 or 3.1 description, YAML or JSON, into a
// scenario with one task per operation: path and query parameters from
// their examples or, failing those, from their schemas' types; request
// bodies from their examples or schemas; the documented 2xx and 3xx
// responses as the expected statuses.
func OpenAPI(name string, src []byte, opts OpenAPIOptions) (f *File, err error) {
	defer func() {
		if r := recover(); r != nil { // no input may crash surge
			f, err = nil, &Error{Source: name, Line: 1, Col: 1, Msg: fmt.Sprintf("the YAML parser failed: %v", r)}
		}
	}()
	tree, err := parser.ParseBytes(src, 0)
	if err != nil {
		e := &Error{Source: name, Line: 1, Col: 1, Msg: err.Error(), Fix: "fix the YAML or JSON there"}
		var se *yaml.SyntaxError
		if errors.As(err, &se) {
			e.Msg = "broken YAML or JSON: " + se.Message
			if se.Token != nil && se.Token.Position != nil {
				e.Line, e.Col = se.Token.Position.Line, se.Token.Position.Column
			}
		}
		return nil, e
	}
	var doc yaml.MapSlice
	if len(tree.Docs) == 0 || tree.Docs[0].Body == nil {
		return nil, &Error{Source: name, Line: 1, Col: 1, Msg: "the file is empty", Fix: "give an OpenAPI 3 description"}
	}
	if err := yaml.NodeToValue(tree.Docs[0].Body, &doc, yaml.UseOrderedMap()); err != nil {
		return nil, &Error{Source: name, Line: 1, Col: 1, Msg: "not an OpenAPI description: the document is not a mapping", Fix: "give an OpenAPI 3 description"}
	}
	o := &openAPI{name: name, tree: tree, doc: doc, opts: opts}
	return o.file()
}

type openAPI struct {
	budget int // schema nodes left to generate values for: self-references branch
	name   string
	tree   *ast.File
	doc    yaml.MapSlice
	opts   OpenAPIOptions
}

// fail returns an *Error at the node of path, or at its nearest parent
// that exists.
func (o *openAPI) fail(path []any, fix, format string, a ...any) *Error {
	e := &Error{Source: o.name, Msg: fmt.Sprintf(format, a...), Fix: fix, Line: 1, Col: 1}
	for n := len(path); n >= 0; n-- {
		if pos := o.position(path[:n]); pos != nil {
			e.Line, e.Col = pos.Line, pos.Column
			break
		}
	}
	var parts []string
	for _, p := range path {
		parts = append(parts, fmt.Sprint(p))
	}
	e.Path = strings.Join(parts, ".")
	return e
}

// position returns where the node at path is: its key's position, for a
// value in a mapping.
func (o *openAPI) position(path []any) *token.Position {
	b := (&yaml.PathBuilder{}).Root()
	for _, p := range path[:max(len(path)-1, 0)] {
		switch p := p.(type) {
		case string:
			b = b.Child(p)
		case int:
			b = b.Index(uint(p))
		}
	}
	node, err := b.Build().FilterFile(o.tree)
	if err != nil || node == nil {
		return nil
	}
	if len(path) > 0 {
		key, ok := path[len(path)-1].(string)
		m, isMap := node.(*ast.MappingNode)
		if !ok || !isMap {
			return nil
		}
		for _, mv := range m.Values {
			if mv.Key != nil && mv.Key.GetToken() != nil && mv.Key.GetToken().Value == key {
				return mv.Key.GetToken().Position
			}
		}
		return nil
	}
	if t := node.GetToken(); t != nil {
		return t.Position
	}
	return nil
}

func get(m yaml.MapSlice, key string) any {
	for _, it := range m {
		if fmt.Sprint(it.Key) == key {
			return it.Value
		}
	}
	return nil
}

func getMap(m yaml.MapSlice, key string) yaml.MapSlice {
	v, _ := get(m, key).(yaml.MapSlice)
	return v
}

func getString(m yaml.MapSlice, key string) string {
	switch v := get(m, key).(type) {
	case string:
		return v
	case nil:
		return ""
	default:
		return fmt.Sprint(v)
	}
}

func (o *openAPI) file() (*File, error) {
	version := getString(o.doc, "openapi")
	switch {
	case version == "" && getString(o.doc, "swagger") != "":
		return nil, o.fail([]any{"swagger"}, "convert it to OpenAPI 3 (for example with swagger2openapi) and import that",
			"Swagger %s is not supported, only OpenAPI 3.0 and 3.1", getString(o.doc, "swagger"))
	case version == "":
		return nil, o.fail(nil, "give an OpenAPI 3.0 or 3.1 description, which starts with openapi: 3.x", "not an OpenAPI description: there is no openapi version")
	case !strings.HasPrefix(version, "3.0") && !strings.HasPrefix(version, "3.1"):
		return nil, o.fail([]any{"openapi"}, "give an OpenAPI 3.0 or 3.1 description", "OpenAPI %s is not supported, only 3.0 and 3.1", version)
	}
	paths := getMap(o.doc, "paths")
	if len(paths) == 0 {
		return nil, o.fail([]any{"paths"}, "describe at least one operation under paths", "the description has no paths")
	}
	title := getString(getMap(o.doc, "info"), "title")
	f := &File{Header: []string{fmt.Sprintf("Imported by surge import openapi from %s (OpenAPI %s%s).", o.name, version, ifSome(", "+title, title))}}
	sc := Scenario{Name: "api"}
	if title != "" {
		sc.Name = title
	}
	var skipped []string
	for _, pit := range paths {
		p := fmt.Sprint(pit.Key)
		item, _ := pit.Value.(yaml.MapSlice)
		item = o.resolve(item, 0)
		for _, method := range openAPIMethods {
			op, ok := get(item, method).(yaml.MapSlice)
			if !ok {
				continue
			}
			where := []any{"paths", p, method}
			base, err := o.server(op, item, where)
			if err != nil {
				return nil, err
			}
			s, note, err := o.operation(p, method, item, op, base, where)
			if err != nil {
				return nil, err
			}
			if note != "" {
				skipped = append(skipped, note)
			}
			sc.Tasks = append(sc.Tasks, s)
		}
	}
	if len(sc.Tasks) == 0 {
		return nil, o.fail([]any{"paths"}, "describe operations (get, post, ...) under the paths", "the paths have no operations")
	}
	f.Header = append(f.Header, fmt.Sprintf("%s, one task each, picked with equal weights; change a task's weight for a realistic mix.", plural(len(sc.Tasks), "operation")))
	f.Header = append(f.Header, skipped...)
	f.Scenarios = []Scenario{sc}
	relativize(f, []*Scenario{&f.Scenarios[0]})
	return f, nil
}

func ifSome(s, cond string) string {
	if cond == "" {
		return ""
	}
	return s
}

// server returns the base URL of an operation: its own servers, its path
// item's, or the description's, the first of them.
func (o *openAPI) server(op, item yaml.MapSlice, where []any) (string, error) {
	raw := ""
	for _, m := range []yaml.MapSlice{op, item, o.doc} {
		if list, ok := get(m, "servers").([]any); ok && len(list) > 0 {
			if s, ok := list[0].(yaml.MapSlice); ok {
				raw = getString(s, "url")
				for _, v := range getMap(s, "variables") {
					def := getString(v.Value.(yaml.MapSlice), "default")
					raw = strings.ReplaceAll(raw, "{"+fmt.Sprint(v.Key)+"}", def)
				}
				break
			}
		}
	}
	t := strings.TrimRight(o.opts.Target, "/")
	u, err := url.Parse(raw)
	switch {
	case raw == "" && t == "":
		return "", o.fail(where, "add servers: [{url: https://api.example.com}] to the description, or pass --target URL",
			"the operation has no server: neither it, its path nor the description lists servers")
	case err != nil:
		return "", o.fail(append(where[:0:0], "servers"), "give the server an absolute http or https URL", "server URL %q: %v", raw, err)
	case u.Host == "" && t == "":
		return "", o.fail(where, "pass --target URL, the base its relative server URL "+raw+" is under",
			"the operation's server %q is relative", raw)
	case u.Host == "":
		return t + strings.TrimRight(raw, "/"), nil
	case t != "":
		return t + strings.TrimRight(u.Path, "/"), nil
	case u.Scheme != "http" && u.Scheme != "https":
		return "", o.fail(where, "give an http or https server URL, or pass --target", "server URL %q is not http or https", raw)
	}
	return strings.TrimRight(raw, "/"), nil
}

// resolve follows a $ref to a local component, up to a depth.
func (o *openAPI) resolve(m yaml.MapSlice, depth int) yaml.MapSlice {
	for depth < 16 {
		ref := getString(m, "$ref")
		if ref == "" {
			return m
		}
		target, ok := o.lookup(ref)
		if !ok {
			return nil
		}
		m, depth = target, depth+1
	}
	return nil
}

// lookup finds a local reference such as #/components/schemas/User.
func (o *openAPI) lookup(ref string) (yaml.MapSlice, bool) {
	p, ok := strings.CutPrefix(ref, "#/")
	if !ok {
		return nil, false
	}
	cur := o.doc
	for _, part := range strings.Split(p, "/") {
		part = strings.ReplaceAll(strings.ReplaceAll(part, "~1", "/"), "~0", "~")
		next, ok := get(cur, part).(yaml.MapSlice)
		if !ok {
			return nil, false
		}
		cur = next
	}
	return cur, true
}

// operation builds the task of one operation.
func (o *openAPI) operation(p, method string, item, op yaml.MapSlice, base string, where []any) (Step, string, error) {
	o.budget = 2000
	s := Step{Method: strings.ToUpper(method), Name: getString(op, "operationId")}
	if s.Name == "" {
		s.Name = s.Method + " " + p
	}
	params := map[string]yaml.MapSlice{}
	var order []string
	for _, list := range []any{get(item, "parameters"), get(op, "parameters")} {
		ps, _ := list.([]any)
		for _, x := range ps {
			pm, _ := x.(yaml.MapSlice)
			pm = o.resolve(pm, 0)
			if pm == nil {
				continue
			}
			key := getString(pm, "in") + ":" + getString(pm, "name")
			if _, seen := params[key]; !seen {
				order = append(order, key)
			}
			params[key] = pm
		}
	}
	path := p
	for _, key := range order {
		pm := params[key]
		in, pname := getString(pm, "in"), getString(pm, "name")
		v, ok := o.paramValue(pm)
		required := in == "path" || get(pm, "required") == true
		if !ok && !required {
			continue
		}
		text := templateText(v)
		switch in {
		case "path":
			path = strings.ReplaceAll(path, "{"+pname+"}", text)
		case "query":
			s.Query = append(s.Query, yaml.MapItem{Key: pname, Value: text})
		case "header":
			s.Headers = setItem(s.Headers, pname, text)
		}
	}
	if i := strings.IndexByte(path, '{'); i >= 0 {
		return s, "", o.fail(where, "describe the path parameter under parameters, with in: path", "path %s has a parameter that is not described", p)
	}
	s.URL = base + path
	note := ""
	if rb := o.resolve(getMap(op, "requestBody"), 0); rb != nil {
		content := getMap(rb, "content")
		switch {
		case get(content, "application/json") != nil:
			mt, _ := get(content, "application/json").(yaml.MapSlice)
			s.JSON = o.bodyValue(mt)
		case get(content, "application/x-www-form-urlencoded") != nil:
			mt, _ := get(content, "application/x-www-form-urlencoded").(yaml.MapSlice)
			if m, ok := o.bodyValue(mt).(yaml.MapSlice); ok {
				for _, it := range m {
					s.Form = append(s.Form, yaml.MapItem{Key: it.Key, Value: templateText(it.Value)})
				}
			}
		default:
			for _, it := range content {
				ct := fmt.Sprint(it.Key)
				mt, _ := it.Value.(yaml.MapSlice)
				if ex, ok := o.example(mt); ok {
					s.Body = ptr(templateText(ex))
				} else {
					s.Body = ptr("")
				}
				s.Headers = setItem(s.Headers, "Content-Type", ct)
				note = fmt.Sprintf("%s: the %s body is its example, or empty; write one.", s.Name, ct)
				//lint:ignore SA4004 the first content type given is the one used
				break
			}
		}
	}
	for _, r := range getMap(op, "responses") {
		code, err := strconv.Atoi(fmt.Sprint(r.Key))
		if err == nil && code >= 200 && code < 400 {
			s.Status = append(s.Status, code)
		}
	}
	slices.Sort(s.Status)
	return s, note, nil
}

// templateText writes a value into a template: uuid() calls stay calls.
func templateText(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case nil:
		return ""
	}
	return fmt.Sprint(v)
}

// example returns the example of a parameter or media type object.
func (o *openAPI) example(m yaml.MapSlice) (any, bool) {
	if v := get(m, "example"); v != nil {
		return literalValue(v), true
	}
	for _, it := range getMap(m, "examples") {
		ex := o.resolve(it.Value.(yaml.MapSlice), 0)
		if v := get(ex, "value"); v != nil {
			return literalValue(v), true
		}
	}
	return nil, false
}

func (o *openAPI) paramValue(pm yaml.MapSlice) (any, bool) {
	if v, ok := o.example(pm); ok {
		return v, true
	}
	if sch := getMap(pm, "schema"); sch != nil {
		return o.schemaValue(sch, 0, true)
	}
	return nil, false
}

func (o *openAPI) bodyValue(mt yaml.MapSlice) any {
	if v, ok := o.example(mt); ok {
		return v
	}
	v, _ := o.schemaValue(getMap(mt, "schema"), 0, false)
	return v
}

// literalValue makes the strings of an example literal text for a template.
func literalValue(v any) any {
	switch x := v.(type) {
	case string:
		return literal(x)
	case yaml.MapSlice:
		out := yaml.MapSlice{}
		for _, it := range x {
			out = append(out, yaml.MapItem{Key: literal(fmt.Sprint(it.Key)), Value: literalValue(it.Value)})
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = literalValue(e)
		}
		return out
	case uint64:
		return int64(x)
	}
	return v
}

// schemaValue makes a value of a schema: its example, default or first
// enum value, or one of its type. explicit says a value only comes from an
// example, default or enum (for optional parameters).
func (o *openAPI) schemaValue(sch yaml.MapSlice, depth int, explicit bool) (any, bool) {
	sch = o.resolve(sch, 0)
	if sch == nil || depth > 8 || o.budget <= 0 {
		return nil, false
	}
	o.budget--
	for _, k := range []string{"example", "default", "const"} {
		if v := get(sch, k); v != nil {
			return literalValue(v), true
		}
	}
	if ex, ok := get(sch, "examples").([]any); ok && len(ex) > 0 {
		return literalValue(ex[0]), true
	}
	if enum, ok := get(sch, "enum").([]any); ok && len(enum) > 0 {
		return literalValue(enum[0]), true
	}
	if explicit {
		return nil, false
	}
	for _, k := range []string{"oneOf", "anyOf"} {
		if list, ok := get(sch, k).([]any); ok && len(list) > 0 {
			m, _ := list[0].(yaml.MapSlice)
			return o.schemaValue(m, depth+1, false)
		}
	}
	if list, ok := get(sch, "allOf").([]any); ok {
		out := yaml.MapSlice{}
		for _, x := range list {
			m, _ := x.(yaml.MapSlice)
			if v, ok := o.schemaValue(m, depth+1, false); ok {
				if vm, ok := v.(yaml.MapSlice); ok {
					out = append(out, vm...)
				}
			}
		}
		return out, true
	}
	typ := get(sch, "type")
	if list, ok := typ.([]any); ok && len(list) > 0 { // 3.1: type: [string, "null"]
		typ = list[0]
	}
	switch typ {
	case "object":
		out := yaml.MapSlice{}
		for _, it := range getMap(sch, "properties") {
			m, _ := it.Value.(yaml.MapSlice)
			if v, ok := o.schemaValue(m, depth+1, false); ok {
				out = append(out, yaml.MapItem{Key: literal(fmt.Sprint(it.Key)), Value: v})
			}
		}
		return out, true
	case "array":
		v, ok := o.schemaValue(getMap(sch, "items"), depth+1, false)
		if !ok {
			return []any{}, true
		}
		return []any{v}, true
	case "integer":
		if m, ok := get(sch, "minimum").(uint64); ok {
			return int64(m), true
		}
		return 1, true
	case "number":
		return 1.5, true
	case "boolean":
		return true, true
	case "string":
		switch getString(sch, "format") {
		case "uuid":
			return "{{ uuid() }}", true
		case "date-time":
			return "2025-01-01T00:00:00Z", true
		case "date":
			return "2025-01-01", true
		case "email":
			return "user{{ user }}@example.com", true
		}
		return "text", true
	}
	if typ == nil && getMap(sch, "properties") != nil {
		sch = append(sch[:len(sch):len(sch)], yaml.MapItem{Key: "type", Value: "object"})
		return o.schemaValue(sch, depth+1, false)
	}
	return nil, false
}
