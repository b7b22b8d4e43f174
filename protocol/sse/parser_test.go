package sse

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestParserWHATWG(t *testing.T) {
	ev := func(typ, data, id string) refEvent { return refEvent{Type: typ, Data: data, ID: id} }
	tests := []struct {
		name   string
		stream string
		want   []refEvent
		lastID string
		retry  time.Duration
	}{
		{"one event", "data: hello\n\n", []refEvent{ev("message", "hello", "")}, "", 0},
		{"multi-line data joined by LF", "data: a\ndata: b\ndata\n\n", []refEvent{ev("message", "a\nb\n", "")}, "", 0},
		{"one space after the colon dropped, no more", "data:  two\ndata:none\n\n", []refEvent{ev("message", " two\nnone", "")}, "", 0},
		{"event type and id", "event: tick\nid: 7\ndata: {}\n\n", []refEvent{ev("tick", "{}", "7")}, "7", 0},
		{"type resets per event, id is sticky", "event: a\nid: 1\ndata: x\n\ndata: y\n\n", []refEvent{ev("a", "x", "1"), ev("message", "y", "1")}, "1", 0},
		{"empty id resets the last id", "id: 5\ndata: x\n\nid\ndata: y\n\n", []refEvent{ev("message", "x", "5"), ev("message", "y", "")}, "", 0},
		{"id with NUL ignored", "id: 3\ndata: x\n\nid: 4\x005\ndata: y\n\n", []refEvent{ev("message", "x", "3"), ev("message", "y", "3")}, "3", 0},
		{"no data, no event, but the id is committed", "id: 9\n\n", nil, "9", 0},
		{"event type without data is dropped", "event: lonely\n\ndata: z\n\n", []refEvent{ev("message", "z", "")}, "", 0},
		{"empty data line dispatches an empty event", "data\n\n", []refEvent{ev("message", "", "")}, "", 0},
		{"comments ignored", ": ping\n:\ndata: a\n: mid\n\n", []refEvent{ev("message", "a", "")}, "", 0},
		{"unknown fields ignored", "foo: bar\ndata: a\nDATA: b\n\n", []refEvent{ev("message", "a", "")}, "", 0},
		{"CRLF", "data: a\r\n\r\ndata: b\r\n\r\n", []refEvent{ev("message", "a", ""), ev("message", "b", "")}, "", 0},
		{"CR alone", "data: a\r\rdata: b\r\r", []refEvent{ev("message", "a", ""), ev("message", "b", "")}, "", 0},
		{"mixed line ends", "data: a\r\ndata: b\rdata: c\n\r\n", []refEvent{ev("message", "a\nb\nc", "")}, "", 0},
		{"BOM at the start skipped", "\xEF\xBB\xBFdata: a\n\n", []refEvent{ev("message", "a", "")}, "", 0},
		{"BOM later is data", "data: a\n\n\xEF\xBB\xBFdata: b\n\n", []refEvent{ev("message", "a", "")}, "", 0},
		{"only one BOM skipped", "\xEF\xBB\xBF\xEF\xBB\xBFdata: a\n\n", nil, "", 0},
		{"incomplete event at the end lost", "data: a\n\ndata: b\n", []refEvent{ev("message", "a", "")}, "", 0},
		{"retry digits", "retry: 2500\n\n", nil, "", 2500 * time.Millisecond},
		{"retry not digits ignored", "retry: 100\n\nretry: 1s\n\nretry: -5\n\nretry:\n\n", nil, "", 100 * time.Millisecond},
		{"field without colon", "data\ndata\n\n", []refEvent{ev("message", "\n", "")}, "", 0},
		{"colon in the value", "data: a:b: c\n\n", []refEvent{ev("message", "a:b: c", "")}, "", 0},
		{"the demo's framing", "retry: 1000\n\nid: 12\nevent: tick\ndata: {\"seq\":3,\"sent_at\":1}\n\n: ping\n\n",
			[]refEvent{ev("tick", `{"seq":3,"sent_at":1}`, "12")}, "12", time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ref := refParse(tt.stream)
			if !reflect.DeepEqual(ref.Events, tt.want) || ref.LastID != tt.lastID || ref.Retry != tt.retry {
				t.Fatalf("the reference parser disagrees with the test: %+v", ref)
			}
			// Every way of cutting the stream gives the same events.
			for _, sizes := range [][]int{nil, {1}, {2}, {3}, {1, 2, 5}, {7}} {
				got, err := parseAll([]byte(tt.stream), sizes)
				if err != nil {
					t.Fatalf("pieces %v: %v", sizes, err)
				}
				if !reflect.DeepEqual(got, ref) {
					t.Fatalf("pieces %v:\n got %+v\nwant %+v", sizes, got, ref)
				}
			}
		})
	}
}

func TestParserFeedStopsAtEachEvent(t *testing.T) {
	var p Parser
	b := []byte("data: 1\n\ndata: 2\n\ndata: 3")
	n, ev, err := p.Feed(b)
	if err != nil || ev == nil || string(ev.Data) != "1" || n != 9 {
		t.Fatalf("first Feed = %d, %+v, %v; want the event 1 after 9 bytes", n, ev, err)
	}
	n2, ev, _ := p.Feed(b[n:])
	if ev == nil || string(ev.Data) != "2" || n2 != 9 {
		t.Fatalf("second Feed = %d, %+v", n2, ev)
	}
	n3, ev, _ := p.Feed(b[n+n2:])
	if ev != nil || n3 != 7 {
		t.Fatalf("third Feed = %d, %+v; want all consumed and no event", n3, ev)
	}
	if _, ev, _ = p.Feed([]byte("\n\n")); ev == nil || string(ev.Data) != "3" {
		t.Fatalf("the event cut in two did not arrive: %+v", ev)
	}
}

func TestParserLimit(t *testing.T) {
	p := Parser{MaxBytes: 16}
	if _, _, err := p.Feed([]byte("data: " + strings.Repeat("x", 20) + "\n")); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("long line: err %v, want ErrTooLarge", err)
	}
	p = Parser{MaxBytes: 16}
	if _, _, err := p.Feed([]byte(strings.Repeat("y", 10))); err != nil {
		t.Fatal(err)
	}
	if _, _, err := p.Feed([]byte(strings.Repeat("y", 10))); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("long line over two pieces: err %v, want ErrTooLarge", err)
	}
	p = Parser{MaxBytes: 16}
	if _, _, err := p.Feed([]byte("data: 0123456789\ndata: 0123456789\n")); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("large event: err %v, want ErrTooLarge", err)
	}
	p = Parser{MaxBytes: 16}
	if _, ev, err := p.Feed([]byte("data: 0123456789\n\n")); err != nil || ev == nil {
		t.Fatalf("an event within the limit: %v, %v", ev, err)
	}
}

func TestParserResetKeepsIDAndRetry(t *testing.T) {
	var p Parser
	if _, _, err := p.Feed([]byte("retry: 50\nid: 4\ndata: a\n\nid: 5\ndata: half")); err != nil {
		t.Fatal(err)
	}
	p.Reset()
	if got := string(p.LastEventID()); got != "4" {
		t.Fatalf("last id after reset %q, want 4 (5 was never dispatched)", got)
	}
	if d, ok := p.Retry(); !ok || d != 50*time.Millisecond {
		t.Fatalf("retry after reset %v %v", d, ok)
	}
	_, ev, _ := p.Feed([]byte("\xEF\xBB\xBFdata: b\n\n"))
	if ev == nil || string(ev.Data) != "b" || string(ev.ID) != "4" {
		t.Fatalf("event after reset %+v; want data b, id 4, BOM skipped on the new connection", ev)
	}
}

func TestParserAllocatesNothingPerEvent(t *testing.T) {
	stream := []byte("id: 1234\nevent: tick\ndata: {\"seq\":1,\"sent_at\":1700000000000000000}\n\n: ping\n\n")
	var p Parser
	feedAll := func() {
		b := stream
		for len(b) > 0 {
			n, _, err := p.Feed(b)
			if err != nil {
				t.Fatal(err)
			}
			b = b[n:]
		}
	}
	feedAll() // grow the buffers
	if a := testing.AllocsPerRun(1000, feedAll); a != 0 {
		t.Fatalf("%.1f allocations per event, want 0", a)
	}
	// Also when every event arrives in two pieces.
	half := len(stream) / 2
	split := func() {
		for _, b := range [][]byte{stream[:half], stream[half:]} {
			for len(b) > 0 {
				n, _, _ := p.Feed(b)
				b = b[n:]
			}
		}
	}
	split()
	if a := testing.AllocsPerRun(1000, split); a != 0 {
		t.Fatalf("%.1f allocations per event cut in two, want 0", a)
	}
}

func BenchmarkParser(b *testing.B) {
	stream := []byte("id: 1234\nevent: tick\ndata: {\"seq\":1,\"sent_at\":1700000000000000000}\n\n")
	var p Parser
	b.SetBytes(int64(len(stream)))
	b.ReportAllocs()
	for b.Loop() {
		buf := stream
		for len(buf) > 0 {
			n, _, _ := p.Feed(buf)
			buf = buf[n:]
		}
	}
}
