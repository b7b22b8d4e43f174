package importer

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"path"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/goccy/go-yaml"

	"github.com/surge-load/surge/protocol/httpc"
)

// HAROptions configure HAR.
type HAROptions struct {
	// Hosts are the hosts (host or host:port) whose requests are
	// imported; empty means the most requested one.
	Hosts []string
	// IncludeStatic keeps requests for static assets (scripts, styles,
	// images, fonts), which are left out by default.
	IncludeStatic bool
}

// The parts of a HAR 1.2 file that are imported.
type harFile struct {
	Log *struct {
		Creator struct {
			Name    string `json:"name"`
			Version string `json:"version"`
		} `json:"creator"`
		Pages []struct {
			ID    string `json:"id"`
			Title string `json:"title"`
		} `json:"pages"`
		Entries *[]harEntry `json:"entries"`
	} `json:"log"`
}

type harEntry struct {
	PageRef         string    `json:"pageref"`
	StartedDateTime time.Time `json:"startedDateTime"`
	Time            float64   `json:"time"` // milliseconds
	Request         struct {
		Method   string      `json:"method"`
		URL      string      `json:"url"`
		Headers  []harHeader `json:"headers"`
		PostData *struct {
			MimeType string      `json:"mimeType"`
			Text     string      `json:"text"`
			Params   []harHeader `json:"params"`
		} `json:"postData"`
	} `json:"request"`
	Response struct {
		Status  int         `json:"status"`
		Headers []harHeader `json:"headers"`
		Content struct {
			MimeType string `json:"mimeType"`
			Text     string `json:"text"`
			Encoding string `json:"encoding"`
		} `json:"content"`
	} `json:"response"`
}

type harHeader struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// noiseHeaders are request headers the browser adds by itself, or that the
// scenario's HTTP client and cookie jar take care of.
var noiseHeaders = []string{"accept", "accept-encoding", "accept-language", "cache-control", "connection", "content-length",
	"cookie", "dnt", "host", "if-modified-since", "if-none-match", "origin", "pragma", "priority", "referer",
	"sec-gpc", "te", "upgrade-insecure-requests", "user-agent", "keep-alive", "purpose", "x-client-data"}

func isNoise(name string) bool {
	n := strings.ToLower(name)
	return strings.HasPrefix(n, ":") || strings.HasPrefix(n, "sec-ch-") || strings.HasPrefix(n, "sec-fetch-") ||
		slices.Contains(noiseHeaders, n)
}

var staticExts = []string{".js", ".mjs", ".css", ".png", ".jpg", ".jpeg", ".gif", ".svg", ".ico", ".webp", ".avif",
	".woff", ".woff2", ".ttf", ".otf", ".eot", ".map", ".mp4", ".webm", ".mp3", ".wasm"}

// isStatic reports whether an entry fetched a static asset.
func isStatic(e *harEntry, u *url.URL) bool {
	mt := strings.ToLower(e.Response.Content.MimeType)
	for _, p := range []string{"image/", "font/", "text/css", "javascript", "video/", "audio/", "application/wasm"} {
		if strings.Contains(mt, p) {
			return true
		}
	}
	return slices.Contains(staticExts, strings.ToLower(path.Ext(u.Path)))
}

// HAR imports a browser recording (HAR 1.2, as browsers' developer tools
// and proxies save it) into a scenario whose flow replays it: the requests
// of the chosen hosts in the order they started, grouped by page, with the
// recorded gaps of half a second or more as sleeps, browser-added headers
// and cookies left out (the scenario's cookie jar keeps the session), the
// recorded status expected, and values that came from an earlier JSON
// response (ids, tokens) captured from it and reused.
func HAR(name string, src []byte, opts HAROptions) (*File, error) {
	var h harFile
	if err := decodeJSON(name, src, &h, "a HAR file (browser developer tools: Network, Save all as HAR)"); err != nil {
		return nil, err
	}
	if h.Log == nil || h.Log.Entries == nil {
		return nil, &Error{Source: name, Path: "log.entries", Msg: "not a HAR file: there is no log.entries",
			Fix: "save the recording from the browser's developer tools (Network, Save all as HAR)"}
	}
	entries := slices.Clone(*h.Log.Entries)
	sort.SliceStable(entries, func(i, j int) bool { return entries[i].StartedDateTime.Before(entries[j].StartedDateTime) })
	urls := make([]*url.URL, len(entries))
	hosts := map[string]int{}
	var hostOrder []string
	for i := range entries {
		e := &entries[i]
		u, err := url.Parse(e.Request.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			continue // data:, blob:, chrome-extension:, ws:
		}
		if !httpc.ValidToken(e.Request.Method) {
			return nil, &Error{Source: name, Path: fmt.Sprintf("log.entries[%d].request.method", i), Msg: fmt.Sprintf("%q is not an HTTP method", e.Request.Method),
				Fix: "export the recording again"}
		}
		urls[i] = u
		if hosts[u.Host] == 0 {
			hostOrder = append(hostOrder, u.Host)
		}
		hosts[u.Host]++
	}
	if len(hostOrder) == 0 {
		return nil, &Error{Source: name, Path: "log.entries", Msg: "the recording has no http or https request",
			Fix: "record while the page loads and you use it"}
	}
	chosen := opts.Hosts
	if len(chosen) == 0 {
		best := hostOrder[0]
		for _, host := range hostOrder {
			if hosts[host] > hosts[best] {
				best = host
			}
		}
		chosen = []string{best}
	}
	for _, host := range chosen {
		if hosts[host] == 0 {
			return nil, &Error{Source: name, Msg: fmt.Sprintf("no request of the recording went to host %s", host),
				Fix: "choose among: " + strings.Join(hostOrder, ", ")}
		}
	}

	var (
		flat         []Step // requests and sleeps, in order
		pageOf       []int  // the page of each of flat
		caps         captures
		static, away int
		pages        []string
		page         = "\x00" // no page yet
		lastEnd      time.Time
	)
	titles := map[string]string{}
	for _, p := range h.Log.Pages {
		titles[p.ID] = p.Title
	}
	for i := range entries {
		e, u := &entries[i], urls[i]
		switch {
		case u == nil || !slices.Contains(chosen, u.Host):
			away++
			continue
		case e.Request.Method == http.MethodOptions: // a CORS preflight the browser sends by itself
			away++
			continue
		case !opts.IncludeStatic && isStatic(e, u):
			static++
			continue
		}
		if e.PageRef != page || len(pages) == 0 {
			page = e.PageRef
			t := titles[page]
			if t == "" {
				t = page
			}
			pages = append(pages, t)
		}
		if !lastEnd.IsZero() {
			if gap := e.StartedDateTime.Sub(lastEnd); gap >= 500*time.Millisecond {
				flat = append(flat, Step{Sleep: gap.Round(100 * time.Millisecond).String()})
				pageOf = append(pageOf, len(pages)-1)
			}
		}
		if end := e.StartedDateTime.Add(time.Duration(e.Time * float64(time.Millisecond))); end.After(lastEnd) {
			lastEnd = end
		}
		flat = append(flat, harStep(e, u, len(chosen) == 1, &caps))
		pageOf = append(pageOf, len(pages)-1)
		caps.learn(e, len(flat)-1)
	}
	if len(flat) == 0 {
		return nil, &Error{Source: name, Msg: fmt.Sprintf("nothing to import: %d static assets and %d requests to other hosts", static, away),
			Fix: "pass --include-static, or --host with one of: " + strings.Join(hostOrder, ", ")}
	}
	for _, cp := range caps.created {
		flat[cp.step].Capture = append(flat[cp.step].Capture, yaml.MapItem{Key: cp.name, Value: cp.expr})
	}
	sc := Scenario{Name: "recorded"}
	for i, st := range flat {
		if i == 0 || pageOf[i] != pageOf[i-1] {
			sc.Flow = append(sc.Flow, Step{Steps: []Step{}})
		}
		g := &sc.Flow[len(sc.Flow)-1]
		g.Steps = append(g.Steps, st)
	}
	f := &File{}
	creator := "a browser"
	if c := h.Log.Creator; c.Name != "" {
		creator = strings.TrimSpace(c.Name + " " + c.Version)
	}
	f.Header = append(f.Header, fmt.Sprintf("Imported by surge import har from %s, recorded by %s.", name, creator),
		fmt.Sprintf("%s of host %s, %s; left out: %d static assets, %d to other hosts or preflights.",
			plural(countRequests(sc.Flow), "request"), strings.Join(chosen, ", "), plural(len(pages), "page"), static, away))
	if n := caps.used(); n > 0 {
		f.Header = append(f.Header, fmt.Sprintf("%s from earlier responses are captured and reused: %s.", plural(n, "value"), strings.Join(caps.names(), ", ")))
	}
	for i, p := range pages {
		f.Header = append(f.Header, fmt.Sprintf("  flow[%d]: %s", i, p))
	}
	if len(chosen) == 1 {
		f.Target = urls[indexOfHost(urls, chosen[0])].Scheme + "://" + chosen[0]
	}
	f.Scenarios = []Scenario{sc}
	return f, nil
}

func indexOfHost(urls []*url.URL, host string) int {
	for i, u := range urls {
		if u != nil && u.Host == host {
			return i
		}
	}
	return 0
}

func countRequests(ss []Step) int {
	n := 0
	for _, s := range ss {
		switch {
		case s.Steps != nil:
			n += countRequests(s.Steps)
		case s.URL != "":
			n++
		}
	}
	return n
}

// harStep turns an entry into a request step, its values found in earlier
// responses replaced by their captures.
func harStep(e *harEntry, u *url.URL, relative bool, caps *captures) Step {
	s := Step{Method: strings.ToUpper(e.Request.Method)}
	// The path, segment by segment.
	segs := strings.Split(u.EscapedPath(), "/")
	for i, seg := range segs {
		if v, err := url.PathUnescape(seg); err == nil && seg != "" {
			if ref, ok := caps.ref(v); ok {
				segs[i] = ref
				continue
			}
		}
		segs[i] = literal(seg)
	}
	target := strings.Join(segs, "/")
	if target == "" {
		target = "/"
	}
	if !relative {
		target = u.Scheme + "://" + u.Host + target
	}
	if u.RawQuery != "" {
		parts := strings.Split(u.RawQuery, "&")
		for i, p := range parts {
			k, v, ok := strings.Cut(p, "=")
			if uv, err := url.QueryUnescape(v); ok && err == nil {
				if ref, found := caps.ref(uv); found {
					parts[i] = literal(k) + "=" + ref
					continue
				}
			}
			parts[i] = literal(p)
		}
		target += "?" + strings.Join(parts, "&")
	}
	s.URL = target
	contentType := ""
	for _, hd := range e.Request.Headers {
		if isNoise(hd.Name) || !httpc.ValidToken(hd.Name) {
			continue
		}
		k := http.CanonicalHeaderKey(hd.Name)
		if k == "Content-Type" {
			contentType = hd.Value
		}
		v, found := caps.ref(hd.Value)
		if !found {
			if tok, ok := strings.CutPrefix(hd.Value, "Bearer "); ok {
				if ref, ok := caps.ref(tok); ok {
					v, found = "Bearer "+ref, true
				}
			}
		}
		if !found {
			v = literal(hd.Value)
		}
		s.Headers = setItem(s.Headers, k, v)
	}
	if pd := e.Request.PostData; pd != nil {
		mt := pd.MimeType
		if mt == "" {
			mt = contentType
		}
		tree, jsonErr := jsonValue([]byte(pd.Text))
		switch {
		case strings.HasPrefix(mt, "application/json") && jsonErr == nil:
			s.JSON = caps.tree(tree)
			s.Headers = without(s.Headers, "Content-Type")
		case strings.HasPrefix(mt, "application/x-www-form-urlencoded"):
			if fm, ok := formOf(pd.Text); ok {
				for i := range fm {
					if ref, found := caps.ref(strings.ReplaceAll(fm[i].Value.(string), `{{ "{{" }}`, "{{")); found {
						fm[i].Value = ref
					}
				}
				s.Form = fm
				s.Headers = without(s.Headers, "Content-Type")
			} else {
				s.Body = ptr(literal(pd.Text))
			}
		case pd.Text != "":
			s.Body = ptr(literal(pd.Text))
		}
	}
	switch st := e.Response.Status; {
	case st == http.StatusNotModified: // the browser's cache asked; the scenario does not
		s.Status = []int{http.StatusOK}
	case st >= 100 && st <= 599:
		s.Status = []int{st}
	}
	return s
}

// captures are the values of earlier JSON responses a later request may
// reuse: each becomes a capture of the first step whose response held it,
// once a request uses it.
type captures struct {
	known   map[string]*capture // by value
	created []*capture
	namer   namer
}

type capture struct {
	step int    // the step whose response holds the value
	expr string // where in it, as in json.items[0].id
	key  string // the JSON key, for the name
	name string // set once used
}

// learn records the values of e's JSON response, the response of step
// index.
func (c *captures) learn(e *harEntry, index int) {
	ct := e.Response.Content
	if !strings.Contains(ct.MimeType, "json") || ct.Text == "" {
		return
	}
	text := ct.Text
	if ct.Encoding == "base64" {
		b, err := base64.StdEncoding.DecodeString(text)
		if err != nil {
			return
		}
		text = string(b)
	}
	v, err := jsonValue([]byte(text))
	if err != nil {
		return
	}
	if c.known == nil {
		c.known = map[string]*capture{}
	}
	var walk func(v any, expr, key string, depth int)
	walk = func(v any, expr, key string, depth int) {
		if depth > 8 {
			return
		}
		switch x := v.(type) {
		case map[string]any:
			for _, k := range sortedKeys(x) {
				walk(x[k], memberExpr(expr, k), k, depth+1)
			}
		case []any:
			for i, e := range x {
				if i >= 20 {
					break
				}
				walk(e, fmt.Sprintf("%s[%d]", expr, i), key, depth+1)
			}
		case string:
			if _, seen := c.known[x]; !seen && worthCapturing(x, key) {
				c.known[x] = &capture{step: index, expr: expr, key: key}
			}
		case int64:
			if s := fmt.Sprint(x); c.known[s] == nil && worthCapturing(s, key) {
				c.known[s] = &capture{step: index, expr: expr, key: key}
			}
		}
	}
	walk(v, "json", "", 0)
}

// worthCapturing says whether a response value is likely an id or token
// a later request reuses: long enough not to match by chance, or under a
// key that says so.
func worthCapturing(v, key string) bool {
	k := strings.ToLower(key)
	idLike := strings.HasSuffix(k, "id") || strings.Contains(k, "token") || strings.Contains(k, "csrf") ||
		strings.Contains(k, "key") || strings.Contains(k, "session")
	return v != "" && len(v) <= 512 && (idLike || len(v) >= 8)
}

// memberExpr is the expression for key of the value of expr.
func memberExpr(expr, key string) string {
	if identifier(key) == key && !strings.ContainsAny(key[:1], "0123456789") {
		return expr + "." + key
	}
	b, _ := json.Marshal(key)
	return expr + "[" + string(b) + "]"
}

// ref returns the template for v if an earlier response held it; values
// are matched whole: a path segment, a query value, a header, a field.
func (c *captures) ref(v string) (string, bool) {
	cp, ok := c.known[v]
	if !ok {
		return "", false
	}
	if cp.name == "" {
		want := cp.key
		if want == "" || strings.EqualFold(want, "id") {
			want = "id"
		}
		cp.name = c.namer.name(want)
		c.created = append(c.created, cp)
	}
	return "{{ " + cp.name + " }}", true
}

// tree replaces the values of a JSON body found in earlier responses.
func (c *captures) tree(v any) any {
	return mapTree(v, func(v any) any {
		switch x := v.(type) {
		case string:
			if ref, ok := c.ref(x); ok {
				return ref
			}
			return literal(x)
		case int64:
			if ref, ok := c.ref(fmt.Sprint(x)); ok {
				return ref
			}
		}
		return v
	})
}

func (c *captures) used() int { return len(c.created) }

func (c *captures) names() []string {
	var out []string
	for _, cp := range c.created {
		out = append(out, cp.name)
	}
	return out
}
