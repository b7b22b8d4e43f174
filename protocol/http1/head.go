package http1

import (
	"bytes"
	"net/http"
	"net/textproto"
)

// MaxHeadBytes is the longest response head read, as net/http's default
// (Transport.MaxResponseHeaderBytes): a longer one is a protocol
// violation.
const MaxHeadBytes = 10 << 20

// MaxInterim bounds the informational (1xx) responses before the final
// one, as net/http does.
const MaxInterim = 5

// A Head is a parsed response head. Its byte slices point into the block
// it was parsed from.
type Head struct {
	Status int   // status code, 100 to 999
	Minor  int   // HTTP/1.Minor
	Length int64 // Content-Length; -1 if none or if chunked
	// Chunked is set when the body has the chunked transfer coding.
	Chunked bool
	// Close is set when the server closes the connection after the
	// response: Connection: close, or HTTP/1.0 without keep-alive.
	Close       bool
	ContentType []byte // as sent; nil if none

	fields []byte // the header lines
}

// Interim reports whether h is an informational response that a final one
// follows (1xx other than 101 Switching Protocols).
func (h *Head) Interim() bool { return h.Status >= 100 && h.Status < 200 && h.Status != 101 }

// HasBody reports whether a response with head h to a request with method
// has a body: not for HEAD, 1xx, 204 and 304.
func (h *Head) HasBody(method string) bool {
	return method != http.MethodHead && h.Status >= 200 && h.Status != 204 && h.Status != 304
}

// HeadEnd returns the length of the head at the start of b, blank line
// included, or -1 if b does not hold all of it yet. Lines may end with
// CRLF or LF. The search starts at from, a length of b already known to
// hold no end.
func HeadEnd(b []byte, from int) int {
	for i := max(from, 0); i < len(b); i++ {
		if b[i] != '\n' {
			continue
		}
		switch {
		case i+1 < len(b) && b[i+1] == '\n':
			return i + 2
		case i+2 < len(b) && b[i+1] == '\r' && b[i+2] == '\n':
			return i + 3
		}
	}
	return -1
}

// ParseHead parses a head found by HeadEnd into h, as net/http reads one:
// "HTTP/1.0" or "HTTP/1.1", a three-digit status, header fields whose
// names are tokens, at most one distinct Content-Length, and no transfer
// coding but chunked.
func ParseHead(b []byte, h *Head) error {
	*h = Head{Length: -1}
	line, b := nextLine(b)
	// HTTP/1.1 200 OK
	if len(line) < 12 || !bytes.HasPrefix(line, []byte("HTTP/1.")) || line[8] != ' ' ||
		(line[7] != '0' && line[7] != '1') || (len(line) > 12 && line[12] != ' ') {
		return violated("status line %q", quote(line, 40))
	}
	h.Minor = int(line[7] - '0')
	for _, c := range line[9:12] {
		if c < '0' || c > '9' {
			return violated("status line %q", quote(line, 40))
		}
		h.Status = h.Status*10 + int(c-'0')
	}
	if h.Status < 100 {
		return violated("status line %q", quote(line, 40))
	}
	h.fields = b
	var (
		length    []byte
		te        []byte
		keepAlive bool
	)
	for len(b) > 0 {
		line, b = nextLine(b)
		if len(line) == 0 {
			break
		}
		i := bytes.IndexByte(line, ':')
		if i <= 0 || !ValidToken(line[:i]) {
			return violated("header line %q", quote(line, 40))
		}
		name, value := line[:i], bytes.Trim(line[i+1:], " \t")
		switch {
		case len(name) == 14 && bytes.EqualFold(name, []byte("Content-Length")):
			if length != nil && !bytes.Equal(length, value) {
				return violated("Content-Length %q and %q", quote(length, 20), quote(value, 20))
			}
			n, ok := parseLength(value)
			if !ok {
				return violated("Content-Length %q", quote(value, 40))
			}
			length, h.Length = value, n
		case len(name) == 17 && bytes.EqualFold(name, []byte("Transfer-Encoding")):
			if te != nil {
				return violated("Transfer-Encoding sent twice")
			}
			te = value
		case len(name) == 12 && bytes.EqualFold(name, []byte("Content-Type")):
			h.ContentType = value
		case len(name) == 10 && bytes.EqualFold(name, []byte("Connection")):
			for tok := range bytes.SplitSeq(value, []byte(",")) {
				tok = bytes.Trim(tok, " \t")
				switch {
				case bytes.EqualFold(tok, []byte("close")):
					h.Close = true
				case bytes.EqualFold(tok, []byte("keep-alive")):
					keepAlive = true
				}
			}
		}
	}
	if h.Minor == 0 && !keepAlive {
		h.Close = true
	}
	if te != nil && h.Minor > 0 {
		if !bytes.EqualFold(te, []byte("chunked")) {
			return violated("unsupported Transfer-Encoding %q", quote(te, 40))
		}
		h.Chunked, h.Length = true, -1 // chunked overrides Content-Length
	}
	return nil
}

// Header returns the header fields of h as an http.Header, with canonical
// names. It allocates; the rest of this package does not.
func (h *Head) Header() http.Header {
	out := make(http.Header, 8)
	for b := h.fields; len(b) > 0; {
		var line []byte
		line, b = nextLine(b)
		i := bytes.IndexByte(line, ':')
		if i <= 0 {
			continue
		}
		name := textproto.CanonicalMIMEHeaderKey(string(line[:i]))
		out[name] = append(out[name], string(bytes.Trim(line[i+1:], " \t")))
	}
	return out
}

// nextLine splits off the first line of b, without its CRLF or LF.
func nextLine(b []byte) (line, rest []byte) {
	i := bytes.IndexByte(b, '\n')
	if i < 0 {
		return b, nil
	}
	line, rest = b[:i], b[i+1:]
	if n := len(line); n > 0 && line[n-1] == '\r' {
		line = line[:n-1]
	}
	return line, rest
}

// parseLength parses a Content-Length value.
func parseLength(b []byte) (int64, bool) {
	if len(b) == 0 || len(b) > 18 {
		return 0, false
	}
	var n int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	return n, true
}

// ValidToken reports whether s is an HTTP token: a method or a header
// field name.
func ValidToken[T string | []byte](s T) bool {
	if len(s) == 0 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 0x80 || !isToken[c] {
			return false
		}
	}
	return true
}

// ValidValue reports whether s may be sent as a header field value: no
// line break and no NUL.
func ValidValue(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '\r' || c == '\n' || c == 0 {
			return false
		}
	}
	return true
}

var isToken = func() (t [128]bool) {
	for _, c := range "!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz" {
		t[c] = true
	}
	return t
}()
