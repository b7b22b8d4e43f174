package scenario

import (
	"net/http"
	"testing"
)

// TestCookieJarRules checks the browser rules the jar keeps: a cookie for a
// public suffix is refused, a domain cookie reaches subdomains, a host-only
// one does not, paths and Secure are honoured, Max-Age=0 deletes, and a
// Cookie header the step wrote is kept, first, without changing the shared
// header.
func TestCookieJarRules(t *testing.T) {
	j := newCookieJar()
	set := func(url string, cookies ...string) {
		j.store(url, http.Header{"Set-Cookie": cookies})
	}
	set("http://a.example.co.uk/login",
		"suffix=1; Domain=co.uk",       // a public suffix: refused
		"site=2; Domain=example.co.uk", // the whole site
		"host=3",                       // a.example.co.uk only
		"admin=4; Path=/admin",         // under /admin only
		"secure=5; Secure",             // https only
		"gone=6", "gone=; Max-Age=0")   // set, then deleted
	shared := http.Header{"Cookie": {"own=0"}, "Accept": {"*/*"}}
	cases := []struct{ url, want string }{
		{"http://a.example.co.uk/", "own=0; site=2; host=3"},
		{"http://a.example.co.uk/admin/x", "own=0; admin=4; site=2; host=3"},
		{"https://a.example.co.uk/", "own=0; site=2; host=3; secure=5"},
		{"http://b.example.co.uk/", "own=0; site=2"},
		{"http://other.co.uk/", "own=0"},
	}
	for _, c := range cases {
		if got := j.header(c.url, shared).Get("Cookie"); got != c.want {
			t.Errorf("%s: Cookie %q, want %q", c.url, got, c.want)
		}
	}
	if got := shared.Get("Cookie"); got != "own=0" {
		t.Errorf("the shared header was changed: %q", got)
	}
	var off *cookieJar // cookies: false
	off.store("http://a.example.co.uk/", http.Header{"Set-Cookie": {"x=1"}})
	if h := off.header("http://a.example.co.uk/", nil); h != nil {
		t.Errorf("a nil jar sent %v", h)
	}
}
