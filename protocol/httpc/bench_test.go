package httpc

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

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

// BenchmarkRecordStatus measures recording one exchange's sample into a
// shard, a success and a 503 with a body: a server that fails fast must
// not cost the generator more per response than one that succeeds.
func BenchmarkRecordStatus(b *testing.B) {
	body := []byte(`{"error": "lock wait timeout exceeded", "request_id": "a1b2c3"}`)
	for _, status := range []int{200, 503} {
		b.Run(http.StatusText(status), func(b *testing.B) {
			rec := metrics.NewRecorder(1)
			ep := rec.Endpoint("GET /")
			sh := rec.Shard(0)
			now := time.Now()
			s := metrics.Sample{Endpoint: ep, Start: now, End: now.Add(time.Millisecond), Status: status}
			if status >= 400 {
				s.Class, s.Err = errclass.FromStatus(status), newStatusError(status, body)
			}
			b.ReportAllocs()
			for b.Loop() {
				sh.Record(&s)
			}
		})
	}
}

// BenchmarkStatusError measures making the error of a 503 with a body, as
// every failed exchange does, and recording it.
func BenchmarkStatusError(b *testing.B) {
	body := []byte("{\"error\":\n  \"lock wait timeout exceeded\"}" + strings.Repeat(" pad", 100))
	rec := metrics.NewRecorder(1)
	ep := rec.Endpoint("GET /")
	sh := rec.Shard(0)
	now := time.Now()
	b.ReportAllocs()
	for b.Loop() {
		s := metrics.Sample{Endpoint: ep, Start: now, End: now.Add(time.Millisecond), Status: 503, Class: errclass.HTTP5xx}
		s.Err = newStatusError(503, body)
		sh.Record(&s)
	}
}
