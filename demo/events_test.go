package demo

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"
)

// sseFrame is one blank-line-terminated block of an event stream.
type sseFrame struct {
	id, event, data, retry string
	comments               []string
	err                    error // a framing error, or the end of the stream
}

// sseClient reads an event stream in a goroutine, parsing it strictly.
type sseClient struct {
	frames chan sseFrame
	cancel context.CancelFunc
}

// subscribe opens GET /api/v1/events on baseURL, with a Last-Event-ID
// header unless lastID is empty.
func subscribe(t *testing.T, baseURL, lastID string) *sseClient {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	req, err := http.NewRequestWithContext(ctx, "GET", baseURL+"/api/v1/events", nil)
	if err != nil {
		t.Fatal(err)
	}
	if lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		t.Fatalf("subscribe: %v", err)
	}
	if resp.StatusCode != http.StatusOK {
		cancel()
		t.Fatalf("subscribe: status %d", resp.StatusCode)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		cancel()
		t.Fatalf("content type %q, want text/event-stream", ct)
	}
	c := &sseClient{frames: make(chan sseFrame, 100), cancel: cancel}
	t.Cleanup(cancel)
	emit := func(f sseFrame) bool {
		select {
		case c.frames <- f:
			return true
		case <-ctx.Done():
			return false
		}
	}
	go func() {
		defer resp.Body.Close()
		defer close(c.frames)
		sc := bufio.NewScanner(resp.Body)
		var f sseFrame
		empty := true
		for sc.Scan() {
			line := sc.Text()
			if line == "" {
				if !empty && !emit(f) {
					return
				}
				f, empty = sseFrame{}, true
				continue
			}
			empty = false
			if rest, ok := strings.CutPrefix(line, ":"); ok {
				f.comments = append(f.comments, strings.TrimSpace(rest))
				continue
			}
			name, value, ok := strings.Cut(line, ": ")
			if !ok {
				emit(sseFrame{err: fmt.Errorf("malformed line %q", line)})
				return
			}
			var dst *string
			switch name {
			case "id":
				dst = &f.id
			case "event":
				dst = &f.event
			case "data":
				dst = &f.data
			case "retry":
				dst = &f.retry
			default:
				emit(sseFrame{err: fmt.Errorf("unknown field in %q", line)})
				return
			}
			if *dst != "" {
				emit(sseFrame{err: fmt.Errorf("field %s repeated in one event", name)})
				return
			}
			*dst = value
		}
		emit(sseFrame{err: fmt.Errorf("stream ended: %v", sc.Err())})
	}()
	return c
}

// newHTTPServer serves h on 127.0.0.1 until the end of the test. Its
// cleanup runs after that of subscribers opened later, so that open
// streams are gone by the time it waits for connections to finish.
func newHTTPServer(t *testing.T, h http.Handler) *httptest.Server {
	hs := httptest.NewServer(h)
	t.Cleanup(hs.Close)
	return hs
}

// next returns the next frame, failing the test on a framing error or if
// none arrives within timeout.
func (c *sseClient) next(t *testing.T, timeout time.Duration) sseFrame {
	t.Helper()
	select {
	case f, ok := <-c.frames:
		if !ok {
			t.Fatal("stream closed")
		}
		if f.err != nil {
			t.Fatal(f.err)
		}
		return f
	case <-time.After(timeout):
		t.Fatalf("no event within %v", timeout)
	}
	return sseFrame{}
}

// nextEvent skips keep-alive comments and returns the next event.
func (c *sseClient) nextEvent(t *testing.T, timeout time.Duration) sseFrame {
	t.Helper()
	for {
		f := c.next(t, timeout)
		if f.id != "" || f.event != "" || f.data != "" {
			return f
		}
	}
}

// expectStart reads the retry frame every stream starts with.
func (c *sseClient) expectStart(t *testing.T) {
	t.Helper()
	if f := c.next(t, 2*time.Second); f.retry != "1000" || f.id != "" || f.data != "" {
		t.Fatalf("first frame %+v, want only retry: 1000", f)
	}
}

// eventData is the decoded data of an event.
type eventData struct {
	SentAt int64           `json:"sent_at"`
	Seq    uint64          `json:"seq"`
	Data   json.RawMessage `json:"data"`
}

func decodeEvent(t *testing.T, f sseFrame) (uint64, eventData) {
	t.Helper()
	id, err := strconv.ParseUint(f.id, 10, 64)
	if err != nil {
		t.Fatalf("event id %q: %v", f.id, err)
	}
	var d eventData
	if err := json.Unmarshal([]byte(f.data), &d); err != nil {
		t.Fatalf("event data %q: %v", f.data, err)
	}
	if d.SentAt <= 0 || time.Since(time.Unix(0, d.SentAt)) > time.Minute {
		t.Fatalf("event sent_at %d is not a recent unix-nanosecond time", d.SentAt)
	}
	return id, d
}

func broadcast(t *testing.T, h http.Handler, data string) uint64 {
	t.Helper()
	rec := do(t, h, "POST", "/api/v1/events", `{"data": `+data+`}`)
	wantStatus(t, rec, http.StatusAccepted)
	return decodeAs[map[string]uint64](t, rec)["id"]
}

func TestEventsTickAndBroadcast(t *testing.T) {
	s := newTestService(t, Config{EventInterval: 30 * time.Millisecond})
	hs := newHTTPServer(t, s)

	c := subscribe(t, hs.URL, "")
	c.expectStart(t)
	f := c.nextEvent(t, 2*time.Second)
	if f.event != "tick" {
		t.Fatalf("first event %+v, want a tick", f)
	}
	lastID, d := decodeEvent(t, f)
	if d.Seq == 0 {
		t.Errorf("tick data %s has no seq", f.data)
	}

	// Multi-line JSON must arrive on one data: line.
	id := broadcast(t, s, "{\n  \"msg\": \"hello\",\n  \"n\": [1, 2]\n}")
	for {
		f = c.nextEvent(t, 2*time.Second)
		got, d := decodeEvent(t, f)
		if got <= lastID {
			t.Fatalf("event id %d after %d: ids must increase", got, lastID)
		}
		lastID = got
		if f.event == "tick" {
			continue
		}
		if f.event != "broadcast" || got != id {
			t.Fatalf("event %+v, want broadcast %d", f, id)
		}
		if string(d.Data) != `{"msg":"hello","n":[1,2]}` {
			t.Fatalf("broadcast data %s", d.Data)
		}
		break
	}
	if got := counterValue(t, s, "surge_demo_sse_subscriptions"); got != 1 {
		t.Errorf("open subscriptions %v, want 1", got)
	}

	wantError(t, do(t, s, "POST", "/api/v1/events", "{"), http.StatusBadRequest, "invalid JSON")
	c.cancel()
	eventually(t, 2*time.Second, "subscription gauge to drop", func() bool {
		return counterValue(t, s, "surge_demo_sse_subscriptions") == 0
	})
}

func TestEventsKeepAlive(t *testing.T) {
	s := newTestService(t, Config{EventInterval: time.Hour, KeepAliveInterval: 20 * time.Millisecond})
	hs := newHTTPServer(t, s)
	c := subscribe(t, hs.URL, "")
	c.expectStart(t)
	f := c.next(t, 2*time.Second)
	if len(f.comments) != 1 || f.comments[0] != "ping" || f.id != "" || f.data != "" {
		t.Fatalf("frame %+v, want a lone ': ping' comment", f)
	}
}

// TestEventsReplay disconnects a subscriber, publishes while it is away
// and checks that reconnecting with Last-Event-ID yields exactly the
// missed events, then live ones.
func TestEventsReplay(t *testing.T) {
	s := newTestService(t, Config{EventInterval: time.Hour})
	hs := newHTTPServer(t, s)

	c := subscribe(t, hs.URL, "")
	c.expectStart(t)
	broadcast(t, s, `"one"`)
	broadcast(t, s, `"two"`)
	var last string
	for range 2 {
		last = c.nextEvent(t, 2*time.Second).id
	}
	c.cancel()

	var missed []uint64
	for _, d := range []string{`"three"`, `"four"`, `"five"`} {
		missed = append(missed, broadcast(t, s, d))
	}

	c = subscribe(t, hs.URL, last)
	c.expectStart(t)
	for i, want := range missed {
		f := c.nextEvent(t, 2*time.Second)
		id, d := decodeEvent(t, f)
		if id != want || f.event != "broadcast" {
			t.Fatalf("replayed event %d: %+v, want id %d", i, f, want)
		}
		if wantData := []string{`"three"`, `"four"`, `"five"`}[i]; string(d.Data) != wantData {
			t.Fatalf("replayed event %d data %s, want %s", i, d.Data, wantData)
		}
	}
	live := broadcast(t, s, `"six"`)
	if id, _ := decodeEvent(t, c.nextEvent(t, 2*time.Second)); id != live {
		t.Fatalf("after replay got event %d, want live event %d", id, live)
	}

	// Without Last-Event-ID a subscriber sees only new events.
	c2 := subscribe(t, hs.URL, "")
	c2.expectStart(t)
	next := broadcast(t, s, `"seven"`)
	if id, _ := decodeEvent(t, c2.nextEvent(t, 2*time.Second)); id != next {
		t.Fatalf("new subscriber got event %d first, want %d", id, next)
	}
}

// TestEventsHistoryBound checks that replay is limited to the history
// ring, skipping events that fell out of it.
func TestEventsHistoryBound(t *testing.T) {
	s := newTestService(t, Config{EventInterval: time.Hour, EventHistory: 3})
	hs := newHTTPServer(t, s)
	var ids []uint64
	for i := range 6 {
		ids = append(ids, broadcast(t, s, strconv.Itoa(i)))
	}
	c := subscribe(t, hs.URL, "1")
	c.expectStart(t)
	for _, want := range ids[3:] {
		if id, _ := decodeEvent(t, c.nextEvent(t, 2*time.Second)); id != want {
			t.Fatalf("replayed event %d, want %d (only the last 3 are kept)", id, want)
		}
	}
	if got := counterValue(t, s, "surge_demo_sse_events_dropped_total"); got != 2 {
		t.Errorf("dropped events %v, want 2 (ids 2 and 3)", got)
	}
}

// TestEventsCloseEndsStreams checks that Service.Close ends open streams.
func TestEventsCloseEndsStreams(t *testing.T) {
	s := New(Config{EventInterval: time.Hour})
	hs := newHTTPServer(t, s)
	var clients []*sseClient
	for range 3 {
		c := subscribe(t, hs.URL, "")
		c.expectStart(t)
		clients = append(clients, c)
	}
	s.Close()
	for _, c := range clients {
		select {
		case f := <-c.frames:
			if f.err == nil || !strings.Contains(f.err.Error(), "stream ended") {
				t.Fatalf("after Close got %+v, want the end of the stream", f)
			}
		case <-time.After(2 * time.Second):
			t.Fatal("stream still open after Close")
		}
	}
	wantError(t, do(t, s, "POST", "/api/v1/events", `{"data":1}`), http.StatusServiceUnavailable, "service closed")
}
