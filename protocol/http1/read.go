package http1

import (
	"io"
)

// A HeadReader reads response heads from a connection into a buffer.
type HeadReader struct {
	// Limit is the longest head read; zero means MaxHeadBytes. The buffer
	// grows up to it for a head that does not fit.
	Limit int
	// Arrived, if not nil, is called when the first byte of a response
	// has been read: for each interim response and for the final one, so
	// the last call is the final response's first byte.
	Arrived func()
	// Interim counts the informational responses skipped by the last
	// ReadHead.
	Interim int
}

// ReadHead reads from r into buf, whose first n bytes were read earlier,
// until it holds the head of a final response, and parses it into h.
// Informational (1xx) responses before it are skipped. It returns the
// buffer (buf, or a larger one if the head did not fit), the length of the
// head at its start, and how many bytes of it are filled: the bytes after
// the head are the start of the body. An io.EOF before any byte of a
// response is returned as is; within one it is io.ErrUnexpectedEOF.
func (hr *HeadReader) ReadHead(r io.Reader, buf []byte, n int, h *Head) (out []byte, end, filled int, err error) {
	limit := hr.Limit
	if limit <= 0 {
		limit = MaxHeadBytes
	}
	hr.Interim = 0
	scanned := 0
	if n > 0 && hr.Arrived != nil {
		hr.Arrived()
	}
	for {
		if end := HeadEnd(buf[:n], scanned); end >= 0 {
			if err := ParseHead(buf[:end], h); err != nil {
				return buf, 0, n, err
			}
			if !h.Interim() {
				return buf, end, n, nil
			}
			if hr.Interim++; hr.Interim > MaxInterim {
				return buf, 0, n, violated("more than %d informational (1xx) responses", MaxInterim)
			}
			n = copy(buf, buf[end:n])
			scanned = 0
			if n > 0 && hr.Arrived != nil {
				hr.Arrived() // the final response came with the interim one
			}
			continue
		}
		scanned = max(n-3, 0)
		if n == len(buf) {
			if n >= limit {
				return buf, 0, n, violated("head longer than %d bytes", limit)
			}
			bigger := make([]byte, min(2*len(buf), limit))
			copy(bigger, buf[:n])
			buf = bigger
		}
		m, rerr := r.Read(buf[n:])
		if m > 0 && n == 0 && hr.Arrived != nil {
			hr.Arrived()
		}
		n += m
		if rerr != nil && HeadEnd(buf[:n], scanned) < 0 {
			if rerr == io.EOF && n > 0 {
				rerr = io.ErrUnexpectedEOF
			}
			return buf, 0, n, rerr
		}
	}
}
