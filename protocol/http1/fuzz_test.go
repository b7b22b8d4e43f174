package http1

import (
	"bytes"
	"errors"
	"io"
	"testing"
	"testing/iotest"

	"github.com/surge-load/surge/errclass"
)

// FuzzChunked checks that the chunked decoder gives the same payload,
// completion, rest and failure however the body is cut into pieces, and
// never panics. Seeds are in testdata/fuzz/FuzzChunked; run
// `go test -fuzz FuzzChunked ./protocol/http1/` to search further.
func FuzzChunked(f *testing.F) {
	f.Add([]byte("5\r\nhello\r\n0\r\n\r\n"), uint8(1))
	f.Add([]byte("3;x=y\r\nabc\r\nA\r\n0123456789\r\n0\r\nT: 1\r\n\r\n"), uint8(2))
	f.Add([]byte("1\r\na\r\n0\r\n\r\nHTTP/1.1 200 OK\r\n"), uint8(3))
	f.Fuzz(func(t *testing.T, in []byte, piece uint8) {
		decode := func(size int) (payload, rest []byte, done, failed bool) {
			var b Body
			b.Reset(&Head{Chunked: true, Length: -1}, true)
			for p := in; len(p) > 0; {
				n := min(size, len(p))
				q := p[:n]
				p = p[n:]
				for len(q) > 0 && !b.Done() {
					data, r, err := b.Next(q)
					if err != nil {
						if !errors.Is(err, errclass.ErrProtocol) {
							t.Fatalf("error %v does not match errclass.ErrProtocol", err)
						}
						return payload, nil, false, true
					}
					payload = append(payload, data...)
					q = r
				}
				if b.Done() {
					rest = append(append(rest, q...), p...)
					break
				}
			}
			return payload, rest, b.Done(), false
		}
		whole, wrest, wdone, wfailed := decode(len(in) + 1)
		cut, crest, cdone, cfailed := decode(int(piece%16) + 1)
		if wfailed != cfailed || (!wfailed && (string(whole) != string(cut) || wdone != cdone || string(wrest) != string(crest))) {
			t.Fatalf("%q: whole gives %q rest %q done %v failed %v; in pieces of %d %q rest %q done %v failed %v",
				in, whole, wrest, wdone, wfailed, piece%16+1, cut, crest, cdone, cfailed)
		}
	})
}

// FuzzReadHead checks that a head reads the same whole and one byte at a
// time, that every failure but the connection's end is a protocol
// violation, and that nothing panics. Seeds are in
// testdata/fuzz/FuzzReadHead.
func FuzzReadHead(f *testing.F) {
	for _, s := range []string{
		"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello",
		"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n",
		"HTTP/1.1 103 Early Hints\r\nLink: </a.css>\r\n\r\nHTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
		"HTTP/1.0 200 OK\nConnection: keep-alive\nContent-Type: text/plain\n\nx",
		"HTTP/1.1 2000 OK\r\n\r\n",
		"HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
		"HTTP/1.1 200 OK\r\n Folded: x\r\n\r\n",
		"HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n",
		"ICY 200 OK\r\n\r\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		read := func(r io.Reader) (h Head, rest []byte, interim int, err error) {
			hr := HeadReader{Limit: 1 << 10}
			buf, end, n, err := hr.ReadHead(r, make([]byte, 16), 0, &h)
			if err == nil {
				rest = buf[end:n]
				if end > n || end <= 0 {
					t.Fatalf("head of %d bytes in %d", end, n)
				}
			}
			h.fields, h.ContentType = nil, nil
			return h, rest, hr.Interim, err
		}
		wh, wrest, wint, werr := read(bytes.NewReader(in))
		oh, orest, oint, oerr := read(iotest.OneByteReader(bytes.NewReader(in)))
		if (werr == nil) != (oerr == nil) || !sameHead(&wh, &oh) || wint != oint || !bytes.HasPrefix(wrest, orest) {
			t.Fatalf("%q: whole %+v %q %d %v; by byte %+v %q %d %v", in, wh, wrest, wint, werr, oh, orest, oint, oerr)
		}
		if werr != nil && werr != io.EOF && werr != io.ErrUnexpectedEOF && !errors.Is(werr, errclass.ErrProtocol) {
			t.Fatalf("%q: error %v is not a protocol violation", in, werr)
		}
		if werr == nil && (wh.Status < 100 || wh.Status > 999 || wh.Interim()) {
			t.Fatalf("%q: status %d", in, wh.Status)
		}
	})
}

func sameHead(a, b *Head) bool {
	return a.Status == b.Status && a.Minor == b.Minor && a.Length == b.Length && a.Chunked == b.Chunked && a.Close == b.Close
}
