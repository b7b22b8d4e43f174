package httpc

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"testing"

	"github.com/surge-load/surge/errclass"
	"github.com/surge-load/surge/metrics"
)

// BenchmarkDo measures one keep-alive GET against a local server, server
// included: allocations are the client's and the server's together.
func BenchmarkDo(b *testing.B) {
	ts := newTestServer(b, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "hello, world\n")
	}), false)
	c := New(Options{})
	defer c.Close()
	req := mustPrepare(b, &Request{URL: ts.URL + "/bench", Header: http.Header{"User-Agent": {"surge-bench"}}})
	ctx := context.Background()
	var s metrics.Sample
	b.ReportAllocs()
	for b.Loop() {
		c.Do(ctx, req, &s)
		if s.Class != errclass.None {
			b.Fatalf("class %q: %v", s.Class, s.Err)
		}
	}
}

// BenchmarkDoCannedServer is BenchmarkDo against a server that answers
// with a canned response and allocates nothing per request, so the
// allocations reported are the client's alone.
func BenchmarkDoCannedServer(b *testing.B) {
	const response = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 13\r\n\r\nhello, world\n"
	addr := rawServer(b, func(c net.Conn) {
		r := bufio.NewReader(c)
		for {
			line, err := r.ReadSlice('\n')
			if err != nil {
				return
			}
			if len(line) == 2 && line[0] == '\r' { // end of a request head
				if _, err := io.WriteString(c, response); err != nil {
					return
				}
			}
		}
	})
	c := New(Options{})
	defer c.Close()
	req := mustPrepare(b, &Request{URL: "http://" + addr + "/bench", Header: http.Header{"User-Agent": {"surge-bench"}}})
	ctx := context.Background()
	var s metrics.Sample
	b.ReportAllocs()
	for b.Loop() {
		c.Do(ctx, req, &s)
		if s.Class != errclass.None {
			b.Fatalf("class %q: %v", s.Class, s.Err)
		}
	}
}
