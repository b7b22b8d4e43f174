package scenario

import (
	"context"
	"fmt"
	"time"

	"github.com/coder/websocket"
	"github.com/tidwall/gjson"

	"github.com/surge-load/surge/errclass"
	"github.com/surge-load/surge/executor"
	"github.com/surge-load/surge/internal/expr"
	"github.com/surge-load/surge/metrics"
	"github.com/surge-load/surge/protocol/sse"
	"github.com/surge-load/surge/protocol/ws"
)

// userStreams is a virtual user's state for SSE and WebSocket steps.
type userStreams struct {
	req  sse.Request
	step *step // the SSE step running
	// The subscription's events so far, and the last one, for captures.
	n             int64
	typ, id, data []byte
	keep          bool  // copy each event, for the captures
	evErr         error // an expression that failed on an event
	onEvent       func(*sse.Event)
	until         func(*sse.Event) bool
	sentAt        func([]byte) (time.Time, bool)
	lastMsg       []byte // the last awaited WebSocket message
	lastRTT       time.Duration
	bound         bool
}

// bindStreams makes the user's event callbacks, once.
func (u *vuser) bindStreams() {
	us := &u.streams
	if us.bound {
		return
	}
	us.bound = true
	us.onEvent = func(ev *sse.Event) {
		us.n++
		if us.keep {
			us.typ = append(us.typ[:0], ev.Type...)
			us.id = append(us.id[:0], ev.ID...)
			us.data = append(us.data[:0], ev.Data...)
		}
	}
	us.until = func(ev *sse.Event) bool {
		ss := us.step.sse
		u.setEvent(ss.perEvent, 200, ev.Type, ev.ID, ev.Data, us.n)
		ok, err := u.cond(ss.until)
		if err != nil {
			us.evErr = fmt.Errorf("until: %w", err)
			return true
		}
		return ok
	}
	us.sentAt = func(data []byte) (time.Time, bool) {
		ss := us.step.sse
		u.setEvent(ss.perEvent, 200, nil, nil, data, us.n)
		v, err := u.Eval(ss.sentAt)
		if err != nil {
			return time.Time{}, false
		}
		f, ok := expr.Number(v)
		if !ok {
			return time.Time{}, false
		}
		return time.Unix(0, int64(f*float64(ss.unit))), true
	}
}

// setEvent makes an event known to the expressions, as needs says.
func (u *vuser) setEvent(n needs, status int, typ, id, data []byte, count int64) {
	u.Env[expr.NameStatus] = status
	if len(typ) == 0 {
		typ = []byte("message")
	}
	u.Env[nameEvent] = map[string]any{"type": string(typ), "id": string(id), "data": string(data), "n": int(count)}
	u.setMessage(n, data)
}

// setMessage makes the data of an event or message known as body and
// json, as n says.
func (u *vuser) setMessage(n needs, data []byte) {
	if n.body {
		u.Env[expr.NameBody] = string(data)
	}
	for _, sl := range n.slots {
		u.Env[sl.name] = expr.GJSONValue(gjson.GetBytes(data, sl.path))
	}
	if n.json {
		v, err := expr.DecodeJSON(data)
		if err != nil {
			v = nil
		}
		u.Env[expr.NameJSON] = v
	}
}

// clearMessage lets the values of an event or message be collected.
func (u *vuser) clearMessage() {
	u.Env[expr.NameBody] = ""
	u.Env[expr.NameJSON] = nil
	delete(u.Env, nameEvent)
}

// buildFailed records a stream step whose request could not be built.
func (u *vuser) buildFailed(s *step, err error) bool {
	now := time.Now()
	smp := metrics.Sample{Endpoint: u.ids[s.req.ep], Start: now, End: now, Class: errclass.Other,
		Err: fmt.Errorf("%s: build the request: %w", s.path, err)}
	u.intended = time.Time{}
	u.failure = smp.Err
	u.shard.Record(&smp)
	return false
}

// stepNeeds is what the step's Capture, Append and Remove read.
func stepNeeds(s *step) needs { return needs{slots: s.slots, json: s.needJSON, body: s.needBody} }

// hasEffects reports whether s captures, appends or removes.
func hasEffects(s *step) bool { return len(s.capture)+len(s.append)+len(s.remove) > 0 }

// sse runs an SSE step: it subscribes, holds the stream as the step says,
// then applies the step's captures to the last event.
func (u *vuser) sse(ctx context.Context, s *step) bool {
	ss := s.sse
	us := &u.streams
	if err := u.build(s); err != nil {
		return u.buildFailed(s, err)
	}
	r := &us.req
	*r = sse.Request{Method: u.req.Method, URL: u.req.URL, Header: u.req.Header, Body: u.req.Body, Timeout: u.req.Timeout,
		Hold: ss.hold, Events: ss.events, IdleTimeout: ss.idle, Reconnect: ss.reconnect, MaxReconnects: ss.maxReconnects}
	if ss.lastID != nil {
		id, err := ss.lastID.String(&u.Evaluator, &u.scratch)
		if err != nil {
			return u.buildFailed(s, fmt.Errorf("last_event_id: %w", err))
		}
		r.LastEventID = id
	}
	if err := r.Prepare(); err != nil {
		return u.buildFailed(s, err)
	}
	u.bindStreams()
	us.step, us.evErr, us.n = s, nil, 0
	us.keep = hasEffects(s)
	us.typ, us.id, us.data = us.typ[:0], us.id[:0], us.data[:0]
	r.OnEvent = us.onEvent
	if ss.until != nil {
		r.Until = us.until
	}
	switch {
	case ss.sentAtFast != nil:
		r.SentAt = ss.sentAtFast
	case ss.sentAt != nil:
		r.SentAt = us.sentAt
	}
	// A stream is held at most until the run stops starting new work: then
	// it ends as planned, rather than waiting out the grace period and
	// being interrupted.
	sctx, cancel := context.WithCancelCause(ctx)
	stop := executor.WhenStopped(ctx, func() { cancel(sse.ErrPlanEnded) })
	res := u.p.streams.sse.Subscribe(sctx, r, sse.Recording{Shard: u.shard, Endpoint: u.ids[s.req.ep], Intended: u.intended})
	stop()
	cancel(nil)
	u.intended = time.Time{}
	r.Header, r.Body, us.step = nil, nil, nil
	if ss.until != nil || (ss.sentAt != nil && ss.sentAtFast == nil) {
		u.clearMessage()
	}
	if us.evErr != nil {
		return u.scriptError(s.path+".sse", us.evErr)
	}
	if res.Err != nil {
		u.failure = fmt.Errorf("%s: %s %s: %w", s.path, r.Method, r.URL, res.Err)
		return false
	}
	if !hasEffects(s) {
		return true
	}
	u.setEvent(stepNeeds(s), res.Status, us.typ, us.id, us.data, us.n)
	err := u.effects(s)
	u.clearMessage()
	if err != nil {
		return u.scriptError(s.path, err)
	}
	return true
}

// ws runs a WebSocket step: it connects, runs the actions, and closes.
func (u *vuser) ws(ctx context.Context, s *step) bool {
	w := s.ws
	us := &u.streams
	if err := u.build(s); err != nil {
		return u.buildFailed(s, err)
	}
	conn, err := u.p.streams.ws.Connect(ctx, u.req.URL, u.req.Header, ws.Recording{Shard: u.shard, Endpoint: u.ids[s.req.ep], Intended: u.intended})
	u.intended = time.Time{}
	if err != nil {
		u.failure = fmt.Errorf("%s: %w", s.path, err)
		return false
	}
	defer conn.Close(websocket.StatusCode(w.closeCode), "")
	us.lastMsg, us.lastRTT = us.lastMsg[:0], 0
	var lastSend time.Time
	for _, a := range w.actions {
		var err error
		switch {
		case a.send != nil:
			var b []byte
			if b, err = a.send.Render(nil, &u.Evaluator); err != nil {
				return u.scriptError(a.path+".send", err)
			}
			lastSend, err = time.Now(), conn.Send(ctx, b)
		case a.json != nil:
			var b []byte
			if b, err = a.json.AppendTo(nil, &u.Evaluator); err != nil {
				return u.scriptError(a.path+".send_json", err)
			}
			lastSend, err = time.Now(), conn.Send(ctx, b)
		case a.await != nil:
			if ok, handled := u.await(ctx, conn, a, lastSend); !ok {
				return handled
			}
		default:
			err = conn.Hold(ctx, a.hold)
		}
		if err != nil {
			u.failure = fmt.Errorf("%s: %w", a.path, err)
			return false
		}
	}
	if !hasEffects(s) {
		return true
	}
	u.Env[expr.NameStatus] = 101
	u.Env[expr.NameDuration] = float64(us.lastRTT) / float64(time.Millisecond)
	u.setMessage(stepNeeds(s), us.lastMsg)
	err = u.effects(s)
	u.clearMessage()
	if err != nil {
		return u.scriptError(s.path, err)
	}
	return true
}

// await runs an await action. It reports whether the step goes on, and if
// not, what the step reports.
func (u *vuser) await(ctx context.Context, conn *ws.Conn, a *wsAction, lastSend time.Time) (ok, result bool) {
	us := &u.streams
	timeout := a.timeout
	if timeout <= 0 {
		timeout = u.p.http.Timeout
	}
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	var evalErr error
	setEnv := func(msg []byte) {
		u.Env[expr.NameStatus] = 101
		if !lastSend.IsZero() {
			u.Env[expr.NameDuration] = float64(time.Since(lastSend)) / float64(time.Millisecond)
		}
		u.setMessage(a.needs, msg)
	}
	match := func(msg []byte) bool {
		setEnv(msg)
		ok, err := u.cond(a.await)
		if err != nil {
			evalErr = err
			return true
		}
		return ok
	}
	msg, err := conn.Await(ctx, ws.Await{Match: match, Timeout: timeout, Record: true, Endpoint: u.ids[a.ep]})
	switch {
	case evalErr != nil:
		u.clearMessage()
		return false, u.scriptError(a.path+".await", evalErr)
	case err != nil:
		u.clearMessage()
		u.failure = fmt.Errorf("%s: %w", a.path, err)
		return false, false
	}
	us.lastMsg = append(us.lastMsg[:0], msg...)
	if !lastSend.IsZero() {
		us.lastRTT = time.Since(lastSend)
	}
	for _, as := range a.capture {
		setEnv(msg)
		v, err := u.Eval(as.x)
		if err != nil {
			u.clearMessage()
			return false, u.scriptError(a.path+".capture."+as.name, err)
		}
		u.Env[as.name] = v
	}
	u.clearMessage()
	return true, true
}
