package result

import (
	"bytes"
	"encoding/json"
	"slices"

	"github.com/surge-load/surge/sanitize"
)

// Sanitize makes r safe to show and to share: the target's user info and
// credential query parameters redacted, Secret values in the recorded plan
// redacted, and every text that may have come from the network (error
// messages, endpoint names, the plan's strings, the outputs' errors, the
// monitored sources' series names and gaps) escaped of control characters,
// with sanitize.Text. surge.Run and ReadFile call it, so every
// output built from a result (the terminal, the JSON, HTML, Markdown and
// CSV) shows no secret and no raw control character. It is idempotent.
func (r *Result) Sanitize() {
	r.Run.Target = sanitize.Escape(sanitize.URL(r.Run.Target))
	r.Run.Host = sanitize.Text(r.Run.Host)
	r.Run.Load = sanitize.Text(r.Run.Load)
	r.Run.StopReason = sanitize.Text(r.Run.StopReason)
	r.Totals.sanitize()
	for i := range r.Endpoints {
		r.Endpoints[i].Name = sanitize.Text(r.Endpoints[i].Name)
		r.Endpoints[i].Stats.sanitize()
	}
	for i := range r.Errors {
		e := &r.Errors[i]
		e.Class = sanitize.Text(e.Class)
		e.Endpoints = sanitizeKeys(e.Endpoints)
		e.Statuses = sanitizeKeys(e.Statuses)
		for j := range e.Samples {
			e.Samples[j].Message = sanitize.Text(e.Samples[j].Message)
			e.Samples[j].Example = sanitize.Text(e.Samples[j].Example)
			e.Samples[j].Endpoints = sanitizeKeys(e.Samples[j].Endpoints)
		}
	}
	names := map[string]string{} // endpoint names sanitized, as the series repeats them
	for i := range r.Series {
		r.Series[i].Errors = sanitizeKeys(r.Series[i].Errors)
		r.Series[i].Endpoints = sanitizeEndpointPoints(r.Series[i].Endpoints, names)
	}
	for i := range r.Thresholds {
		t := &r.Thresholds[i]
		t.Expr, t.Endpoint, t.Note = sanitize.Text(t.Expr), sanitize.Text(t.Endpoint), sanitize.Text(t.Note)
	}
	for i, w := range r.Generator.Warnings {
		r.Generator.Warnings[i] = sanitize.Text(w)
	}
	for i := range r.Outputs {
		o := &r.Outputs[i]
		o.Target = sanitize.Escape(sanitize.URL(o.Target))
		o.LastError, o.Note = sanitize.Text(o.LastError), sanitize.Text(o.Note)
	}
	if r.Monitor != nil {
		for i := range r.Monitor.Sources {
			m := &r.Monitor.Sources[i]
			m.Name, m.Spec, m.Kind = sanitize.Text(m.Name), sanitize.Text(m.Spec), sanitize.Text(m.Kind)
			for j := range m.Series {
				m.Series[j].Name, m.Series[j].Unit = sanitize.Text(m.Series[j].Name), sanitize.Text(m.Series[j].Unit)
			}
			for j := range m.Gaps {
				m.Gaps[j].Reason = sanitize.Text(m.Gaps[j].Reason)
			}
			for j, n := range m.Notes {
				m.Notes[j] = sanitize.Text(n)
			}
		}
	}
	if len(r.Plan) > 0 {
		var v any
		d := json.NewDecoder(bytes.NewReader(r.Plan))
		d.UseNumber()
		if d.Decode(&v) == nil {
			if clean, changed := sanitizeJSON("", v); changed {
				if b, err := json.Marshal(clean); err == nil {
					r.Plan = b
				}
			}
		}
	}
}

func (s *Stats) sanitize() {
	s.Statuses = sanitizeKeys(s.Statuses)
	s.Errors = sanitizeKeys(s.Errors)
}

// sanitizeKeys returns m with its keys made safe by sanitize.Text; keys
// that become equal add up.
// sanitizeEndpointPoints returns eps with their names sanitized (clean maps
// each name seen to its sanitized form). It copies eps before changing a
// name, never writing into a series a recorder may share.
func sanitizeEndpointPoints(eps []EndpointPoint, clean map[string]string) []EndpointPoint {
	var out []EndpointPoint
	for j := range eps {
		name := eps[j].Name
		n, ok := clean[name]
		if !ok {
			n = sanitize.Text(name)
			clean[name] = n
		}
		if n != name {
			if out == nil {
				out = slices.Clone(eps)
			}
			out[j].Name = n
		}
	}
	if out == nil {
		return eps
	}
	return out
}

func sanitizeKeys(m map[string]int64) map[string]int64 {
	for k := range m {
		if sanitize.Text(k) != k {
			out := make(map[string]int64, len(m))
			for k, n := range m {
				out[sanitize.Text(k)] += n
			}
			return out
		}
	}
	return m
}

// sanitizeJSON sanitizes, in place, the decoded JSON value v found under
// key, and says whether anything changed: the string value of a Secret key
// (a header such as Authorization) is redacted whole, and every string
// goes through sanitize.Text, which redacts the user info and credential
// parameters of URLs.
func sanitizeJSON(key string, v any) (any, bool) {
	changed := false
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			ck := sanitize.Text(k)
			ce, c := sanitizeJSON(k, e)
			if ck != k {
				delete(x, k)
				c = true
			}
			if c {
				x[ck], changed = ce, true
			}
		}
	case []any:
		for i, e := range x {
			if ce, c := sanitizeJSON(key, e); c {
				x[i], changed = ce, true
			}
		}
	case string:
		clean := sanitize.Text(x)
		if key != "" && sanitize.Secret(key) && x != "" {
			clean = sanitize.Redacted
		}
		return clean, clean != x
	}
	return v, changed
}
