package httpc

import (
	"fmt"
	"maps"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/surge-load/surge/errclass"
	"github.com/surge-load/surge/metrics"
)

// eagerMessage is the message as it was made before it was made lazily:
// the reference the lazy one must equal.
func eagerMessage(status int, body []byte) string {
	if len(body) > snippetBytes {
		body = body[:snippetBytes]
	}
	s := strings.Join(strings.Fields(strings.ToValidUTF8(string(body), "")), " ")
	if utf8.RuneCountInString(s) > snippetRunes {
		s = string([]rune(s)[:snippetRunes]) + "…"
	}
	if s == "" {
		return fmt.Sprintf("status %d", status)
	}
	return fmt.Sprintf("status %d: %s", status, s)
}

func FuzzStatusErrorMessage(f *testing.F) {
	for _, s := range []string{"", " \n\t ", `{"error": "lock wait timeout exceeded"}`, strings.Repeat("ab ", 100),
		strings.Repeat("é", 130), "\xff\xfe bad \xc3", "a\u00a0b\u2028c", strings.Repeat("x", 119) + " y", "\ufffd ok"} {
		f.Add(503, []byte(s))
	}
	f.Fuzz(func(t *testing.T, status int, body []byte) {
		e := newStatusError(status, body)
		want := eagerMessage(status, body)
		if got := e.Error(); got != want {
			t.Fatalf("message %q, want %q", got, want)
		}
		buf := make([]byte, 0, 512)
		if got := string(e.AppendMessage(buf)); got != want {
			t.Fatalf("appended message %q, want %q", got, want)
		}
	})
}

// TestStatusErrorAppendsWithoutAllocating checks that the message of a
// failure goes into a reused buffer with no allocation.
func TestStatusErrorAppendsWithoutAllocating(t *testing.T) {
	e := newStatusError(503, []byte(`{"error": "lock wait timeout exceeded"}`))
	buf := make([]byte, 0, 512)
	if n := testing.AllocsPerRun(100, func() { buf = e.AppendMessage(buf[:0]) }); n != 0 {
		t.Errorf("AppendMessage allocates %v times", n)
	}
}

// TestRepeatedStatusErrorsCounted checks that failures recorded by key
// come out as the same messages, counted exactly, as formatted ones.
func TestRepeatedStatusErrorsCounted(t *testing.T) {
	rec := metrics.NewRecorder(1)
	ep := rec.Endpoint("GET /")
	sh := rec.Shard(0)
	now := time.Now()
	rec.Begin(now, nil)
	bodies := []string{`{"error": "lock wait timeout exceeded"}`, "  overloaded\n", ""}
	for i := range 30 {
		s := metrics.Sample{Endpoint: ep, Start: now, End: now.Add(time.Millisecond), Status: 503, Class: errclass.HTTP5xx}
		s.Err = newStatusError(503, []byte(bodies[i%3]))
		sh.Record(&s)
	}
	rec.Finish(now.Add(time.Second))
	res := rec.Result(time.Second)
	got := map[string]int64{}
	for _, e := range res.Errors {
		for _, m := range e.Samples {
			got[m.Message] += m.Count
		}
	}
	want := map[string]int64{`status 503: {"error": "lock wait timeout exceeded"}`: 10, "status 503: overloaded": 10, "status 503": 10}
	if !maps.Equal(got, want) {
		t.Errorf("messages %v, want %v", got, want)
	}
}
