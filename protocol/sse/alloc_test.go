package sse

import (
	"fmt"
	"testing"
	"time"

	"github.com/surge-load/surge/protocol/http1"
)

// readPath returns a stream in the middle of a chunked subscription that
// measures delivery delays into a recorder, and one chunk of events for it.
func readPath(tb testing.TB, events int) (*stream, []byte, func()) {
	r := newRecording()
	c := New(Options{})
	s := c.pool.Get().(*stream)
	req := &Request{URL: "http://127.0.0.1/", SentAt: JSONTime("sent_at", time.Nanosecond)}
	prep, err := req.prepared()
	if err != nil {
		tb.Fatal(err)
	}
	s.begin(req, prep, r.to())
	s.start = time.Now()
	s.b.Reset(&http1.Head{Status: 200, Chunked: true, Length: -1}, true)
	payload := eventStream(1, events)
	chunk := fmt.Appendf(nil, "%x\r\n%s\r\n", len(payload), payload)
	return s, chunk, func() { r.result() }
}

// TestReadPathAllocatesNothing feeds chunks of events through the body
// decoder, the parser, the send-time reader and the recorder: once warm,
// an event costs no allocation.
func TestReadPathAllocatesNothing(t *testing.T) {
	s, chunk, done := readPath(t, 10)
	defer done()
	consume := func() {
		if s.consume(chunk) {
			t.Fatalf("the stream ended: %+v", s.out)
		}
	}
	for range 20 {
		consume() // grow the buffers and the interval's histograms
	}
	if a := testing.AllocsPerRun(200, consume); a != 0 {
		t.Fatalf("%.2f allocations per 10 events, want 0", a)
	}
	if s.total != 2210 {
		t.Fatalf("%d events read, want 2210", s.total)
	}
}

// BenchmarkReadPath measures the generator's cost of one received event:
// chunked decoding, parsing, reading sent_at, and recording the event.
func BenchmarkReadPath(b *testing.B) {
	s, chunk, done := readPath(b, 100)
	defer done()
	b.SetBytes(int64(len(chunk)) / 100)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i += 100 {
		s.consume(chunk)
	}
}
