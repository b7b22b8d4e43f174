package httpc

import (
	"context"
	"io"
	"net/http"
	"testing"

	"github.com/surge-load/surge/errclass"
	"github.com/surge-load/surge/metrics"
)

// BenchmarkDo measures one keep-alive GET against a local net/http
// server, server included: allocations are the client's and the server's
// together.
func BenchmarkDo(b *testing.B) {
	ts := newTestServer(b, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "hello, world\n")
	}), false)
	for _, tr := range transports {
		b.Run(tr.name, func(b *testing.B) {
			benchDo(b, tr.make(Options{}), &Request{URL: ts.URL + "/bench"})
		})
	}
}

// BenchmarkDoCannedServer is BenchmarkDo against a server that answers
// with a canned response and allocates nothing per request, so the
// allocations reported are the client's alone: the lean client's and
// net/http's, for a prepared GET whose response headers are not wanted
// (as a single-URL test sends) and for one whose are.
func BenchmarkDoCannedServer(b *testing.B) {
	addr := cannedServer(b)
	for _, tr := range transports {
		b.Run(tr.name+"/prepared", func(b *testing.B) {
			benchDo(b, tr.make(Options{}), &Request{URL: "http://" + addr + "/bench", NoHeader: true})
		})
		b.Run(tr.name+"/headers", func(b *testing.B) {
			benchDo(b, tr.make(Options{}), &Request{URL: "http://" + addr + "/bench"})
		})
	}
}

func benchDo(b *testing.B, c Transport, req *Request) {
	defer c.Close()
	mustPrepare(b, req)
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	var s metrics.Sample
	b.ReportAllocs()
	for b.Loop() {
		c.Do(ctx, req, &s)
		if s.Class != errclass.None {
			b.Fatalf("class %q: %v", s.Class, s.Err)
		}
	}
}
