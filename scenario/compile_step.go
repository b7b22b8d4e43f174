package scenario

import (
	"errors"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"

	"github.com/surge-load/surge/internal/expr"
	"github.com/surge-load/surge/protocol/httpc"
)

// steps compiles a list of steps.
func (c *compiler) steps(ss []Step, path string, sc *expr.Scope) []*step {
	out := make([]*step, 0, len(ss))
	for i, s := range ss {
		out = append(out, c.step(s, fmt.Sprintf("%s[%d]", path, i), sc))
	}
	return out
}

// step compiles one step.
func (c *compiler) step(s Step, path string, sc *expr.Scope) *step {
	st := &step{path: path, sleep: s.Sleep, repeat: s.Repeat}
	kinds := []string{}
	if s.Request != nil {
		kinds = append(kinds, "a request")
		st.kind = kindRequest
	}
	if !s.Sleep.IsZero() {
		kinds = append(kinds, "sleep")
		st.kind = kindSleep
	}
	if len(s.Steps) > 0 {
		kinds = append(kinds, "steps")
		st.kind = kindGroup
	}
	kinds = c.streamKind(s, st, kinds)
	if s.GRPC != nil {
		kinds = append(kinds, "grpc")
		st.kind = kindGRPC
	}
	effects := len(s.Set) > 0 || len(s.Append) > 0 || len(s.Remove) > 0
	if len(kinds) == 0 && effects {
		st.kind = kindSet
	}
	switch {
	case len(kinds) > 1:
		c.fail(path, "the step has %s", "split it into one step for each", strings.Join(kinds, " and "))
	case len(kinds) == 0 && !effects:
		c.fail(path, "the step does nothing", "give it a request (get: /path), sleep, steps, or set, append or remove")
	}
	if s.When != "" {
		st.when = c.expr(s.When, path+".when", sc)
	}
	if st.kind != kindRequest && st.kind != kindGRPC {
		for key, set := range map[string]bool{"expect": s.Expect != nil, "capture": len(s.Capture) > 0 && !st.stream()} {
			if set {
				c.fail(path+"."+key, "%s applies to the response of a request, and the step has none", "move it to a request step", key)
			}
		}
	}
	if st.kind != kindGroup && (s.Repeat != 0 || s.While != "") {
		c.fail(path, "repeat and while repeat steps, and the step has none", "put the steps to repeat under steps")
	}
	if s.Repeat < 0 {
		c.fail(path+".repeat", "repeat %d is negative", "give the number of passes, or use while alone", s.Repeat)
	}
	if s.Sleep.Min < 0 || s.Sleep.Max < 0 || (s.Sleep.Max > 0 && s.Sleep.Max < s.Sleep.Min) {
		c.fail(path+".sleep", "sleep %v..%v is not a range of durations from low to high", "write it as 500ms or 1s..3s", s.Sleep.Min, s.Sleep.Max)
	}
	if (st.kind == kindRequest || st.kind == kindGRPC || st.stream()) && len(s.Set) > 0 {
		c.fail(path+".set", "set is for steps without a request", "use capture to set variables from the response")
	}
	if s.While != "" {
		st.while = c.expr(s.While, path+".while", sc)
	}
	if s.ErrorKey != "" {
		field, ok := strings.CutPrefix(s.ErrorKey, "json.")
		switch {
		case s.Request == nil:
			c.fail(path+".error_key", "error_key reads the body of a request's failed response, and the step has no request", "move it to a request step")
		case !ok || field == "" || strings.ContainsAny(field, " \t"):
			c.fail(path+".error_key", "error_key %q is not a field of the JSON body", "write it as json.FIELD, such as json.error or json.error.code", s.ErrorKey)
		default:
			st.errorKey, st.errorKeySrc = field, s.ErrorKey
		}
	}
	switch s.OnFailure {
	case "", OnFailureStop:
	case OnFailureContinue:
		st.goOn = true
	default:
		c.fail(path+".on_failure", "on_failure %q is neither stop nor continue", "write on_failure: continue to go on after a failure, or leave it out to stop the iteration's requests", s.OnFailure)
	}
	st.steps = c.steps(s.Steps, path+".steps", sc)

	after := sc
	if st.kind == kindRequest {
		after = sc.WithResponse()
		st.req = c.request(s, path, sc)
		st.expect = c.expect(s.Expect, path+".expect", after)
	}
	if st.stream() {
		after = c.streamStep(s, st, path, sc)
	}
	if st.kind == kindGRPC {
		after = c.grpcStep(s, st, path+".grpc", sc)
	}
	st.capture = c.assigns(s.Capture, path+".capture", after, false)
	st.set = c.assigns(s.Set, path+".set", after, false)
	st.append = c.assigns(s.Append, path+".append", after, true)
	st.remove = c.assigns(s.Remove, path+".remove", after, true)
	if st.kind == kindRequest || st.kind == kindGRPC || st.stream() {
		st.needs()
	}
	return st
}

// needs works out what the expressions after the request read of the
// response.
func (st *step) needs() {
	var xs []*expr.Expression
	if st.expect != nil {
		xs = append(xs, st.expect.that...)
		st.keepBody = len(st.expect.contains) > 0
	}
	for _, as := range [][]assign{st.capture, st.append, st.remove} {
		for _, a := range as {
			xs = append(xs, a.x)
		}
	}
	for _, x := range xs {
		if x == nil {
			continue
		}
		for _, path := range x.Slots {
			sl := slot{path: path, name: expr.SlotPrefix + path}
			if !slices.Contains(st.slots, sl) {
				st.slots = append(st.slots, sl)
			}
		}
		st.needJSON = st.needJSON || slices.Contains(x.Uses, expr.NameJSON)
		st.needBody = st.needBody || slices.Contains(x.Uses, expr.NameBody)
		st.needHeaders = st.needHeaders || slices.Contains(x.Uses, expr.NameHeaders)
	}
	st.keepBody = st.keepBody || st.needJSON || st.needBody || len(st.slots) > 0 || st.errorKey != ""
}

// expr compiles an expression at path.
func (c *compiler) expr(src, path string, sc *expr.Scope) *expr.Expression {
	x, err := c.f.Compile(src, sc)
	if err != nil {
		c.report(path, err)
		return nil
	}
	c.use(x)
	return x
}

// use notes the names x reads, for the current scenario.
func (c *compiler) use(x *expr.Expression) {
	if c.uses == nil {
		return
	}
	for _, n := range x.Uses {
		c.uses[n] = true
	}
}

// template compiles a template at path.
func (c *compiler) template(src, path string, sc *expr.Scope) *expr.Template {
	t, err := c.f.CompileTemplate(src, sc)
	if err != nil {
		c.report(path, err)
		return nil
	}
	c.useTemplate(t)
	return t
}

func (c *compiler) useTemplate(t *expr.Template) {
	for _, x := range t.Expressions() {
		c.use(x)
	}
}

// assigns compiles the variables or pools of a capture, set, append or
// remove.
func (c *compiler) assigns(m map[string]string, path string, sc *expr.Scope, pools bool) []assign {
	var out []assign
	for _, name := range slices.Sorted(maps.Keys(m)) {
		p := path + "." + name
		a := assign{name: name}
		if pools {
			a.pool = c.p.pools[name]
			if a.pool == nil {
				c.failKey(p, "there is no pool %s", fixName(name, slices.Sorted(maps.Keys(c.p.pools)), "declare it under pools, as in pools: {"+name+": []}"), name)
				continue
			}
		}
		if a.x = c.expr(m[name], p, sc); a.x != nil {
			out = append(out, a)
		}
	}
	return out
}

// request compiles the request of step s.
func (c *compiler) request(s Step, path string, sc *expr.Scope) *request {
	r := s.Request
	out := &request{method: strings.ToUpper(r.Method), timeout: r.Timeout}
	if !httpc.ValidToken(r.Method) {
		c.fail(path+".method", "%q is not an HTTP method", "use GET, POST, PUT, PATCH, DELETE, or another method name", r.Method)
	}
	if r.Timeout < 0 {
		c.fail(path+".timeout", "timeout %v is negative", "give a positive duration such as 5s", r.Timeout)
	}
	raw := r.URL
	switch {
	case strings.HasPrefix(raw, "/"):
		if c.target == "" {
			c.fail(path+".url", "the URL %q is relative and there is no target", "set target: http://host:port at the top, or pass --target", raw)
		}
		raw = c.target + raw
	case strings.HasPrefix(raw, "http://"), strings.HasPrefix(raw, "https://"), strings.HasPrefix(raw, "{{"):
	default:
		c.fail(path+".url", "the URL %q is neither a path starting with / nor an absolute http:// or https:// URL", "write /path, relative to target, or http://host/path", r.URL)
	}
	if t, err := c.f.CompileURL(raw, sc); err != nil {
		// Offsets count from the URL as written, not with the target.
		var ee *expr.Error
		if errors.As(err, &ee) {
			ee.Offset -= len(raw) - len(r.URL)
		}
		c.report(path+".url", err)
	} else {
		c.useTemplate(t)
		out.url = t
		if u, ok := t.Constant(); ok {
			if err := httpc.CheckURL(u); err != nil {
				c.fail(path+".url", "%v", "write /path, relative to target, or http://host:port/path", urlProblem(err))
			}
		}
	}
	name := s.Name
	if name == "" {
		name = out.method + " " + pathTemplate(r.URL)
	}
	out.ep = c.endpoint(name)

	bodies := 0
	for _, set := range []bool{r.JSON != nil, len(r.Form) > 0, r.Body != ""} {
		if set {
			bodies++
		}
	}
	if bodies > 1 {
		c.fail(path, "the request has more than one of json, form and body", "keep one body")
	}
	headers := map[string]string{} // set by the request, canonical names
	switch {
	case r.JSON != nil:
		headers["Content-Type"] = "application/json"
		out.json = c.f.CompileJSON(r.JSON, sc, path+".json", func(p string, err error) { c.report(p, err) })
	case len(r.Form) > 0:
		headers["Content-Type"] = "application/x-www-form-urlencoded"
		out.form = c.keyValues(r.Form, path+".form", sc)
	case r.Body != "":
		out.body = c.template(r.Body, path+".body", sc)
	}
	for k, v := range r.Headers {
		if !validHeader(k) {
			c.failKey(path+".headers."+k, "%q is not a header name", "write names such as X-Request-Id", k)
		}
		headers[http.CanonicalHeaderKey(k)] = v
	}
	defaults := map[string]string{}
	for k, v := range c.specHeaders {
		if _, ok := headers[http.CanonicalHeaderKey(k)]; !ok {
			defaults[k] = v
		}
	}
	out.headers = append(c.keyValues(defaults, "defaults.headers", sc), c.keyValues(headers, path+".headers", sc)...)
	for i := range out.headers {
		out.headers[i].key = http.CanonicalHeaderKey(out.headers[i].key)
	}
	out.static = http.Header{}
	for _, kv := range out.headers {
		v, ok := kv.val.Constant()
		if !ok {
			out.static = nil
			continue
		}
		if err := httpc.CheckHeader(kv.key, v); err != nil {
			c.fail(path+".headers."+kv.key, "%v", "keep a header value on one line", err)
		}
		if out.static != nil {
			out.static.Set(kv.key, v)
		}
	}
	out.query = c.keyValues(r.Query, path+".query", sc)
	return out
}

// validHeader reports whether k can be a header name.
func validHeader(k string) bool { return httpc.ValidToken(k) }

// keyValues compiles the templates of the values of m, sorted by key.
func (c *compiler) keyValues(m map[string]string, path string, sc *expr.Scope) []keyValue {
	var out []keyValue
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if t := c.template(m[k], path+"."+k, sc); t != nil {
			out = append(out, keyValue{key: k, val: t})
		}
	}
	return out
}

// endpoint returns the index of the statistics row called name.
func (c *compiler) endpoint(name string) int {
	i, ok := c.eps[name]
	if !ok {
		i = len(c.p.endpoints)
		c.p.endpoints = append(c.p.endpoints, name)
		c.eps[name] = i
	}
	if !slices.Contains(c.scEps, i) {
		c.scEps = append(c.scEps, i)
	}
	return i
}

// pathTemplate returns the path of a URL template, without its scheme,
// host and query.
func pathTemplate(u string) string {
	if rest, ok := strings.CutPrefix(u, "http://"); ok {
		u = rest
	} else if rest, ok := strings.CutPrefix(u, "https://"); ok {
		u = rest
	} else {
		return cutQuery(u)
	}
	if i := strings.IndexByte(u, '/'); i >= 0 {
		return cutQuery(u[i:])
	}
	return "/"
}

func cutQuery(u string) string {
	// A query starts at a ? outside {{ }}.
	depth := 0
	for i := 0; i < len(u); i++ {
		switch {
		case strings.HasPrefix(u[i:], "{{"):
			depth++
			i++
		case strings.HasPrefix(u[i:], "}}") && depth > 0:
			depth--
			i++
		case u[i] == '?' && depth == 0:
			return u[:i]
		}
	}
	return u
}

// expect compiles an expectation.
func (c *compiler) expect(e *Expect, path string, sc *expr.Scope) *expect {
	if e == nil {
		return nil
	}
	out := &expect{status: e.Status, contains: []byte(e.Contains), maxDuration: e.MaxDuration}
	for i, code := range e.Status {
		if code < 100 || code > 599 {
			c.fail(fmt.Sprintf("%s.status[%d]", path, i), "%d is not an HTTP status", "give codes from 100 to 599, such as 200 or [200, 201]", code)
		}
	}
	if e.MaxDuration < 0 {
		c.fail(path+".max_duration", "max_duration %v is negative", "give a positive duration such as 500ms", e.MaxDuration)
	}
	for i, src := range e.That {
		if x := c.expr(src, fmt.Sprintf("%s.that[%d]", path, i), sc); x != nil {
			out.that = append(out.that, x)
		}
	}
	return out
}
