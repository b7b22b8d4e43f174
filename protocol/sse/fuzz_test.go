package sse

import (
	"math/rand/v2"
	"reflect"
	"testing"
)

// FuzzParse checks the Parser against the reference reading of the
// standard (refParse) on any input, cut into pieces at points chosen by
// seed: the events, the last event ID, the reconnection time and the
// comments must agree, and nothing may panic. Seeds are in
// testdata/fuzz/FuzzParse; run `go test -fuzz FuzzParse ./protocol/sse/`
// to search further.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"data: hello\n\n",
		"event: tick\nid: 1\ndata: {\"sent_at\":1}\n\n",
		"\xEF\xBB\xBFdata: a\r\n\r\n",
		"data: a\rdata: b\r\r",
		"id: 1\x00\ndata\n\n: ping\n\nretry: 10\n\n",
	} {
		f.Add([]byte(s), uint16(0))
		f.Add([]byte(s), uint16(1))
	}
	f.Fuzz(func(t *testing.T, stream []byte, seed uint16) {
		want := refParse(string(stream))
		var sizes []int
		if seed != 0 {
			r := rand.New(rand.NewPCG(uint64(seed), 1))
			for range 16 {
				sizes = append(sizes, 1+r.IntN(8))
			}
		}
		got, err := parseAll(stream, sizes)
		if err != nil {
			t.Fatalf("Feed: %v", err)
		}
		if len(got.Events) == 0 && len(want.Events) == 0 {
			got.Events, want.Events = nil, nil
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("stream %q cut by %v:\n got %+v\nwant %+v", stream, sizes, got, want)
		}
	})
}

// FuzzChunked checks that the chunked decoder gives the same payload,
// completion and failure however the body is cut into pieces, and never
// panics; and that a header block never panics the header parser.
func FuzzChunked(f *testing.F) {
	f.Add([]byte("5\r\nhello\r\n0\r\n\r\n"), uint8(1))
	f.Add([]byte("3;x=y\r\nabc\r\nA\r\n0123456789\r\n0\r\nT: 1\r\n\r\n"), uint8(2))
	f.Add([]byte("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"), uint8(3))
	f.Fuzz(func(t *testing.T, in []byte, piece uint8) {
		decode := func(size int) (payload []byte, done, failed bool) {
			var b body
			b.reset(&responseHead{chunked: true, length: -1})
			for p := in; len(p) > 0 && !b.done; {
				n := min(size, len(p))
				q := p[:n]
				p = p[n:]
				for len(q) > 0 && !b.done {
					data, rest, err := b.next(q)
					if err != nil {
						return payload, false, true
					}
					payload = append(payload, data...)
					q = rest
				}
			}
			return payload, b.done, false
		}
		whole, wdone, wfailed := decode(len(in) + 1)
		cut, cdone, cfailed := decode(int(piece%16) + 1)
		if wfailed != cfailed || (!wfailed && (string(whole) != string(cut) || wdone != cdone)) {
			t.Fatalf("%q: whole gives %q done %v failed %v; in pieces of %d %q done %v failed %v",
				in, whole, wdone, wfailed, piece%16+1, cut, cdone, cfailed)
		}
		var h responseHead
		if end := headEnd(in, 0); end >= 0 {
			_ = parseHead(in[:end], &h)
		}
	})
}
