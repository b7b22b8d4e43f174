package errclass

import "testing"

func TestTemplate(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"connection refused", "connection refused"},
		{"status 503: {\"error\":\"lock wait timeout exceeded\"}", "status 503: {\"error\":\"lock wait timeout exceeded\"}"},
		{"status 409: folder 81234 cannot move under 99120: depth 17 exceeds 16", "status 409: folder {n} cannot move under {n}: depth {n} exceeds {n}"},
		{"dial tcp 127.0.0.1:8080: connect: connection refused", "dial tcp {n}.{n}.{n}.{n}:{n}: connect: connection refused"},
		{"user 3f2b8c1e-9a4d-4e2f-8b1c-0d9e8f7a6b5c not found", "user {uuid} not found"},
		{"object 0x7ffe12ab at deadbeef01", "object {hex} at {hex}"},
		{"timed out after 150ms (took 1.5s)", "timed out after {n}ms (took {n}.{n}s)"},
		{"order ab12345678 rejected", "order {hex} rejected"},
		{"http2: stream closed", "http2: stream closed"},
		{"req id 20241201x77 failed", "req id {id} failed"},
	} {
		if got := Template(c.in); got != c.want {
			t.Errorf("Template(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func FuzzTemplate(f *testing.F) {
	for _, s := range []string{"status 503", "a 1 b", "3f2b8c1e-9a4d-4e2f-8b1c-0d9e8f7a6b5c", "0x", "12ms"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tmpl := Template(s)
		if Template(tmpl) != tmpl {
			t.Errorf("Template is not idempotent on %q: %q then %q", s, tmpl, Template(tmpl))
		}
	})
}
