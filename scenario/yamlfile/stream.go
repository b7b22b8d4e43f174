package yamlfile

import (
	"time"

	"github.com/goccy/go-yaml/ast"

	"github.com/surge-load/surge/scenario"
)

// The keys of the sse and ws mappings of a step.
var (
	sseFields = fieldsOf(
		scalar("method", "method", (*decoder).str, func(e *scenario.SSE) *string { return &e.Method }),
		scalar("url", "the URL", (*decoder).str, func(e *scenario.SSE) *string { return &e.URL }),
		scalar("headers", "headers", (*decoder).stringMap, func(e *scenario.SSE) *map[string]string { return &e.Headers }),
		scalar("body", "body", (*decoder).str, func(e *scenario.SSE) *string { return &e.Body }),
		scalar("timeout", "timeout", (*decoder).duration, func(e *scenario.SSE) *time.Duration { return &e.Timeout }),
		scalar("hold", "hold", (*decoder).duration, func(e *scenario.SSE) *time.Duration { return &e.Hold }),
		scalar("events", "events", (*decoder).integer, func(e *scenario.SSE) *int { return &e.Events }),
		scalar("until", "until", (*decoder).str, func(e *scenario.SSE) *string { return &e.Until }),
		scalar("idle_timeout", "idle_timeout", (*decoder).duration, func(e *scenario.SSE) *time.Duration { return &e.IdleTimeout }),
		scalar("last_event_id", "last_event_id", (*decoder).str, func(e *scenario.SSE) *string { return &e.LastEventID }),
		scalar("reconnect", "reconnect", (*decoder).boolean, func(e *scenario.SSE) *bool { return &e.Reconnect }),
		scalar("max_reconnects", "max_reconnects", (*decoder).integer, func(e *scenario.SSE) *int { return &e.MaxReconnects }),
		scalar("sent_at", "sent_at", (*decoder).str, func(e *scenario.SSE) *string { return &e.SentAt }),
		scalar("sent_at_unit", "sent_at_unit", (*decoder).str, func(e *scenario.SSE) *string { return &e.SentAtUnit }),
	)
	wsFields = fieldsOf(
		scalar("url", "the URL", (*decoder).str, func(w *scenario.WebSocket) *string { return &w.URL }),
		scalar("headers", "headers", (*decoder).stringMap, func(w *scenario.WebSocket) *map[string]string { return &w.Headers }),
		scalar("timeout", "timeout", (*decoder).duration, func(w *scenario.WebSocket) *time.Duration { return &w.Timeout }),
		scalar("actions", "actions", listOf("a WebSocket action", (*decoder).wsAction), func(w *scenario.WebSocket) *[]scenario.WSAction { return &w.Actions }),
		scalar("close_code", "close_code", (*decoder).integer, func(w *scenario.WebSocket) *int { return &w.CloseCode }),
	)
	wsActionFields = fieldsOf(
		scalar("send", "send", (*decoder).str, func(a *scenario.WSAction) *string { return &a.Send }),
		scalar("send_json", "send_json", (*decoder).object, func(a *scenario.WSAction) *any { return &a.JSON }),
		scalar("await", "await", (*decoder).str, func(a *scenario.WSAction) *string { return &a.Await }),
		scalar("timeout", "timeout", (*decoder).duration, func(a *scenario.WSAction) *time.Duration { return &a.Timeout }),
		scalar("name", "name", (*decoder).str, func(a *scenario.WSAction) *string { return &a.Name }),
		scalar("capture", "capture", (*decoder).stringMap, func(a *scenario.WSAction) *map[string]string { return &a.Capture }),
		scalar("hold", "hold", (*decoder).duration, func(a *scenario.WSAction) *time.Duration { return &a.Hold }),
	)
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
	sseFields.decode(d, n, path, "sse", e)
	return e
}

// ws decodes the ws of a step.
func (d *decoder) ws(n ast.Node, path string) *scenario.WebSocket {
	w := &scenario.WebSocket{}
	wsFields.decode(d, n, path, "ws", w)
	return w
}

// wsAction decodes one action of a ws step. A bad one is still an action,
// so that the actions after it keep their places.
func (d *decoder) wsAction(n ast.Node, path, what string) (scenario.WSAction, bool) {
	var a scenario.WSAction
	wsActionFields.decode(d, n, path, what, &a)
	return a, true
}

// boolean returns the boolean n.
func (d *decoder) boolean(n ast.Node, path, what string) (bool, bool) {
	orig, n := n, d.read(n, path)
	if x, ok := n.(*ast.BoolNode); ok {
		return x.Value, true
	}
	d.fail(orig, path, "write true or false", "%s must be true or false, not %s", what, valueText(n))
	return false, false
}
