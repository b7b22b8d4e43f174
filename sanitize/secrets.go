package sanitize

import (
	"net/url"
	"regexp"
	"strings"
)

// Redacted replaces a secret.
const Redacted = "REDACTED"

// secretWords, found anywhere in a header or query parameter name, mark its
// value as a secret: Authorization, Cookie, X-Api-Key, X-Auth-Token,
// access_token, client_secret, password, X-Amz-Signature, sessionid, ...
var secretWords = []string{"token", "secret", "key", "cookie", "auth", "password", "passwd", "pwd", "signature", "credential", "session"}

// secretNames are short names that are secrets only as a whole word.
var secretNames = []string{"sig", "pass", "code", "jwt"}

// Secret reports whether a header or query parameter called name carries a
// credential, so that its value must never be shown: its name says token,
// secret, key, cookie, auth, password, signature, credential or session
// (in any case), or it is sig, pass, code or jwt.
func Secret(name string) bool {
	n := strings.ToLower(name)
	for _, w := range secretWords {
		if strings.Contains(n, w) {
			return true
		}
	}
	for _, w := range secretNames {
		if n == w {
			return true
		}
	}
	return false
}

// Header returns value, or Redacted if the header called name is Secret.
func Header(name, value string) string {
	if Secret(name) {
		return Redacted
	}
	return value
}

// URL returns s with its user info (user and password) replaced by
// Redacted and the values of Secret query parameters replaced by Redacted.
// Text that does not parse as a URL is redacted as Text redacts it.
func URL(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return redactText(s)
	}
	changed := false
	if u.User != nil {
		u.User = url.User(Redacted)
		changed = true
	}
	if u.RawQuery != "" {
		if q := redactQuery(u.RawQuery); q != u.RawQuery {
			u.RawQuery, changed = q, true
		}
	}
	if !changed {
		return s
	}
	return u.String()
}

// redactQuery redacts the values of Secret parameters in a raw query,
// keeping everything else as written.
func redactQuery(q string) string {
	parts := strings.Split(q, "&")
	for i, p := range parts {
		name, _, ok := strings.Cut(p, "=")
		if n, err := url.QueryUnescape(name); err == nil {
			name = n
		}
		if ok && Secret(name) {
			parts[i] = p[:strings.IndexByte(p, '=')+1] + Redacted
		}
	}
	return strings.Join(parts, "&")
}

var (
	// userInfoRe finds the user info of URLs in free text.
	userInfoRe = regexp.MustCompile(`([A-Za-z][A-Za-z0-9+.\-]*://)[^/?#\s"'<>@]+@`)
	// paramRe finds name=value pairs in free text (query strings, form
	// bodies, "token=..." in a message).
	paramRe = regexp.MustCompile(`([A-Za-z0-9_.\-\[\]%]+)=([^&\s#"'<>;,]*)`)
	// bearerRe finds credentials of an Authorization header quoted in text.
	bearerRe = regexp.MustCompile(`(?i)\b(bearer|basic|token)\s+[A-Za-z0-9._~+/=\-]{8,}`)
)

// redactText redacts the secrets Text finds in free text.
func redactText(s string) string {
	s = userInfoRe.ReplaceAllString(s, "${1}"+Redacted+"@")
	s = paramRe.ReplaceAllStringFunc(s, func(m string) string {
		name, value, _ := strings.Cut(m, "=")
		if n, err := url.QueryUnescape(name); err == nil {
			name = n
		}
		if value == "" || value == Redacted || !Secret(name) {
			return m
		}
		return m[:len(m)-len(value)] + Redacted
	})
	return bearerRe.ReplaceAllStringFunc(s, func(m string) string {
		scheme := m[:strings.IndexAny(m, " \t\n\r\f\v")]
		return scheme + " " + Redacted
	})
}
