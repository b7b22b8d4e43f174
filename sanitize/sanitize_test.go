package sanitize

import (
	"strings"
	"testing"
)

func TestSecret(t *testing.T) {
	for _, name := range []string{"Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie", "X-Api-Key", "X-Auth-Token",
		"X-Session-Id", "token", "access_token", "api_key", "apikey", "key", "secret", "client_secret", "password",
		"signature", "X-Amz-Signature", "X-Amz-Credential", "sig", "auth", "jwt"} {
		if !Secret(name) {
			t.Errorf("Secret(%q) = false", name)
		}
	}
	for _, name := range []string{"Content-Type", "Accept", "User-Agent", "page", "size", "design", "Keep-Alive", "X-Request-Id", "q"} {
		if Secret(name) {
			t.Errorf("Secret(%q) = true", name)
		}
	}
}

func TestURL(t *testing.T) {
	cases := []struct{ in, want string }{
		{"http://bob:PASS@host:8080/x", "http://REDACTED@host:8080/x"},
		{"http://bob@host/", "http://REDACTED@host/"},
		{"http://u:PASS@host/x?token=T&page=2&api_key=K&Signature=S", "http://REDACTED@host/x?token=REDACTED&page=2&api_key=REDACTED&Signature=REDACTED"},
		{"https://host/a?access_token=abc#frag", "https://host/a?access_token=REDACTED#frag"},
		{"http://127.0.0.1:8080/", "http://127.0.0.1:8080/"},
		{"http://host/?q=token", "http://host/?q=token"},
	}
	for _, c := range cases {
		if got := URL(c.in); got != c.want {
			t.Errorf("URL(%q) = %q, want %q", c.in, got, c.want)
		}
		if got := URL(URL(c.in)); got != c.want {
			t.Errorf("URL is not idempotent on %q: %q", c.in, got)
		}
	}
}

func TestText(t *testing.T) {
	cases := []struct{ in, want string }{
		{`Get "http://bob:PASS@h/x?token=T&a=1": dial tcp: refused`, `Get "http://REDACTED@h/x?token=REDACTED&a=1": dial tcp: refused`},
		{"status 500: \x1b[2J\x1b]0;title\x07\x1b[32mAll thresholds PASS", `status 500: \x1b[2J\x1b]0;title\a\x1b[32mAll thresholds PASS`},
		{"line\nnext\r\tend\x7f", `line\nnext\r\tend\x7f`},
		{"bidi \u202eevil\u2066 and zero\u200bwidth", `bidi \u202eevil\u2066 and zero\u200bwidth`},
		{"bad \xff\xfe utf8", `bad \xff\xfe utf8`},
		{"C1 \u009b31m", `C1 \u009b31m`},
		{"Authorization: Bearer abcdefghijkl.mnop", "Authorization: Bearer REDACTED"},
		{"password=hunter2 and user=bob", "password=REDACTED and user=bob"},
		{"café ünïcode ✓ 日本", "café ünïcode ✓ 日本"},
	}
	for _, c := range cases {
		got := Text(c.in)
		if got != c.want {
			t.Errorf("Text(%q) = %q, want %q", c.in, got, c.want)
		}
		if Text(got) != got {
			t.Errorf("Text is not idempotent on %q: %q", got, Text(got))
		}
		for _, r := range got {
			if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == 0x202e {
				t.Errorf("Text(%q) keeps control character %U", c.in, r)
			}
		}
	}
}

func TestCSVCell(t *testing.T) {
	cases := []struct{ in, want string }{
		{"=HYPERLINK(\"http://evil\",\"x\")", "'=HYPERLINK(\"http://evil\",\"x\")"},
		{"+1+2", "'+1+2"}, {"-2+3", "'-2+3"}, {"@SUM(A1)", "'@SUM(A1)"},
		{"\t=1", `\t=1`}, {"GET /x", "GET /x"}, {"", ""},
	}
	for _, c := range cases {
		if got := CSVCell(c.in); got != c.want {
			t.Errorf("CSVCell(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	if strings.ContainsRune(CSVCell("\x1b[2J"), 0x1b) {
		t.Error("CSVCell keeps ESC")
	}
}
