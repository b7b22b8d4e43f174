package sse

import (
	"bytes"
	"errors"
	"math"
	"time"
)

// DefaultMaxEventBytes bounds a line and an event's data when
// Parser.MaxBytes is zero.
const DefaultMaxEventBytes = 1 << 20 // 1 MiB

// ErrTooLarge is returned when a line or an event's data exceeds the
// parser's limit.
var ErrTooLarge = errors.New("sse: event or line larger than the limit")

// bom is the UTF-8 byte order mark, which may start a stream.
var bom = []byte("\xEF\xBB\xBF")

// A Parser decodes a text/event-stream as the WHATWG HTML standard
// specifies (section 9.2.6, "Interpreting an event stream"):
//
//   - a byte order mark at the start of the stream is skipped;
//   - lines end with CRLF, LF or CR, wherever the stream is cut into
//     pieces;
//   - a line starting with a colon is a comment;
//   - "field: value" sets a field, one space after the colon being
//     dropped; a line without a colon is a field with an empty value;
//   - "data" appends its value and a line feed to the data buffer,
//     "event" sets the event type, "id" sets the last event ID unless
//     the value contains NUL, and "retry" sets the reconnection time if
//     the value is all ASCII digits; other fields are ignored;
//   - a blank line dispatches the event: it commits the last event ID,
//     and, unless the data buffer is empty, yields an event whose data is
//     the buffer without its final line feed;
//   - an event not ended by a blank line when the stream ends is lost.
//
// The parser works on bytes and does not decode UTF-8: invalid sequences
// reach Event.Data as they came. Once its buffers have grown to the size
// of the largest line and event seen, parsing allocates nothing.
//
// The zero Parser is ready to use. A Parser is not safe for concurrent
// use.
type Parser struct {
	// MaxBytes bounds the length of a line and of an event's data; zero
	// means DefaultMaxEventBytes. Feed fails with ErrTooLarge past it.
	MaxBytes int

	// Comments counts the comment lines seen, such as keep-alives.
	Comments int64

	line     []byte // the start of a line cut off by the end of a piece
	data     []byte // the data buffer, each field's value followed by '\n'
	typ      []byte // the event type buffer
	idBuf    []byte // the last event ID buffer
	lastID   []byte // the last event ID, as of the last dispatch
	retry    time.Duration
	hasRetry bool
	started  bool // the first line has been seen (and any BOM skipped)
	skipLF   bool // the last line ended with CR: a following LF is part of it
	ev       Event
}

// Feed parses b, the next piece of the stream. It stops after the first
// event it dispatches and returns that event with the number of bytes of
// b it consumed; call Feed again with the rest. When b holds no complete
// event, Feed consumes all of it and returns a nil event. The event is
// valid until the next call of Feed or Reset.
//
// Feed fails only with ErrTooLarge, after which the stream cannot be
// parsed further.
func (p *Parser) Feed(b []byte) (n int, ev *Event, err error) {
	limit := p.limit()
	for n < len(b) {
		if p.skipLF {
			p.skipLF = false
			if b[n] == '\n' {
				n++
				continue
			}
		}
		rest := b[n:]
		i := indexEOL(rest)
		if i < 0 {
			if len(p.line)+len(rest) > limit {
				return len(b), nil, ErrTooLarge
			}
			p.line = append(p.line, rest...)
			return len(b), nil, nil
		}
		line := rest[:i]
		p.skipLF = rest[i] == '\r'
		n += i + 1
		if len(p.line) > 0 {
			if len(p.line)+len(line) > limit {
				return n, nil, ErrTooLarge
			}
			p.line = append(p.line, line...)
			line = p.line
		} else if len(line) > limit {
			return n, nil, ErrTooLarge
		}
		ev, err := p.processLine(line)
		p.line = p.line[:0]
		if err != nil || ev != nil {
			return n, ev, err
		}
	}
	return n, nil, nil
}

// indexEOL returns the index of the first CR or LF in b, or -1.
func indexEOL(b []byte) int {
	for i, c := range b {
		if c == '\n' || c == '\r' {
			return i
		}
	}
	return -1
}

func (p *Parser) limit() int {
	if p.MaxBytes > 0 {
		return p.MaxBytes
	}
	return DefaultMaxEventBytes
}

// processLine interprets one complete line, without its end.
func (p *Parser) processLine(line []byte) (*Event, error) {
	if !p.started {
		p.started = true
		line = bytes.TrimPrefix(line, bom)
	}
	if len(line) == 0 {
		return p.dispatch(), nil
	}
	if line[0] == ':' {
		p.Comments++
		return nil, nil
	}
	field, value := line, line[len(line):]
	if i := bytes.IndexByte(line, ':'); i >= 0 {
		field, value = line[:i], line[i+1:]
		if len(value) > 0 && value[0] == ' ' {
			value = value[1:]
		}
	}
	switch string(field) {
	case "data":
		if len(p.data)+len(value)+1 > p.limit()+1 {
			return nil, ErrTooLarge
		}
		p.data = append(p.data, value...)
		p.data = append(p.data, '\n')
	case "event":
		p.typ = append(p.typ[:0], value...)
	case "id":
		if bytes.IndexByte(value, 0) < 0 {
			p.idBuf = append(p.idBuf[:0], value...)
		}
	case "retry":
		if ms, ok := parseDigits(value); ok {
			p.retry, p.hasRetry = ms, true
		}
	}
	return nil, nil
}

// parseDigits parses a reconnection time in milliseconds made only of
// ASCII digits, saturating at the largest time.Duration.
func parseDigits(b []byte) (time.Duration, bool) {
	if len(b) == 0 {
		return 0, false
	}
	const maxMs = math.MaxInt64 / int64(time.Millisecond)
	var ms int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		if ms <= maxMs {
			ms = ms*10 + int64(c-'0')
		}
	}
	return time.Duration(min(ms, maxMs)) * time.Millisecond, true
}

// dispatch ends the current event at a blank line.
func (p *Parser) dispatch() *Event {
	if !bytes.Equal(p.lastID, p.idBuf) {
		p.lastID = append(p.lastID[:0], p.idBuf...)
	}
	if len(p.data) == 0 {
		p.typ = p.typ[:0]
		return nil
	}
	p.ev.Data = p.data[:len(p.data)-1]
	p.ev.Type = p.typ
	if len(p.typ) == 0 {
		p.ev.Type = messageType
	}
	p.ev.ID = p.lastID
	p.data, p.typ = p.data[:0], p.typ[:0]
	return &p.ev
}

// LastEventID returns the stream's last event ID as of the last blank
// line: the value a reconnection sends as Last-Event-ID. It is valid until
// the next Feed or Reset.
func (p *Parser) LastEventID() []byte { return p.lastID }

// SetLastEventID sets the last event ID, as a client that resumes a
// stream it read earlier would.
func (p *Parser) SetLastEventID(id []byte) {
	p.lastID = append(p.lastID[:0], id...)
	p.idBuf = append(p.idBuf[:0], id...)
}

// Retry returns the reconnection time the stream last set with a "retry"
// field, and whether it set one.
func (p *Parser) Retry() (time.Duration, bool) { return p.retry, p.hasRetry }

// Reset readies p for a new connection of the same stream: the event in
// progress and any partial line are dropped, while the last event ID and
// the reconnection time are kept, as an EventSource keeps them across
// reconnections. The buffers keep their storage.
func (p *Parser) Reset() {
	p.line, p.data, p.typ = p.line[:0], p.data[:0], p.typ[:0]
	p.idBuf = append(p.idBuf[:0], p.lastID...)
	p.started, p.skipLF = false, false
	p.ev = Event{}
}
