package sse

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/surge-load/surge/demo"
	"github.com/surge-load/surge/errclass"
	"github.com/surge-load/surge/internal/servertest"
	"github.com/surge-load/surge/metrics"
	"github.com/surge-load/surge/result"
)

// subscribeAsync runs Subscribe on a goroutine and returns a function that
// waits for its result.
func subscribeAsync(t *testing.T, ctx context.Context, c *Client, req *Request, rec Recording) func() Result {
	t.Helper()
	done := make(chan Result, 1)
	go func() { done <- c.Subscribe(ctx, req, rec) }()
	return func() Result {
		t.Helper()
		select {
		case r := <-done:
			return r
		case <-time.After(10 * time.Second):
			t.Fatal("the subscription did not end")
			return Result{}
		}
	}
}

func wantIDs(t *testing.T, got []refEvent, from, to int) {
	t.Helper()
	if len(got) != to-from+1 {
		t.Fatalf("got %d events %+v, want ids %d..%d", len(got), got, from, to)
	}
	for i, ev := range got {
		id := fmt.Sprint(from + i)
		if ev.ID != id || ev.Type != "broadcast" || !strings.Contains(ev.Data, fmt.Sprintf(`{"n":%d}`, from+i)) {
			t.Fatalf("event %d is %+v, want id %s carrying n %s", i, ev, id, id)
		}
	}
}

func wantEnds(t *testing.T, res *result.Result, want map[string]int64) {
	t.Helper()
	st := res.Totals.Streams
	if st == nil {
		t.Fatal("the result has no streams")
	}
	if fmt.Sprint(st.Ends) != fmt.Sprint(want) {
		t.Fatalf("ends %v, want %v", st.Ends, want)
	}
}

func TestSubscribeCountsEventsExactly(t *testing.T) {
	srv := startDemo(t, demo.Config{KeepAliveInterval: 20 * time.Millisecond})
	broadcast(t, srv.URL, 1, 5) // replayed: the subscription resumes from id 0
	r := newRecording()
	on, got := collect()
	req := &Request{URL: srv.URL + "/api/v1/events", LastEventID: "0", Events: 12, OnEvent: on,
		SentAt: JSONTime("sent_at", time.Nanosecond)}
	if err := req.Prepare(); err != nil {
		t.Fatal(err)
	}
	wait := subscribeAsync(t, t.Context(), New(Options{}), req, r.to())
	waitSubscribers(t, srv.URL, 1)
	broadcast(t, srv.URL, 6, 7)
	out := wait()
	if out.End != metrics.EndHeld || out.Err != nil || out.Events != 12 || out.LastEventID != "12" || out.Connections != 1 || out.Status != 200 {
		t.Fatalf("result %+v, want held after 12 events, last id 12, one connection", out)
	}
	wantIDs(t, got(), 1, 12)

	res := r.result()
	st := res.Totals.Streams
	wantEnds(t, res, map[string]int64{"held": 1})
	if st.Opened != 1 || st.Events != 12 || st.Reconnects != 0 || res.Totals.Requests != 1 || res.Totals.Failures != 0 {
		t.Fatalf("streams %+v, requests %d failures %d", st, res.Totals.Requests, res.Totals.Failures)
	}
	if st.Connect.Max <= 0 || st.Headers.Max < st.Connect.Max || st.FirstEvent.Max < st.Headers.Min || st.Delay.Max <= 0 || st.DelayHistogram == "" || st.GapHistogram == "" {
		t.Fatalf("stream timings not measured: %+v", st)
	}
	if st.BytesIn <= 0 || res.Totals.BytesIn <= 0 || res.Totals.BytesOut <= 0 {
		t.Fatalf("bytes not counted: stream %d in; request %d in, %d out", st.BytesIn, res.Totals.BytesIn, res.Totals.BytesOut)
	}
	if len(res.Endpoints) != 1 || res.Endpoints[0].Streams == nil || res.Endpoints[0].Streams.Events != 12 {
		t.Fatalf("endpoint rows %+v", res.Endpoints)
	}
	if last := res.Series[len(res.Series)-1].Streams; last == nil || last.Open != 0 || last.Events == 0 && len(res.Series) == 1 {
		t.Fatalf("series streams %+v", last)
	}
}

func TestSubscribeResumesFromLastEventID(t *testing.T) {
	srv := startDemo(t, demo.Config{})
	c := New(Options{})
	broadcast(t, srv.URL, 1, 3)
	on, got := collect()
	first := c.Subscribe(t.Context(), &Request{URL: srv.URL + "/api/v1/events", LastEventID: "0", Events: 3, OnEvent: on}, Recording{})
	if first.Err != nil || first.LastEventID != "3" {
		t.Fatalf("first subscription %+v", first)
	}
	broadcast(t, srv.URL, 4, 3) // missed while away
	second := c.Subscribe(t.Context(), &Request{URL: srv.URL + "/api/v1/events", LastEventID: first.LastEventID, Events: 3, OnEvent: on}, Recording{})
	if second.Err != nil || second.LastEventID != "6" {
		t.Fatalf("second subscription %+v", second)
	}
	wantIDs(t, got(), 1, 6)
}

func TestReconnectResumesWithoutLossOrDuplicates(t *testing.T) {
	srv := startDemo(t, demo.Config{KeepAliveInterval: time.Hour})
	px := startProxy(t, srv.Addr)
	r := newRecording()
	on, got := collect()
	req := &Request{URL: px.URL() + "/api/v1/events", Events: 6, OnEvent: on, Reconnect: true}
	wait := subscribeAsync(t, t.Context(), New(Options{}), req, r.to())
	waitSubscribers(t, srv.URL, 1)
	broadcast(t, srv.URL, 1, 3)
	for deadline := time.Now().Add(5 * time.Second); len(got()) < 3; time.Sleep(2 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("only %d events arrived", len(got()))
		}
	}
	px.cut(false)
	broadcast(t, srv.URL, 4, 3) // published while the client is away: replayed on reconnection
	out := wait()
	if out.End != metrics.EndHeld || out.Err != nil || out.Connections != 2 || out.Events != 6 {
		t.Fatalf("result %+v, want held after 6 events over 2 connections", out)
	}
	wantIDs(t, got(), 1, 6)
	res := r.result()
	wantEnds(t, res, map[string]int64{"held": 1, "server_closed": 1})
	if st := res.Totals.Streams; st.Opened != 2 || st.Reconnects != 1 || st.Events != 6 {
		t.Fatalf("streams %+v", st)
	}
	// The connection the proxy cut ended early: a failure of class
	// closed, though the subscription went on and lasted as planned.
	if res.Totals.Requests != 2 || res.Totals.Failures != 1 || res.Totals.Errors[string(errclass.Closed)] != 1 {
		t.Fatalf("requests %d, failures %d (%v); want 2 subscribe exchanges, the cut one closed", res.Totals.Requests, res.Totals.Failures, res.Totals.Errors)
	}
}

func TestStreamEnds(t *testing.T) {
	type want struct {
		end   metrics.StreamEnd
		class errclass.Class
		err   string
	}
	tests := []struct {
		name string
		// run opens a subscription and makes it end; it returns the result.
		run  func(t *testing.T, r *recording) Result
		want want
		// failures counts the subscribe exchanges that failed: before
		// their headers, or after them, when the stream that opened ended
		// before it lasted as planned.
		failures int64
	}{
		{"server closed", func(t *testing.T, r *recording) Result {
			srv := startDemo(t, demo.Config{KeepAliveInterval: 10 * time.Millisecond})
			wait := subscribeAsync(t, t.Context(), New(Options{}), &Request{URL: srv.URL + "/api/v1/events", Hold: time.Minute}, r.to())
			waitSubscribers(t, srv.URL, 1)
			srv.Close()
			return wait()
		}, want{metrics.EndServerClosed, errclass.Closed, "closed the stream"}, 1},
		{"reset", func(t *testing.T, r *recording) Result {
			srv := startDemo(t, demo.Config{})
			px := startProxy(t, srv.Addr)
			wait := subscribeAsync(t, t.Context(), New(Options{}), &Request{URL: px.URL() + "/api/v1/events", Hold: time.Minute}, r.to())
			waitSubscribers(t, srv.URL, 1)
			px.cut(true)
			return wait()
		}, want{metrics.EndReset, errclass.Reset, "reset"}, 1},
		{"HTTP error, not retried", func(t *testing.T, r *recording) Result {
			srv := startDemo(t, demo.Config{FailRate: 1})
			return New(Options{}).Subscribe(t.Context(), &Request{URL: srv.URL + "/api/v1/events", Reconnect: true}, r.to())
		}, want{metrics.EndHTTPError, errclass.HTTP5xx, "status 500"}, 1},
		{"not an event stream", func(t *testing.T, r *recording) Result {
			srv := startDemo(t, demo.Config{})
			return New(Options{}).Subscribe(t.Context(), &Request{URL: srv.URL + "/healthz"}, r.to())
		}, want{metrics.EndHTTPError, errclass.Check, "not text/event-stream"}, 1},
		{"no response headers", func(t *testing.T, r *recording) Result {
			ln, err := net.Listen("tcp", "127.0.0.1:0") // never accepts: the kernel completes the handshake
			if err != nil {
				t.Fatal(err)
			}
			defer ln.Close()
			return New(Options{Timeout: 150 * time.Millisecond}).Subscribe(t.Context(), &Request{URL: "http://" + ln.Addr().String() + "/"}, r.to())
		}, want{metrics.EndTimeout, errclass.Timeout, "timed out after 150ms"}, 1},
		{"idle", func(t *testing.T, r *recording) Result {
			srv := startDemo(t, demo.Config{KeepAliveInterval: time.Hour})
			return New(Options{}).Subscribe(t.Context(), &Request{URL: srv.URL + "/api/v1/events", IdleTimeout: 100 * time.Millisecond}, r.to())
		}, want{metrics.EndTimeout, errclass.Timeout, "no data for 100ms"}, 1},
		{"held", func(t *testing.T, r *recording) Result {
			srv := startDemo(t, demo.Config{KeepAliveInterval: 10 * time.Millisecond})
			return New(Options{}).Subscribe(t.Context(), &Request{URL: srv.URL + "/api/v1/events", Hold: 150 * time.Millisecond, IdleTimeout: time.Second}, r.to())
		}, want{metrics.EndHeld, errclass.None, ""}, 0},
		{"interrupted", func(t *testing.T, r *recording) Result {
			srv := startDemo(t, demo.Config{})
			ctx, cancel := context.WithCancelCause(t.Context())
			wait := subscribeAsync(t, ctx, New(Options{}), &Request{URL: srv.URL + "/api/v1/events"}, r.to())
			waitSubscribers(t, srv.URL, 1)
			cancel(errclass.ErrInterrupted)
			return wait()
		}, want{metrics.EndInterrupted, errclass.Interrupted, "interrupted"}, 0},
		{"refused", func(t *testing.T, r *recording) Result {
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			addr := ln.Addr().String()
			ln.Close()
			return New(Options{}).Subscribe(t.Context(), &Request{URL: "http://" + addr + "/"}, r.to())
		}, want{metrics.EndConnectFailed, errclass.ConnectRefused, "refused"}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRecording()
			start := time.Now()
			out := tt.run(t, r)
			if out.End != tt.want.end || out.Class != tt.want.class {
				t.Fatalf("ended %s (%s, %v), want %s (%s)", out.End, out.Class, out.Err, tt.want.end, tt.want.class)
			}
			if (out.Err == nil) != (tt.want.err == "") || out.Err != nil && !strings.Contains(out.Err.Error(), tt.want.err) {
				t.Fatalf("error %v, want one saying %q", out.Err, tt.want.err)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Fatalf("took %v", d)
			}
			res := r.result()
			wantEnds(t, res, map[string]int64{string(tt.want.end): 1})
			if res.Totals.Requests != 1 || res.Totals.Failures != tt.failures {
				t.Fatalf("requests %d, failures %d (%v); want 1 and %d", res.Totals.Requests, res.Totals.Failures, res.Totals.Errors, tt.failures)
			}
			if tt.failures > 0 && res.Totals.Errors[string(tt.want.class)] != 1 {
				t.Fatalf("errors %v, want one %s", res.Totals.Errors, tt.want.class)
			}
		})
	}
}

func TestPrepareRejects(t *testing.T) {
	for _, r := range []Request{
		{URL: "ftp://x/"},
		{URL: "http:///path"},
		{URL: "http://x/", Method: "GE T"},
		{URL: "http://x/", Header: map[string][]string{"X-A": {"a\r\nEvil: 1"}}},
		{URL: "http://x/", Header: map[string][]string{"Bad Name": {"v"}}},
		{URL: "http://x/", LastEventID: "1\n2"},
	} {
		if err := r.Prepare(); err == nil {
			t.Errorf("Prepare accepted %+v", r)
		}
	}
	r := newRecording()
	out := New(Options{}).Subscribe(t.Context(), &Request{URL: "gopher://x/"}, r.to())
	if out.End != metrics.EndError || out.Err == nil {
		t.Fatalf("result %+v", out)
	}
	if res := r.result(); res.Totals.Requests != 1 || res.Totals.Errors["other"] != 1 {
		t.Fatalf("a bad request is not counted once as other: %v", res.Totals.Errors)
	}
}

func TestRequestHead(t *testing.T) {
	req := &Request{URL: "http://example.com:8080/events?topic=a", Method: "POST", Body: []byte(`{"x":1}`),
		Header: map[string][]string{"Authorization": {"Bearer t"}, "accept": {"*/*"}, "Last-Event-ID": {"41"}}}
	p, err := req.prepare()
	if err != nil {
		t.Fatal(err)
	}
	want := "POST /events?topic=a HTTP/1.1\r\nHost: example.com:8080\r\nUser-Agent: surge\r\nCache-Control: no-cache\r\n" +
		"Authorization: Bearer t\r\nAccept: */*\r\nContent-Length: 7\r\n"
	if string(p.head) != want || p.addr != "example.com:8080" || p.lastEventID != "41" || p.secure {
		t.Fatalf("head %q addr %q last id %q", p.head, p.addr, p.lastEventID)
	}
	if p, _ := (&Request{URL: "https://[::1]/x"}).prepare(); p.addr != "[::1]:443" || !p.secure {
		t.Fatalf("https default port: %+v", p)
	}
}

// rawServer answers every connection with response, then closes it (or
// keeps it open if hold).
func rawServer(t *testing.T, response string, hold bool) string {
	t.Helper()
	return "http://" + servertest.Raw(t, func(c net.Conn) {
		buf := make([]byte, 4096)
		_, _ = c.Read(buf)
		// Written in small pieces, to cut lines, chunks and events.
		for b := []byte(response); len(b) > 0; {
			n := min(len(b), 7)
			if _, err := c.Write(b[:n]); err != nil {
				break
			}
			b = b[n:]
		}
		if !hold {
			c.Close()
		}
	}) + "/"
}

func TestBodyFramings(t *testing.T) {
	events := string(eventStream(1, 5))
	var chunked strings.Builder
	for i, s := 0, events; len(s) > 0; i++ {
		n := min(len(s), 1+i*13%40)
		if i%2 == 0 {
			fmt.Fprintf(&chunked, "%x\r\n%s\r\n", n, s[:n])
		} else {
			fmt.Fprintf(&chunked, "%X;ext=1\r\n%s\r\n", n, s[:n])
		}
		s = s[n:]
	}
	chunked.WriteString("0\r\nX-Trailer: 1\r\n\r\n")
	tests := map[string]string{
		"chunked": "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Type: text/event-stream; charset=utf-8\r\nTransfer-Encoding: chunked\r\n\r\n" + chunked.String(),
		"length":  fmt.Sprintf("HTTP/1.1 200 OK\r\ncontent-type: Text/Event-Stream\r\nContent-Length: %d\r\n\r\n%s", len(events), events),
		"to EOF":  "HTTP/1.0 200 OK\nContent-Type: text/event-stream\n\n" + events,
	}
	for name, resp := range tests {
		t.Run(name, func(t *testing.T) {
			on, got := collect()
			url := rawServer(t, resp, name != "to EOF")
			out := New(Options{BufferBytes: 256}).Subscribe(t.Context(), &Request{URL: url, OnEvent: on}, Recording{})
			if out.End != metrics.EndServerClosed || out.Err != nil || out.Events != 5 || out.LastEventID != "5" {
				t.Fatalf("result %+v, events %+v", out, got())
			}
			for i, ev := range got() {
				if ev.ID != fmt.Sprint(i+1) || ev.Type != "tick" || !strings.HasPrefix(ev.Data, fmt.Sprintf(`{"seq":%d,`, i+1)) {
					t.Fatalf("event %d: %+v", i, ev)
				}
			}
		})
	}
}

func TestMalformedResponses(t *testing.T) {
	for name, resp := range map[string]string{
		"status line":   "HTTP/2 200\r\n\r\n",
		"chunk size":    "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
		"header line":   "HTTP/1.1 200 OK\r\nno colon here\r\n\r\n",
		"huge event":    "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\ndata: " + strings.Repeat("x", 300) + "\n\n",
		"huge header":   "HTTP/1.1 200 OK\r\nX: " + strings.Repeat("h", 70<<10) + "\r\n\r\n",
		"early EOF":     "HTTP/1.1 200 OK\r\nContent-",
		"garbage first": "\x00\x01\x02\r\n\r\n",
	} {
		t.Run(name, func(t *testing.T) {
			out := New(Options{MaxEventBytes: 100}).Subscribe(t.Context(), &Request{URL: rawServer(t, resp, false)}, Recording{})
			if out.Err == nil || out.End == metrics.EndHeld {
				t.Fatalf("a malformed response gave %+v", out)
			}
		})
	}
}

func TestLocalAddrsTakeTurns(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	from := make(chan string, 4)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			from <- c.RemoteAddr().(*net.TCPAddr).IP.String()
			c.Write([]byte("HTTP/1.1 204 No Content\r\n\r\n"))
			c.Close()
		}
	}()
	c := New(Options{LocalAddrs: []net.IP{net.ParseIP("127.0.0.2"), net.ParseIP("127.0.0.3")}})
	seen := map[string]int{}
	for range 4 {
		out := c.Subscribe(t.Context(), &Request{URL: "http://" + ln.Addr().String() + "/"}, Recording{})
		if out.Status != 204 || out.End != metrics.EndHTTPError {
			t.Fatalf("result %+v", out)
		}
		seen[<-from]++
	}
	if seen["127.0.0.2"] != 2 || seen["127.0.0.3"] != 2 {
		t.Fatalf("connections came from %v, want two from each source address", seen)
	}
}

func TestJSONTime(t *testing.T) {
	f := JSONTime("sent_at", time.Nanosecond)
	if tm, ok := f([]byte(`{"seq":1,"sent_at":1700000000123456789}`)); !ok || tm.UnixNano() != 1700000000123456789 {
		t.Fatalf("got %v %v", tm.UnixNano(), ok)
	}
	for _, bad := range []string{``, `{}`, `{"sent_at":"x"}`, `not json`, `{"sent_at":`} {
		if _, ok := f([]byte(bad)); ok {
			t.Fatalf("%q has a send time", bad)
		}
	}
	if tm, ok := JSONTime("meta.ts", time.Millisecond)([]byte(`{"meta":{"ts":1700000000123}}`)); !ok || tm.UnixMilli() != 1700000000123 {
		t.Fatalf("milliseconds: %v %v", tm, ok)
	}
	if tm, ok := TextTime(time.Second)([]byte(`1700000000.5`)); !ok || tm.UnixMilli() != 1700000000500 {
		t.Fatalf("fractional seconds: %v %v", tm, ok)
	}
	data := []byte(`{"seq":1,"sent_at":1700000000123456789}`)
	if a := testing.AllocsPerRun(100, func() { f(data) }); a != 0 {
		t.Fatalf("JSONTime allocates %.1f times per event", a)
	}
}

func TestErrorsWrapTheirCause(t *testing.T) {
	ctx, cancel := context.WithCancelCause(t.Context())
	cancel(errclass.ErrInterrupted)
	out := New(Options{}).Subscribe(ctx, &Request{URL: "http://127.0.0.1:1/"}, Recording{})
	if !errors.Is(out.Err, errclass.ErrInterrupted) || out.End != metrics.EndInterrupted {
		t.Fatalf("a subscription under a cancelled context: %+v", out)
	}
}
