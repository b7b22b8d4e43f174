package scenario

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/expr-lang/expr/types"

	"github.com/surge-load/surge/internal/expr"
	"github.com/surge-load/surge/protocol/sse"
	"github.com/surge-load/surge/protocol/ws"
)

// nameEvent is what the expressions of an SSE step call the event.
const nameEvent = "event"

// streamClients are a program's SSE and WebSocket clients, shared by all
// its users; made when the first step needs one.
type streamClients struct {
	sse *sse.Client
	ws  *ws.Client
}

// A compiled SSE step. Its HTTP request is the step's req.
type sseStep struct {
	hold, idle    time.Duration
	events        int64
	until         *expr.Expression
	lastID        *expr.Template
	reconnect     bool
	maxReconnects int
	sentAt        *expr.Expression
	sentAtPath    string // sentAt is json.PATH, read without decoding the event
	sentAtFast    func([]byte) (time.Time, bool)
	unit          time.Duration
	perEvent      needs // what until and sentAt read of each event
}

// A compiled WebSocket step. Its handshake request is the step's req.
type wsStep struct {
	closeCode int
	actions   []*wsAction
}

// A compiled WebSocket action.
type wsAction struct {
	path    string
	send    *expr.Template
	json    expr.JSONNode
	await   *expr.Expression
	timeout time.Duration
	ep      int // the row of an await
	capture []assign
	needs   needs // what await and capture read of the message
	hold    time.Duration
}

// needs says what a set of expressions reads of an event or a message.
type needs struct {
	slots      []slot
	json, body bool
}

// needsOf works out what xs read.
func needsOf(xs ...*expr.Expression) needs {
	var n needs
	for _, x := range xs {
		if x == nil {
			continue
		}
		for _, path := range x.Slots {
			if sl := (slot{path: path, name: expr.SlotPrefix + path}); !slices.Contains(n.slots, sl) {
				n.slots = append(n.slots, sl)
			}
		}
		n.json = n.json || slices.Contains(x.Uses, expr.NameJSON)
		n.body = n.body || slices.Contains(x.Uses, expr.NameBody)
	}
	return n
}

// stream reports whether s is an SSE or a WebSocket step.
func (st *step) stream() bool { return st.kind == kindSSE || st.kind == kindWS }

// streamKind notes the stream of s among the kinds of step it has.
func (c *compiler) streamKind(s Step, st *step, kinds []string) []string {
	if s.SSE != nil {
		kinds = append(kinds, "sse")
		st.kind = kindSSE
	}
	if s.WebSocket != nil {
		kinds = append(kinds, "ws")
		st.kind = kindWS
	}
	return kinds
}

// streamVars declares the variables the WebSocket actions of s capture.
func (c *compiler) streamVars(s Step, path string, vars []string) []string {
	if s.WebSocket == nil {
		return vars
	}
	for i, a := range s.WebSocket.Actions {
		for _, name := range slices.Sorted(maps.Keys(a.Capture)) {
			p := fmt.Sprintf("%s.ws.actions[%d].capture.%s", path, i, name)
			if c.declareName(p, name, "variable") && !slices.Contains(vars, name) {
				vars = append(vars, name)
			}
		}
	}
	return vars
}

// streamStep compiles the SSE or WebSocket part of s and returns the scope
// of the step's Capture, Append and Remove.
func (c *compiler) streamStep(s Step, st *step, path string, sc *expr.Scope) *expr.Scope {
	if st.kind == kindSSE {
		return c.sseStep(s, st, path+".sse", sc)
	}
	return c.wsStep(s, st, path+".ws", sc)
}

// streamRequest compiles the HTTP request that opens a stream into st.req.
func (c *compiler) streamRequest(st *step, name, method, url string, headers map[string]string, body string, timeout time.Duration, path string, sc *expr.Scope) {
	if url == "" {
		c.fail(path+".url", "the step has no URL", "give it one, such as url: /api/v1/events")
	}
	st.req = c.request(Step{Name: name, Request: &Request{Method: method, URL: url, Headers: headers, Body: body, Timeout: timeout}}, path, sc)
}

// timeUnits are the units of SSE.SentAtUnit.
var timeUnits = map[string]time.Duration{"": time.Nanosecond, "ns": time.Nanosecond, "us": time.Microsecond, "ms": time.Millisecond, "s": time.Second}

// jsonPathRE matches an expression that is a simple path into json.
var jsonPathRE = regexp.MustCompile(`^\s*json((\.[A-Za-z_][A-Za-z0-9_]*|\[\d+\])+)\s*$`)

func (c *compiler) sseStep(s Step, st *step, path string, sc *expr.Scope) *expr.Scope {
	e := s.SSE
	method := e.Method
	if method == "" {
		method = "GET"
	}
	name := s.Name
	if name == "" {
		name = "SSE " + pathTemplate(e.URL)
	}
	c.streamRequest(st, name, method, e.URL, e.Headers, e.Body, e.Timeout, path, sc)
	for key, d := range map[string]time.Duration{"hold": e.Hold, "idle_timeout": e.IdleTimeout} {
		if d < 0 {
			c.fail(path+"."+key, "%s %v is negative", "give a positive duration such as 30s", key, d)
		}
	}
	if e.Events < 0 {
		c.fail(path+".events", "events %d is negative", "give the number of events to wait for", e.Events)
	}
	if e.MaxReconnects < 0 {
		c.fail(path+".max_reconnects", "max_reconnects %d is negative", "give a bound, or leave it out for none", e.MaxReconnects)
	} else if e.MaxReconnects > 0 && !e.Reconnect {
		c.fail(path+".max_reconnects", "max_reconnects applies to reconnections, and reconnect is off", "add reconnect: true")
	}
	unit, ok := timeUnits[e.SentAtUnit]
	if !ok {
		c.fail(path+".sent_at_unit", "%q is not a unit of time", "use ns, us, ms or s", e.SentAtUnit)
	}
	if _, taken := sc.Types[nameEvent]; taken {
		c.fail(path, "%s is a variable here, and an sse step calls its event so", "rename the variable", nameEvent)
	}
	after := sc.WithResponse()
	after.Types[nameEvent] = types.TypeOf(map[string]any(nil))
	ss := &sseStep{hold: e.Hold, idle: e.IdleTimeout, events: int64(e.Events), reconnect: e.Reconnect, maxReconnects: e.MaxReconnects, unit: unit}
	if e.Until != "" {
		ss.until = c.expr(e.Until, path+".until", after)
	}
	if e.LastEventID != "" {
		ss.lastID = c.template(e.LastEventID, path+".last_event_id", sc)
	}
	if e.SentAt != "" {
		ss.sentAt = c.expr(e.SentAt, path+".sent_at", after)
		if m := jsonPathRE.FindStringSubmatch(e.SentAt); m != nil && ss.sentAt != nil && len(ss.sentAt.Slots) == 1 {
			p := strings.NewReplacer("[", ".", "]", "").Replace(strings.TrimPrefix(m[1], "."))
			if p == ss.sentAt.Slots[0] {
				ss.sentAtPath = p
				ss.sentAtFast = sse.JSONTime(p, unit)
			}
		}
	}
	ss.perEvent = needsOf(ss.until)
	if ss.sentAtPath == "" {
		ss.perEvent = needsOf(ss.until, ss.sentAt)
	}
	st.sse = ss
	if c.p.streams.sse == nil {
		h := c.p.http
		c.p.streams.sse = sse.New(sse.Options{Timeout: h.Timeout, InsecureTLS: h.InsecureTLS, Resolver: h.Resolver, LocalAddrs: h.LocalAddrs})
	}
	return after
}

func (c *compiler) wsStep(s Step, st *step, path string, sc *expr.Scope) *expr.Scope {
	e := s.WebSocket
	name := s.Name
	if name == "" {
		name = "WS " + pathTemplate(strings.NewReplacer("ws://", "http://", "wss://", "https://").Replace(e.URL))
	}
	url := e.URL
	for _, scheme := range [][2]string{{"ws://", "http://"}, {"wss://", "https://"}} {
		if rest, ok := strings.CutPrefix(url, scheme[0]); ok {
			url = scheme[1] + rest
		}
	}
	c.streamRequest(st, name, "GET", url, e.Headers, "", e.Timeout, path, sc)
	if e.CloseCode != 0 && (e.CloseCode < 1000 || e.CloseCode > 4999) {
		c.fail(path+".close_code", "close code %d is not between 1000 and 4999", "leave it out for 1000, or give a code such as 4000", e.CloseCode)
	}
	if len(e.Actions) == 0 {
		c.fail(path+".actions", "the WebSocket has no actions", "add some, such as actions: [{send: hello}, {await: body == 'hello'}]")
	}
	after := sc.WithResponse()
	w := &wsStep{closeCode: e.CloseCode}
	if w.closeCode == 0 {
		w.closeCode = 1000
	}
	for i, a := range e.Actions {
		p := fmt.Sprintf("%s.actions[%d]", path, i)
		wa := &wsAction{path: p, timeout: a.Timeout, hold: a.Hold}
		var kinds []string
		if a.Send != "" {
			kinds = append(kinds, "send")
			wa.send = c.template(a.Send, p+".send", sc)
		}
		if a.JSON != nil {
			kinds = append(kinds, "send_json")
			wa.json = c.f.CompileJSON(a.JSON, sc, p+".send_json", func(p string, err error) { c.report(p, err) })
		}
		if a.Await != "" {
			kinds = append(kinds, "await")
			wa.await = c.expr(a.Await, p+".await", after)
			row := a.Name
			if row == "" {
				row = name + " await"
			}
			wa.ep = c.endpoint(row)
		}
		if a.Hold != 0 {
			kinds = append(kinds, "hold")
		}
		switch {
		case len(kinds) == 0:
			c.fail(p, "the action does nothing", "give it one of send, send_json, await or hold")
		case len(kinds) > 1:
			c.fail(p, "the action has %s", "split it into one action for each", strings.Join(kinds, " and "))
		}
		if a.Hold < 0 || a.Timeout < 0 {
			c.fail(p, "a negative duration", "give positive durations such as 5s")
		}
		if wa.await == nil {
			for key, set := range map[string]bool{"timeout": a.Timeout != 0, "name": a.Name != "", "capture": len(a.Capture) > 0} {
				if set {
					c.fail(p+"."+key, "%s applies to an await, and the action has none", "move it to an await action", key)
				}
			}
		}
		wa.capture = c.assigns(a.Capture, p+".capture", after, false)
		xs := []*expr.Expression{wa.await}
		for _, as := range wa.capture {
			xs = append(xs, as.x)
		}
		wa.needs = needsOf(xs...)
		w.actions = append(w.actions, wa)
	}
	st.ws = w
	if c.p.streams.ws == nil {
		h := c.p.http
		c.p.streams.ws = ws.New(ws.Options{Timeout: h.Timeout, InsecureTLS: h.InsecureTLS, Resolver: h.Resolver, LocalAddrs: h.LocalAddrs})
	}
	return after
}
