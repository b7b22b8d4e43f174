package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The validation gaps of issue 12.5: each is found before any traffic,
// exit 2 with where and what, by validate and by run.
func TestValidationGaps(t *testing.T) {
	srv, seen := countingServer(t)
	dir := t.TempDir()
	file := func(name, body string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(body), 0o644)
		return p
	}
	task := func(target, task string) string {
		return "target: " + target + "\nscenarios:\n  s:\n    load: {users: 1, duration: 1s}\n    tasks:\n      - " + task + "\n"
	}
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"range -2^63..2^63-1", []string{file("range.yaml", "target: "+srv.URL+"\ndata:\n  r: {range: {from: -9223372036854775808, to: 9223372036854775807}}\n"+
			"scenarios:\n  s:\n    load: {users: 1, duration: 1s}\n    tasks:\n      - get: /x\n")}, "range.yaml:3:3: range from -9223372036854775808 to 9223372036854775807 has more than"},
		{"target port", []string{file("port.yaml", task("http://127.0.0.1:99999", "get: /x"))}, "port.yaml:1:9: target \"http://127.0.0.1:99999\": port 99999 is not from 1 to 65535"},
		{"constant URL", []string{file("url.yaml", task(srv.URL, `get: "http://exa mple.com/"`))}, "url.yaml:6:14:"},
		{"constant URL port", []string{file("url2.yaml", task(srv.URL, `get: "http://127.0.0.1:0/"`))}, "port 0 is not from 1 to 65535"},
		{"header CR/LF", []string{file("hdr.yaml", task(srv.URL, `{method: GET, url: /x, headers: {X-A: "a\r\nInjected: 1"}}`))}, "hdr.yaml:6:47: header X-A: the value holds a line break"},
		{"method with a space", []string{file("meth.yaml", task(srv.URL, `{method: "GE T", url: /x}`))}, `meth.yaml:6:18: "GE T" is not an HTTP method`},
	}
	for _, c := range cases {
		for _, cmd := range []string{"validate", "run"} {
			args := append([]string{cmd}, c.args...)
			if cmd == "run" {
				args = append(args, "-q")
			}
			_, stderr, code := runSurge(t, args...)
			if code != exitInvalid || !strings.Contains(stderr, c.want) {
				t.Errorf("%s (%s): exit %d, %q; want exit 2 and %q", c.name, cmd, code, stderr, c.want)
			}
		}
	}
	flags := []struct {
		name string
		args []string
		want string
	}{
		{"--url port", []string{"--url", "http://127.0.0.1:99999/"}, "port 99999 is not from 1 to 65535"},
		{"--url space", []string{"--url", "http://127.0.0.1:1/a b"}, "space or control character"},
		{"-X with a space", []string{"--url", srv.URL, "-X", "GE T"}, `--method: "GE T" is not an HTTP method`},
		{"-H with CR/LF", []string{"--url", srv.URL, "-H", "X-A: a\r\nInjected: 1"}, "--header: header X-A: the value holds a line break"},
		{"--segment 0/0", []string{"--url", srv.URL, "--segment", "0/0"}, `--segment "0/0": want I/N with N at least 1`},
	}
	for _, c := range flags {
		_, stderr, code := runSurge(t, append(append([]string{"run"}, c.args...), "--users", "1", "--duration", "1s", "-q")...)
		if code != exitInvalid || !strings.Contains(stderr, c.want) {
			t.Errorf("%s: exit %d, %q; want exit 2 and %q", c.name, code, stderr, c.want)
		}
	}
	if n := seen.Load(); n != 0 {
		t.Errorf("the server saw %d requests; all of these are invalid input", n)
	}
	// A UTF-8 byte order mark, as some editors write, is not a key.
	bom := file("bom.yaml", "\ufeff"+task(srv.URL, "get: /x"))
	if _, stderr, code := runSurge(t, "validate", bom); code != 0 {
		t.Errorf("a file with a BOM: exit %d, %q", code, stderr)
	}
}
