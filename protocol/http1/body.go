package http1

// How a response body is delimited.
const (
	bodyToEOF   = iota // until the server closes the connection
	bodyChunked        // chunked transfer coding
	bodyLength         // Content-Length bytes
)

// The states of the chunked decoder.
const (
	chunkSize    = iota // reading the hexadecimal size
	chunkExt            // skipping a chunk extension
	chunkSizeLF         // the LF after the size line's CR
	chunkData           // inside a chunk's data
	chunkDataCR         // the CR after the data
	chunkDataLF         // the LF after the data
	chunkTrailer        // reading trailer lines, up to a blank one
	chunkDone           // past the last chunk
)

// Limits that keep a malformed body from growing state without end.
const (
	maxChunkSizeDigits = 15      // sizes up to 2^60
	maxChunkLineBytes  = 4 << 10 // an extension or trailer line
)

// A Body takes the payload out of the bytes of a response body as they
// arrive, in pieces of any size, without copying it. Trailer fields of a
// chunked body are read and dropped.
type Body struct {
	mode  int
	left  int64 // chunkData, bodyLength: payload bytes left
	state int   // bodyChunked: the decoder's state
	size  int64 // chunkSize: the size read so far
	count int   // digits of the size, or bytes of the current line
	done  bool  // the body is complete
}

// Reset readies b for the body described by h; hasBody false (see
// Head.HasBody) makes it an empty body, complete at once.
func (b *Body) Reset(h *Head, hasBody bool) {
	*b = Body{mode: bodyToEOF}
	switch {
	case !hasBody:
		b.mode, b.done = bodyLength, true
	case h.Chunked:
		b.mode = bodyChunked
	case h.Length >= 0:
		b.mode, b.left = bodyLength, h.Length
		b.done = h.Length == 0
	}
}

// Done reports whether the body is complete.
func (b *Body) Done() bool { return b.done }

// ToEOF reports whether the body lasts until the server closes the
// connection: neither chunked nor of a known length.
func (b *Body) ToEOF() bool { return b.mode == bodyToEOF }

// Next returns the payload at the start of p, and the rest of p after it
// and after any framing consumed. data is empty when p held only
// framing; rest holds the bytes past the end of the body.
func (b *Body) Next(p []byte) (data, rest []byte, err error) {
	if b.done {
		return nil, p, nil
	}
	switch b.mode {
	case bodyToEOF:
		return p, nil, nil
	case bodyLength:
		n := min(int64(len(p)), b.left)
		b.left -= n
		b.done = b.left == 0
		return p[:n], p[n:], nil
	}
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch b.state {
		case chunkSize:
			switch d := unhex(c); {
			case d >= 0:
				if b.count == maxChunkSizeDigits {
					return nil, nil, violated("chunked body: chunk size too large")
				}
				b.size = b.size<<4 | int64(d)
				b.count++
			case b.count == 0:
				return nil, nil, violated("chunked body: no chunk size")
			case c == ';' || c == ' ' || c == '\t':
				b.state, b.count = chunkExt, 0
			case c == '\r':
				b.state = chunkSizeLF
			case c == '\n':
				b.endSizeLine()
			default:
				return nil, nil, violated("chunked body: bad byte %q in chunk size", c)
			}
		case chunkExt:
			switch c {
			case '\r':
				b.state = chunkSizeLF
			case '\n':
				b.endSizeLine()
			default:
				if b.count++; b.count > maxChunkLineBytes {
					return nil, nil, violated("chunked body: chunk extension too long")
				}
			}
		case chunkSizeLF:
			if c != '\n' {
				return nil, nil, violated("chunked body: CR without LF after chunk size")
			}
			b.endSizeLine()
		case chunkData:
			n := min(int64(len(p)-i), b.left)
			b.left -= n
			if b.left == 0 {
				b.state = chunkDataCR
			}
			return p[i : i+int(n)], p[i+int(n):], nil
		case chunkDataCR:
			switch c {
			case '\r':
				b.state = chunkDataLF
			case '\n':
				b.state, b.size, b.count = chunkSize, 0, 0
			default:
				return nil, nil, violated("chunked body: no CRLF after chunk data")
			}
		case chunkDataLF:
			if c != '\n' {
				return nil, nil, violated("chunked body: CR without LF after chunk data")
			}
			b.state, b.size, b.count = chunkSize, 0, 0
		case chunkTrailer:
			switch c {
			case '\r':
			case '\n':
				if b.count == 0 {
					b.state, b.done = chunkDone, true
					return nil, p[i+1:], nil
				}
				b.count = 0
			default:
				if b.count++; b.count > maxChunkLineBytes {
					return nil, nil, violated("chunked body: trailer line too long")
				}
			}
		}
	}
	return nil, nil, nil
}

// endSizeLine starts the chunk whose size line just ended: its data, or
// the trailer after the last, empty chunk.
func (b *Body) endSizeLine() {
	if b.size == 0 {
		b.state, b.count = chunkTrailer, 0
		return
	}
	b.state, b.left = chunkData, b.size
}

// unhex returns the value of hexadecimal digit c, or -1.
func unhex(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c && c <= 'f':
		return int(c-'a') + 10
	case 'A' <= c && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}
