package sse

import (
	"bytes"
	"errors"
	"fmt"
)

// A responseHead is what the client reads of a response's status line and
// header.
type responseHead struct {
	status      int
	eventStream bool   // Content-Type is text/event-stream
	contentType []byte // as sent, for messages; points into the read buffer
	chunked     bool   // Transfer-Encoding ends with chunked
	length      int64  // Content-Length; -1 if none
}

// headEnd returns the length of the header block at the start of b, blank
// line included, or -1 if b does not hold all of it yet. Lines may end
// with CRLF or LF. The search starts at from, a length of b already known
// to hold no end.
func headEnd(b []byte, from int) int {
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

var errMalformedHead = errors.New("malformed response header")

// parseHead parses a header block found by headEnd into h.
func parseHead(b []byte, h *responseHead) error {
	*h = responseHead{length: -1}
	line, b := nextLine(b)
	// HTTP/1.1 200 OK
	if len(line) < 12 || !bytes.HasPrefix(line, []byte("HTTP/1.")) || line[8] != ' ' ||
		(len(line) > 12 && line[12] != ' ') {
		return fmt.Errorf("%w: status line %q", errMalformedHead, truncate(line, 40))
	}
	for _, c := range line[9:12] {
		if c < '0' || c > '9' {
			return fmt.Errorf("%w: status line %q", errMalformedHead, truncate(line, 40))
		}
		h.status = h.status*10 + int(c-'0')
	}
	for len(b) > 0 {
		line, b = nextLine(b)
		if len(line) == 0 {
			break
		}
		i := bytes.IndexByte(line, ':')
		if i <= 0 {
			return fmt.Errorf("%w: header line %q", errMalformedHead, truncate(line, 40))
		}
		name, value := line[:i], bytes.TrimSpace(line[i+1:])
		switch {
		case bytes.EqualFold(name, []byte("Content-Type")):
			h.contentType = value
			media, _, _ := bytes.Cut(value, []byte(";"))
			h.eventStream = bytes.EqualFold(bytes.TrimSpace(media), []byte("text/event-stream"))
		case bytes.EqualFold(name, []byte("Transfer-Encoding")):
			codings := value
			if j := bytes.LastIndexByte(codings, ','); j >= 0 {
				codings = codings[j+1:]
			}
			h.chunked = bytes.EqualFold(bytes.TrimSpace(codings), []byte("chunked"))
		case bytes.EqualFold(name, []byte("Content-Length")):
			n, ok := parseLength(value)
			if !ok {
				return fmt.Errorf("%w: Content-Length %q", errMalformedHead, truncate(value, 40))
			}
			h.length = n
		}
	}
	if h.chunked {
		h.length = -1 // Transfer-Encoding overrides Content-Length
	}
	return nil
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

func truncate(b []byte, n int) []byte {
	if len(b) > n {
		return b[:n]
	}
	return b
}
