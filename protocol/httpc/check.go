package httpc

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
)

// tokenChars are the characters of an HTTP token (RFC 9110): a method or a
// header name.
const tokenChars = "!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// ValidToken reports whether s is an HTTP token, as a method or a header
// name must be.
func ValidToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !strings.ContainsRune(tokenChars, rune(s[i])) {
			return false
		}
	}
	return true
}

// CheckMethod reports whether m can be sent as a request method.
func CheckMethod(m string) error {
	if !ValidToken(m) {
		return fmt.Errorf("%q is not an HTTP method: use GET, POST, PUT, PATCH, DELETE or another name without spaces", m)
	}
	return nil
}

// CheckHeader reports whether a header called name with value can be
// sent: name a token, value without CR, LF or NUL (which would split or
// end the header).
func CheckHeader(name, value string) error {
	if !ValidToken(name) {
		return fmt.Errorf("%q is not a header name: use names such as X-Request-Id", name)
	}
	if strings.ContainsAny(value, "\r\n\x00") {
		return fmt.Errorf("header %s: the value holds a line break or NUL, which would split the request", name)
	}
	return nil
}

// A URLError is a URL that cannot be requested, and why.
type URLError struct {
	URL string
	// Msg says what is wrong, starting with the quoted URL, as in
	// "\"http://h:0/\": port 0 is not from 1 to 65535".
	Msg string
}

func (e *URLError) Error() string { return "request URL " + e.Msg }

// urlErrorf returns a *URLError of s whose message is s quoted, then
// format.
func urlErrorf(s, format string, args ...any) error {
	return &URLError{URL: s, Msg: strconv.Quote(s) + fmt.Sprintf(format, args...)}
}

// CheckURL reports whether s can be requested: an absolute http:// or
// https:// URL with a host, a port (if any) from 1 to 65535, and no spaces
// or control characters. The error is a *URLError.
func CheckURL(s string) error {
	_, err := newTarget(s)
	return err
}

// checkURL is the part of CheckURL that url.Parse does not do.
func checkURL(s string, u *url.URL) error {
	if strings.IndexFunc(s, func(r rune) bool { return r <= ' ' || r == 0x7f }) >= 0 {
		return urlErrorf(s, " holds a space or control character; escape it (%%20)")
	}
	if u.Hostname() == "" {
		return urlErrorf(s, ": no host")
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return urlErrorf(s, ": port %s is not from 1 to 65535", p)
		}
	}
	return nil
}
