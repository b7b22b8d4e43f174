package importer

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"

	"github.com/goccy/go-yaml"

	"github.com/surge-load/surge/protocol/httpc"
)

// The parts of a Postman collection (v2.1) that are imported.
type pmCollection struct {
	Info *struct {
		Name   string `json:"name"`
		Schema string `json:"schema"`
	} `json:"info"`
	Item     []pmItem        `json:"item"`
	Variable []pmKeyValue    `json:"variable"`
	Auth     *pmAuth         `json:"auth"`
	Requests json.RawMessage `json:"requests"` // v1 collections
}

type pmItem struct {
	Name    string          `json:"name"`
	Item    []pmItem        `json:"item"` // a folder
	Request json.RawMessage `json:"request"`
	Auth    *pmAuth         `json:"auth"`
	Event   []any           `json:"event"`
}

type pmRequest struct {
	Method string          `json:"method"`
	URL    json.RawMessage `json:"url"`
	Header []pmKeyValue    `json:"header"`
	Body   *struct {
		Mode       string       `json:"mode"`
		Raw        string       `json:"raw"`
		URLEncoded []pmKeyValue `json:"urlencoded"`
		FormData   []pmKeyValue `json:"formdata"`
		Options    struct {
			Raw struct {
				Language string `json:"language"`
			} `json:"raw"`
		} `json:"options"`
	} `json:"body"`
	Auth *pmAuth `json:"auth"`
}

type pmURL struct {
	Raw   string       `json:"raw"`
	Query []pmKeyValue `json:"query"`
}

type pmKeyValue struct {
	Key      string `json:"key"`
	Value    any    `json:"value"`
	Disabled bool   `json:"disabled"`
	Type     string `json:"type"`
}

type pmAuth struct {
	Type   string       `json:"type"`
	Bearer []pmKeyValue `json:"bearer"`
	Basic  []pmKeyValue `json:"basic"`
	APIKey []pmKeyValue `json:"apikey"`
}

func (kv pmKeyValue) text() string {
	switch v := kv.Value.(type) {
	case string:
		return v
	case nil:
		return ""
	default:
		b, _ := json.Marshal(v)
		return string(b)
	}
}

func authValue(list []pmKeyValue, key string) string {
	for _, kv := range list {
		if kv.Key == key {
			return kv.text()
		}
	}
	return ""
}

// pmVar matches a Postman variable, {{name}}.
var pmVar = regexp.MustCompile(`\{\{\s*([^{}]+?)\s*\}\}`)

// Postman's dynamic variables that have a scenario equivalent.
var pmDynamic = map[string]string{
	"$guid": "uuid()", "$randomUUID": "uuid()", "$timestamp": "now().Unix()", "$isoTimestamp": `now().Format("2006-01-02T15:04:05Z07:00")`,
	"$randomInt": "randInt(0, 1000)", "$randomBoolean": "randInt(0, 1) == 1",
}

// postman converts one collection.
type postman struct {
	name    string
	vars    map[string]string // Postman name → variable
	missing []string          // variables the collection uses but does not define
	notes   []string
	namer   namer
}

// Postman imports a Postman collection (v2.1, as Postman exports it) into
// a scenario file: each top-level folder a scenario whose flow is its
// requests in order (subfolders as groups of steps), the requests outside
// folders a scenario of their own; collection variables become vars, and
// {{name}} in URLs, headers and bodies uses them. A variable the
// collection uses without defining it (an environment's) is read with
// env(), so --env NAME=VALUE gives it.
func Postman(name string, src []byte) (*File, error) {
	var c pmCollection
	if err := decodeJSON(name, src, &c, "a Postman collection (Postman: Export, Collection v2.1)"); err != nil {
		return nil, err
	}
	if c.Info == nil && c.Requests != nil {
		return nil, &Error{Source: name, Msg: "a Postman collection of format v1, which is not supported", Fix: "export it again from Postman as Collection v2.1"}
	}
	if c.Info == nil || c.Item == nil {
		return nil, &Error{Source: name, Path: "info", Msg: "not a Postman collection: there is no info or item", Fix: "export the collection from Postman as Collection v2.1"}
	}
	p := &postman{name: name, vars: map[string]string{}}
	f := &File{Header: []string{fmt.Sprintf("Imported by surge import postman from %s (collection %q).", name, c.Info.Name)}}
	for _, v := range c.Variable {
		if v.Key == "" || v.Disabled {
			continue
		}
		n := p.namer.name(v.Key)
		p.vars[v.Key] = n
		f.Vars = append(f.Vars, yaml.MapItem{Key: n, Value: literal(v.text())})
	}
	top := Scenario{Name: c.Info.Name}
	var scs []Scenario
	for i, it := range c.Item {
		path := fmt.Sprintf("item[%d]", i)
		if it.Item != nil {
			steps, err := p.items(it.Item, path+".item", c.Auth)
			if err != nil {
				return nil, err
			}
			scs = append(scs, Scenario{Name: it.Name, Flow: steps})
			continue
		}
		s, err := p.request(it, path, c.Auth)
		if err != nil {
			return nil, err
		}
		top.Flow = append(top.Flow, s)
	}
	if len(top.Flow) > 0 {
		scs = append([]Scenario{top}, scs...)
	}
	seen := map[string]bool{}
	for i := range scs {
		if scs[i].Name == "" {
			scs[i].Name = "requests"
		}
		base := scs[i].Name
		for n := 2; seen[scs[i].Name]; n++ {
			scs[i].Name = fmt.Sprintf("%s %d", base, n)
		}
		seen[scs[i].Name] = true
		if len(scs[i].Flow) == 0 {
			return nil, &Error{Source: name, Msg: fmt.Sprintf("folder %q has no requests", base), Fix: "add requests to it, or delete it"}
		}
	}
	if len(scs) == 0 {
		return nil, &Error{Source: name, Path: "item", Msg: "the collection has no requests", Fix: "add requests to it in Postman and export it again"}
	}
	for _, m := range p.missing {
		f.Vars = append(f.Vars, yaml.MapItem{Key: p.vars[m], Value: fmt.Sprintf("{{ env(%q, \"\") }}", m)})
	}
	if len(p.missing) > 0 {
		f.Header = append(f.Header, "Variables of a Postman environment, read with env(): pass --env "+strings.Join(p.missing, "=… --env ")+"=….")
	}
	f.Header = append(f.Header, p.notes...)
	f.Scenarios = scs
	relativize(f, ptrs(f.Scenarios))
	return f, nil
}

func ptrs(scs []Scenario) []*Scenario {
	out := make([]*Scenario, len(scs))
	for i := range scs {
		out[i] = &scs[i]
	}
	return out
}

// items converts the items of a folder.
func (p *postman) items(items []pmItem, path string, auth *pmAuth) ([]Step, error) {
	var out []Step
	for i, it := range items {
		ip := fmt.Sprintf("%s[%d]", path, i)
		a := auth
		if it.Auth != nil {
			a = it.Auth
		}
		if it.Item != nil {
			steps, err := p.items(it.Item, ip+".item", a)
			if err != nil {
				return nil, err
			}
			if len(steps) > 0 {
				out = append(out, Step{Steps: steps})
			}
			continue
		}
		s, err := p.request(it, ip, a)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// template converts Postman's {{name}} variables into expressions.
func (p *postman) template(s string) string {
	parts := pmVar.FindAllStringSubmatchIndex(s, -1)
	if parts == nil {
		return literal(s)
	}
	var b strings.Builder
	last := 0
	for _, m := range parts {
		b.WriteString(literal(s[last:m[0]]))
		name := s[m[2]:m[3]]
		if x, ok := pmDynamic[name]; ok {
			b.WriteString("{{ " + x + " }}")
		} else {
			v, ok := p.vars[name]
			if !ok {
				v = p.namer.name(name)
				p.vars[name] = v
				p.missing = append(p.missing, name)
			}
			b.WriteString("{{ " + v + " }}")
		}
		last = m[1]
	}
	b.WriteString(literal(s[last:]))
	return b.String()
}

// templateTree converts the strings of a JSON body.
func (p *postman) templateTree(v any) any {
	return mapTree(v, func(v any) any {
		if s, ok := v.(string); ok {
			return p.template(s)
		}
		return v
	})
}

// request converts one request item.
func (p *postman) request(it pmItem, path string, auth *pmAuth) (Step, error) {
	fail := func(sub, fix, format string, a ...any) (Step, error) {
		return Step{}, &Error{Source: p.name, Path: path + sub, Msg: fmt.Sprintf(format, a...) + fmt.Sprintf(" (request %q)", it.Name), Fix: fix}
	}
	if len(it.Request) == 0 {
		return fail("", "give it a request, or delete it", "the item is neither a folder nor a request")
	}
	var r pmRequest
	var asURL string
	if json.Unmarshal(it.Request, &asURL) == nil {
		r.URL, _ = json.Marshal(asURL)
	} else if err := json.Unmarshal(it.Request, &r); err != nil {
		return fail(".request", "export the collection again", "the request is not a Postman request: %v", err)
	}
	if r.Auth != nil {
		auth = r.Auth
	}
	var raw string
	var u pmURL
	if len(r.URL) == 0 {
		return fail(".request.url", "give the request a URL", "the request has no URL")
	}
	if json.Unmarshal(r.URL, &raw) != nil {
		if err := json.Unmarshal(r.URL, &u); err != nil {
			return fail(".request.url", "export the collection again", "the URL is neither text nor a Postman URL")
		}
		raw = u.Raw
	}
	if raw == "" {
		return fail(".request.url", "give the request a URL", "the request has no URL")
	}
	raw, _, _ = strings.Cut(raw, "#") // a fragment is not sent
	if !strings.Contains(raw, "://") && !strings.HasPrefix(raw, "{{") {
		raw = "http://" + raw // as Postman does
	}
	if !strings.HasPrefix(raw, "{{") {
		rest, ok := strings.CutPrefix(raw, "http://")
		if !ok {
			rest, ok = strings.CutPrefix(raw, "https://")
		}
		if !ok || rest == "" || strings.ContainsAny(rest[:1], "/?") {
			return fail(".request.url", "give an http or https URL, or one starting with a variable such as {{baseUrl}}", "URL %q is not http or https", raw)
		}
	}
	if q := strings.IndexByte(raw, '?'); q >= 0 && len(u.Query) > 0 {
		raw = raw[:q] // the query's items say which parameters are enabled
		var kept []string
		for _, kv := range u.Query {
			if !kv.Disabled {
				kept = append(kept, kv.Key+"="+kv.text())
			}
		}
		if len(kept) > 0 {
			raw += "?" + strings.Join(kept, "&")
		}
	}
	s := Step{Name: it.Name, Method: strings.ToUpper(r.Method), URL: p.template(raw)}
	if s.Method == "" {
		s.Method = http.MethodGet
	}
	if !httpc.ValidToken(s.Method) {
		return fail(".request.method", "give it a method such as GET or POST", "%q is not an HTTP method", r.Method)
	}
	contentType := ""
	for _, h := range r.Header {
		if h.Disabled || !httpc.ValidToken(h.Key) {
			continue
		}
		k := http.CanonicalHeaderKey(h.Key)
		if k == "Content-Type" {
			contentType = h.text()
		}
		s.Headers = setItem(s.Headers, k, p.template(h.text()))
	}
	if auth != nil {
		switch auth.Type {
		case "bearer":
			s.Headers = setItem(s.Headers, "Authorization", "Bearer "+p.template(authValue(auth.Bearer, "token")))
		case "basic":
			user, pass := authValue(auth.Basic, "username"), authValue(auth.Basic, "password")
			if pmVar.MatchString(user + pass) {
				p.notes = append(p.notes, fmt.Sprintf("%s: basic auth with variables is left out; write its Authorization header.", it.Name))
				break
			}
			s.Headers = setItem(s.Headers, "Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(user+":"+pass)))
		case "apikey":
			if authValue(auth.APIKey, "in") != "query" && httpc.ValidToken(authValue(auth.APIKey, "key")) {
				s.Headers = setItem(s.Headers, authValue(auth.APIKey, "key"), p.template(authValue(auth.APIKey, "value")))
			}
		case "noauth", "":
		default:
			p.notes = append(p.notes, fmt.Sprintf("%s: %s auth is left out.", it.Name, auth.Type))
		}
	}
	if b := r.Body; b != nil {
		switch b.Mode {
		case "raw":
			isJSON := b.Options.Raw.Language == "json" || strings.HasPrefix(contentType, "application/json")
			if tree, err := jsonValue([]byte(b.Raw)); isJSON && err == nil {
				s.JSON = p.templateTree(tree)
				s.Headers = without(s.Headers, "Content-Type")
			} else if b.Raw != "" {
				s.Body = ptr(p.template(b.Raw))
				if contentType == "" && isJSON {
					s.Headers = setItem(s.Headers, "Content-Type", "application/json")
				}
			}
		case "urlencoded":
			for _, kv := range b.URLEncoded {
				if !kv.Disabled {
					s.Form = setItem(s.Form, literal(kv.Key), p.template(kv.text()))
				}
			}
			s.Headers = without(s.Headers, "Content-Type")
		case "":
		default:
			p.notes = append(p.notes, fmt.Sprintf("%s: its %s body is left out; write it as body: with its Content-Type.", it.Name, b.Mode))
		}
	}
	if len(it.Event) > 0 {
		p.notes = append(p.notes, fmt.Sprintf("%s: its scripts (tests, pre-request) are left out; write checks as expect: and values as capture:.", it.Name))
	}
	return s, nil
}
