package scenario

import (
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"

	"golang.org/x/net/publicsuffix"
)

// A cookieJar keeps one virtual user's cookies as a browser does: the
// rules of RFC 6265 (domain and path matching, expiry, Secure, host-only
// cookies), with the public suffix list so that a response from
// a.example.co.uk cannot set a cookie for every site under co.uk. It works
// at the request level, on headers, so any HTTP transport carries it.
type cookieJar struct {
	jar  *cookiejar.Jar
	used bool // a response has set a cookie: only then are requests looked up
}

func newCookieJar() *cookieJar {
	jar, _ := cookiejar.New(&cookiejar.Options{PublicSuffixList: publicsuffix.List}) // never fails
	return &cookieJar{jar: jar}
}

// header returns h with the cookies for target added to its Cookie header.
// It never modifies h, which may be shared by every user: it returns a copy
// when there are cookies to send.
func (j *cookieJar) header(target string, h http.Header) http.Header {
	if j == nil || !j.used {
		return h
	}
	u, err := url.Parse(target)
	if err != nil {
		return h
	}
	cs := j.jar.Cookies(u)
	if len(cs) == 0 {
		return h
	}
	var b strings.Builder
	if own := h.Get("Cookie"); own != "" { // a Cookie header the step wrote goes first
		b.WriteString(own)
	}
	for _, c := range cs {
		if b.Len() > 0 {
			b.WriteString("; ")
		}
		b.WriteString(c.Name)
		b.WriteByte('=')
		b.WriteString(c.Value)
	}
	out := h.Clone()
	if out == nil {
		out = http.Header{}
	}
	out["Cookie"] = []string{b.String()}
	return out
}

// store keeps the cookies the response to target set.
func (j *cookieJar) store(target string, resp http.Header) {
	if j == nil || len(resp["Set-Cookie"]) == 0 {
		return
	}
	u, err := url.Parse(target)
	if err != nil {
		return
	}
	cs := (&http.Response{Header: resp}).Cookies()
	if len(cs) == 0 {
		return
	}
	j.jar.SetCookies(u, cs)
	j.used = true
}
