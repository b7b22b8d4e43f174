package yamlfile

import (
	"fmt"

	"github.com/goccy/go-yaml/ast"

	"github.com/surge-load/surge/scenario"
)

// The keys of the sse and ws mappings of a step.
var (
	sseKeys      = []string{"method", "url", "headers", "body", "timeout", "hold", "events", "until", "idle_timeout", "last_event_id", "reconnect", "max_reconnects", "sent_at", "sent_at_unit"}
	wsKeys       = []string{"url", "headers", "timeout", "actions", "close_code"}
	wsActionKeys = []string{"send", "send_json", "await", "timeout", "name", "capture", "hold"}
)

// sse decodes the sse of a step: a mapping, or just the URL.
func (d *decoder) sse(n ast.Node, path string) *scenario.SSE {
	e := &scenario.SSE{}
	if _, isMap := d.resolve(n).(*ast.MappingNode); !isMap {
		if _, isValue := d.resolve(n).(*ast.MappingValueNode); !isValue {
			e.URL, _ = d.str(n, join(path, "url"), "the URL")
			return e
		}
	}
	fields, ok := d.mapping(n, path, sseKeys, "sse")
	if !ok {
		return e
	}
	for _, f := range fields {
		p := join(path, f.key)
		d.recordKey(p, f.node)
		switch f.key {
		case "method":
			e.Method, _ = d.str(f.val, p, "method")
		case "url":
			e.URL, _ = d.str(f.val, p, "the URL")
		case "headers":
			e.Headers, _ = d.stringMap(f.val, p, "headers")
		case "body":
			e.Body, _ = d.str(f.val, p, "body")
		case "timeout":
			e.Timeout, _ = d.duration(f.val, p, "timeout")
		case "hold":
			e.Hold, _ = d.duration(f.val, p, "hold")
		case "events":
			e.Events, _ = d.integer(f.val, p, "events")
		case "until":
			e.Until, _ = d.str(f.val, p, "until")
		case "idle_timeout":
			e.IdleTimeout, _ = d.duration(f.val, p, "idle_timeout")
		case "last_event_id":
			e.LastEventID, _ = d.str(f.val, p, "last_event_id")
		case "reconnect":
			e.Reconnect, _ = d.boolean(f.val, p, "reconnect")
		case "max_reconnects":
			e.MaxReconnects, _ = d.integer(f.val, p, "max_reconnects")
		case "sent_at":
			e.SentAt, _ = d.str(f.val, p, "sent_at")
		case "sent_at_unit":
			e.SentAtUnit, _ = d.str(f.val, p, "sent_at_unit")
		}
	}
	return e
}

// ws decodes the ws of a step.
func (d *decoder) ws(n ast.Node, path string) *scenario.WebSocket {
	w := &scenario.WebSocket{}
	fields, ok := d.mapping(n, path, wsKeys, "ws")
	if !ok {
		return w
	}
	for _, f := range fields {
		p := join(path, f.key)
		d.recordKey(p, f.node)
		switch f.key {
		case "url":
			w.URL, _ = d.str(f.val, p, "the URL")
		case "headers":
			w.Headers, _ = d.stringMap(f.val, p, "headers")
		case "timeout":
			w.Timeout, _ = d.duration(f.val, p, "timeout")
		case "close_code":
			w.CloseCode, _ = d.integer(f.val, p, "close_code")
		case "actions":
			items, _ := d.list(f.val, p, "actions")
			for i, item := range items {
				w.Actions = append(w.Actions, d.wsAction(item, fmt.Sprintf("%s[%d]", p, i)))
			}
		}
	}
	return w
}

func (d *decoder) wsAction(n ast.Node, path string) scenario.WSAction {
	var a scenario.WSAction
	fields, ok := d.mapping(n, path, wsActionKeys, "a WebSocket action")
	if !ok {
		return a
	}
	for _, f := range fields {
		p := join(path, f.key)
		d.recordKey(p, f.node)
		switch f.key {
		case "send":
			a.Send, _ = d.str(f.val, p, "send")
		case "send_json":
			a.JSON = d.value(f.val, p)
			if a.JSON == nil {
				a.JSON = map[string]any(nil)
			}
		case "await":
			a.Await, _ = d.str(f.val, p, "await")
		case "timeout":
			a.Timeout, _ = d.duration(f.val, p, "timeout")
		case "name":
			a.Name, _ = d.str(f.val, p, "name")
		case "capture":
			a.Capture, _ = d.stringMap(f.val, p, "capture")
		case "hold":
			a.Hold, _ = d.duration(f.val, p, "hold")
		}
	}
	return a
}

// boolean returns the boolean n.
func (d *decoder) boolean(n ast.Node, path, what string) (bool, bool) {
	orig := n
	n = d.resolve(n)
	d.record(path, orig)
	if x, ok := n.(*ast.BoolNode); ok {
		return x.Value, true
	}
	d.fail(orig, path, "write true or false", "%s must be true or false, not %s", what, valueText(n))
	return false, false
}
