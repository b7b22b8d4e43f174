package sse

import (
	"strings"
	"time"
)

// refEvent is an event as the reference parser sees it.
type refEvent struct{ Type, Data, ID string }

// refResult is everything the reference parser reports about a stream.
type refResult struct {
	Events   []refEvent
	LastID   string
	Retry    time.Duration
	HasRetry bool
	Comments int64
}

// refParse interprets a whole stream by the letter of the WHATWG HTML
// standard, 9.2.6, with strings and no attention to speed: the oracle the
// Parser is checked against.
func refParse(stream string) refResult {
	var r refResult
	stream = strings.TrimPrefix(stream, "\uFEFF")
	var data, typ, idBuf strings.Builder
	for {
		i := strings.IndexAny(stream, "\r\n")
		if i < 0 {
			break // an incomplete line at the end is discarded
		}
		line := stream[:i]
		if strings.HasPrefix(stream[i:], "\r\n") {
			stream = stream[i+2:]
		} else {
			stream = stream[i+1:]
		}
		switch {
		case line == "":
			r.LastID = idBuf.String()
			if data.Len() == 0 {
				typ.Reset()
				continue
			}
			ev := refEvent{Type: typ.String(), Data: strings.TrimSuffix(data.String(), "\n"), ID: r.LastID}
			if ev.Type == "" {
				ev.Type = "message"
			}
			r.Events = append(r.Events, ev)
			data.Reset()
			typ.Reset()
			continue
		case line[0] == ':':
			r.Comments++
			continue
		}
		field, value, found := strings.Cut(line, ":")
		if found {
			value = strings.TrimPrefix(value, " ")
		}
		switch field {
		case "event":
			typ.Reset()
			typ.WriteString(value)
		case "data":
			data.WriteString(value)
			data.WriteByte('\n')
		case "id":
			if !strings.Contains(value, "\x00") {
				idBuf.Reset()
				idBuf.WriteString(value)
			}
		case "retry":
			if value != "" && strings.Trim(value, "0123456789") == "" {
				if d, ok := parseDigits([]byte(value)); ok {
					r.Retry, r.HasRetry = d, true
				}
			}
		}
	}
	return r
}

// parseAll feeds stream to a new Parser in pieces of the given sizes
// (cycling through them; all of it at once if sizes is empty) and
// collects what it reports.
func parseAll(stream []byte, sizes []int) (refResult, error) {
	var p Parser
	var r refResult
	k := 0
	for len(stream) > 0 {
		n := len(stream)
		if len(sizes) > 0 {
			n = min(max(sizes[k%len(sizes)], 1), len(stream))
			k++
		}
		piece := stream[:n]
		stream = stream[n:]
		for len(piece) > 0 {
			used, ev, err := p.Feed(piece)
			if err != nil {
				return r, err
			}
			piece = piece[used:]
			if ev != nil {
				r.Events = append(r.Events, refEvent{Type: string(ev.Type), Data: string(ev.Data), ID: string(ev.ID)})
			}
		}
	}
	r.LastID = string(p.LastEventID())
	r.Retry, r.HasRetry = p.Retry()
	r.Comments = p.Comments
	return r, nil
}
