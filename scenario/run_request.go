package scenario

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/tidwall/gjson"

	"github.com/surge-load/surge/errclass"
	"github.com/surge-load/surge/internal/expr"
	"github.com/surge-load/surge/metrics"
	"github.com/surge-load/surge/protocol/httpc"
)

// request sends the request of s and checks its response; it reports
// whether the iteration may go on. It records exactly one sample.
func (u *vuser) request(ctx context.Context, s *step) bool {
	r := s.req
	smp := &u.smp
	*smp = metrics.Sample{Endpoint: u.ids[r.ep], Intended: u.intended}
	u.intended = time.Time{} // later requests count from their own start
	if err := u.build(s); err != nil {
		return u.notBuilt(s, smp, "request", err)
	}
	resp := u.tr.Do(ctx, &u.req, smp)
	u.jar.store(u.req.URL, resp.Header)
	ok := u.check(s, smp, &resp)
	if !ok && s.errorKey != "" && smp.Err != nil && len(resp.Body) > 0 {
		if v := gjson.GetBytes(resp.Body, s.errorKey); v.Exists() {
			smp.Err = &keyedError{status: resp.Status, key: s.errorKeySrc, value: v.String(), err: smp.Err}
		}
	}
	if !ok {
		u.failure = fmt.Errorf("%s: %s %s: %w", s.path, r.method, u.req.URL, smp.Err)
	}
	u.shard.Record(smp)
	return ok
}

// notBuilt records smp as not sent, because what of s (the request, the
// call) could not be built, and ends the iteration: it returns false.
func (u *vuser) notBuilt(s *step, smp *metrics.Sample, what string, err error) bool {
	now := time.Now()
	smp.Intended, smp.Start, smp.End = time.Time{}, now, now
	smp.Class, smp.Err = errclass.NotSent, fmt.Errorf("%s: build the %s: %w", s.path, what, err)
	u.failure = smp.Err
	u.shard.Record(smp)
	return false
}

// keyedError is a failure named by a field of its response body
// (error_key): its message is the status and the field's value, so
// failures group by the cause the server gave.
type keyedError struct {
	status     int
	key, value string
	err        error
}

func (e *keyedError) Error() string {
	return fmt.Sprintf("status %d: %s = %s", e.status, e.key, e.value)
}

func (e *keyedError) Unwrap() error { return e.err }

// build renders the request of s into u.req.
func (u *vuser) build(s *step) error {
	r := s.req
	b, err := r.url.Render(u.urlBuf[:0], &u.Evaluator)
	if err != nil {
		return fmt.Errorf("url: %w", err)
	}
	for i, kv := range r.query {
		v, err := kv.val.String(&u.Evaluator, &u.scratch)
		if err != nil {
			return fmt.Errorf("query %s: %w", kv.key, err)
		}
		sep := byte('&')
		if i == 0 && bytes.IndexByte(b, '?') < 0 {
			sep = '?'
		}
		b = append(b, sep)
		b = append(b, url.QueryEscape(kv.key)...)
		b = append(b, '=')
		b = append(b, url.QueryEscape(v)...)
	}
	u.urlBuf = b
	if string(b) != u.req.URL {
		u.req.URL = string(b)
		if err := u.req.Prepare(); err != nil {
			u.req.URL = "" // not prepared: build it again next time
			return err
		}
	}
	u.req.Method = r.method
	u.req.Timeout = r.timeout
	u.req.KeepBody = s.keepBody
	u.req.NoHeader = !s.needHeaders && u.jar == nil
	u.req.Header = r.static
	if u.req.Header == nil {
		h := make(http.Header, len(r.headers))
		for _, kv := range r.headers {
			v, err := kv.val.String(&u.Evaluator, &u.scratch)
			if err != nil {
				return fmt.Errorf("header %s: %w", kv.key, err)
			}
			h[kv.key] = []string{v}
		}
		u.req.Header = h
	}
	u.req.Header = u.jar.header(u.req.URL, u.req.Header)
	// A fresh body each time: the transport may still be sending the last
	// one when its response has arrived.
	u.req.Body = nil
	switch {
	case r.json != nil:
		if u.req.Body, err = r.json.AppendTo(make([]byte, 0, 256), &u.Evaluator); err != nil {
			return fmt.Errorf("json: %w", err)
		}
	case len(r.form) > 0:
		form := url.Values{}
		for _, kv := range r.form {
			v, err := kv.val.String(&u.Evaluator, &u.scratch)
			if err != nil {
				return fmt.Errorf("form %s: %w", kv.key, err)
			}
			form.Set(kv.key, v)
		}
		u.req.Body = []byte(form.Encode())
	case r.body != nil:
		if u.req.Body, err = r.body.Render(nil, &u.Evaluator); err != nil {
			return fmt.Errorf("body: %w", err)
		}
	}
	return nil
}

// check judges the response against the step's expectations and applies
// its captures, appends and removes. It sets the sample's class and error,
// and reports whether the request succeeded.
func (u *vuser) check(s *step, smp *metrics.Sample, resp *httpc.Response) bool {
	if resp.Status == 0 { // no response: the transport classed the failure
		return false
	}
	e := s.expect
	if e != nil && len(e.status) > 0 {
		switch {
		case slices.Contains(e.status, resp.Status):
			smp.Class, smp.Err = errclass.None, nil
		case smp.Class == errclass.None:
			smp.Class, smp.Err = errclass.Check, fmt.Errorf("expect status %s: got %d", statusList(e.status), resp.Status)
		default:
			smp.Err = fmt.Errorf("expect status %s: %w", statusList(e.status), smp.Err)
		}
	}
	if smp.Class != errclass.None {
		return false
	}
	return u.judge(s, smp, resp)
}

// judge checks a response that succeeded against the rest of the step's
// expectations and applies its captures, appends and removes.
func (u *vuser) judge(s *step, smp *metrics.Sample, resp *httpc.Response) bool {
	e := s.expect
	fail := func(err error) bool {
		smp.Class, smp.Err = errclass.Check, err
		return false
	}
	if e != nil && len(e.contains) > 0 && !bytes.Contains(resp.Body, e.contains) {
		return fail(fmt.Errorf("expect the body to contain %q", e.contains))
	}
	if e != nil && e.maxDuration > 0 && smp.Latency() > e.maxDuration {
		return fail(fmt.Errorf("expect max_duration %v: took longer", e.maxDuration))
	}
	u.setResponse(s, smp, resp)
	defer u.clearResponse(s)
	if e != nil {
		for _, x := range e.that {
			ok, err := u.cond(x)
			if err != nil {
				return fail(fmt.Errorf("expect %w", err))
			}
			if !ok {
				return fail(fmt.Errorf("expect %s: false", x.Src))
			}
		}
	}
	if err := u.effects(s); err != nil {
		return fail(err)
	}
	return true
}

// setResponse makes the response known to the step's expressions.
func (u *vuser) setResponse(s *step, smp *metrics.Sample, resp *httpc.Response) {
	u.Env[expr.NameStatus] = resp.Status
	u.Env[expr.NameDuration] = float64(smp.Latency()) / float64(time.Millisecond)
	if s.needBody {
		u.Env[expr.NameBody] = string(resp.Body)
	}
	if s.needHeaders {
		h := make(map[string]string, len(resp.Header))
		for k, vs := range resp.Header {
			if len(vs) > 0 {
				h[strings.ToLower(k)] = vs[0]
			}
		}
		u.Env[expr.NameHeaders] = h
	}
	for _, sl := range s.slots {
		u.Env[sl.name] = expr.GJSONValue(gjson.GetBytes(resp.Body, sl.path))
	}
	if s.needJSON {
		v, err := expr.DecodeJSON(resp.Body)
		if err != nil {
			v = nil
		}
		u.Env[expr.NameJSON] = v
	}
}

// clearResponse lets the response's values be collected.
func (u *vuser) clearResponse(s *step) {
	if s.needBody {
		u.Env[expr.NameBody] = ""
	}
	if s.needJSON {
		u.Env[expr.NameJSON] = nil
	}
	if s.needHeaders {
		u.Env[expr.NameHeaders] = map[string]string(nil)
	}
}

// statusList writes status codes as 201 or [200, 201].
func statusList(codes []int) string {
	if len(codes) == 1 {
		return fmt.Sprint(codes[0])
	}
	parts := make([]string, len(codes))
	for i, c := range codes {
		parts[i] = fmt.Sprint(c)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}
