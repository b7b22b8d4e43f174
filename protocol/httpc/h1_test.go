package httpc

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/surge-load/surge/errclass"
	"github.com/surge-load/surge/internal/servertest"
	"github.com/surge-load/surge/metrics"
)

// transports are the two implementations: every behaviour below holds on
// both.
var transports = []struct {
	name string
	make func(Options) Transport
}{
	{"lean", New},
	{"net/http", newNetHTTP},
}

// scripted serves each request read on a connection with the next answer
// of answers (raw bytes, written as is; "" closes the connection), and
// counts requests and connections.
type scripted struct {
	reqs, conns atomic.Int64
	methods     chan string
}

func scriptServer(t *testing.T, answer func(i int, req *http.Request) string) (string, *scripted) {
	sc := &scripted{methods: make(chan string, 100)}
	addr := servertest.Raw(t, func(c net.Conn) {
		defer c.Close()
		sc.conns.Add(1)
		br := bufio.NewReader(c)
		for i := 0; ; i++ {
			req, err := http.ReadRequest(br)
			if err != nil {
				return
			}
			io.Copy(io.Discard, req.Body)
			sc.reqs.Add(1)
			a := answer(i, req)
			if a == "" {
				return
			}
			if strings.Contains(a, "Connection: close") {
				defer c.Close()
				i = -2 // close after this answer
			}
			for part := range strings.SplitSeq(a, "\x00pause\x00") {
				if _, err := io.WriteString(c, part); err != nil {
					return
				}
				time.Sleep(30 * time.Millisecond)
			}
			if i == -2 {
				return
			}
		}
	})
	return addr, sc
}

func do(t *testing.T, tr Transport, req *Request) (*metrics.Sample, Response) {
	t.Helper()
	s := new(metrics.Sample)
	resp := tr.Do(context.Background(), req, s)
	checkTiming(t, s)
	return s, resp
}

// TestLeanIsTheDefault: plain http goes through the lean client, which
// sends its own User-Agent.
func TestLeanIsTheDefault(t *testing.T) {
	var ua atomic.Value
	ts := newTestServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ua.Store(r.UserAgent())
	}), false)
	c := New(Options{})
	defer c.Close()
	s, resp := do(t, c, mustPrepare(t, &Request{URL: ts.URL}))
	if s.Class != errclass.None || ua.Load() != "surge" || resp.Proto != "HTTP/1.1" {
		t.Fatalf("class %q (%v), User-Agent %q, proto %q; want the lean client's", s.Class, s.Err, ua.Load(), resp.Proto)
	}
}

// TestInterimResponses is issue 11.6: 100 Continue and 103 Early Hints
// are counted, and the wait lasts until the final response's first byte.
func TestInterimResponses(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			addr, _ := scriptServer(t, func(int, *http.Request) string {
				return "HTTP/1.1 100 Continue\r\n\r\n" + "\x00pause\x00" +
					"HTTP/1.1 103 Early Hints\r\nLink: </s.css>; rel=preload\r\n\r\n" + "\x00pause\x00" +
					"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"
			})
			c := tr.make(Options{})
			defer c.Close()
			req := mustPrepare(t, &Request{Method: "POST", URL: "http://" + addr + "/", Body: []byte("x"),
				Header: http.Header{"Expect": {"100-continue"}}, KeepBody: true})
			for i := range 2 {
				s, resp := do(t, c, req)
				if s.Class != errclass.None || resp.Status != 200 || string(resp.Body) != "ok" {
					t.Fatalf("class %q (%v), status %d, body %q", s.Class, s.Err, resp.Status, resp.Body)
				}
				if resp.Interim != 2 || s.Interim != 2 {
					t.Errorf("request %d: %d interim responses in the response, %d in the sample; want 2", i, resp.Interim, s.Interim)
				}
				// The server paused twice (≥ 60 ms) between the first
				// interim byte and the final response's.
				if s.Timing.Wait < 60*time.Millisecond {
					t.Errorf("request %d: wait %v ends before the final response (receive %v)", i, s.Timing.Wait, s.Timing.Receive)
				}
			}
		})
	}
}

// TestNoBody: HEAD, 204 and 304 responses have no body, whatever their
// Content-Length says, and leave the connection reusable.
func TestNoBody(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			addr, sc := scriptServer(t, func(i int, r *http.Request) string {
				switch {
				case r.Method == "HEAD":
					return "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n"
				case r.URL.Path == "/204":
					return "HTTP/1.1 204 No Content\r\n\r\n"
				}
				return "HTTP/1.1 304 Not Modified\r\nContent-Length: 1000\r\n\r\n"
			})
			c := tr.make(Options{})
			defer c.Close()
			for _, req := range []*Request{
				{Method: "HEAD", URL: "http://" + addr + "/"},
				{URL: "http://" + addr + "/204"},
				{URL: "http://" + addr + "/304", KeepBody: true},
				{Method: "HEAD", URL: "http://" + addr + "/"},
			} {
				s, resp := do(t, c, mustPrepare(t, req))
				if s.Class != errclass.None || len(resp.Body) != 0 {
					t.Fatalf("%s %s: class %q (%v), body %q", req.Method, req.URL, s.Class, s.Err, resp.Body)
				}
			}
			if n := sc.conns.Load(); n != 1 {
				t.Errorf("%d connections, want 1", n)
			}
		})
	}
}

// TestChunkedWithTrailers: a chunked body with extensions and trailer
// fields is read whole, counted on the wire, and the connection reused.
func TestChunkedWithTrailers(t *testing.T) {
	const answer = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nTrailer: X-Sum\r\n\r\n" +
		"5;ext=1\r\nhello\r\n7\r\n, world\r\n0\r\nX-Sum: 12\r\n\r\n"
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			addr, sc := scriptServer(t, func(int, *http.Request) string { return answer })
			c := tr.make(Options{})
			defer c.Close()
			req := mustPrepare(t, &Request{URL: "http://" + addr + "/", KeepBody: true})
			for range 3 {
				s, resp := do(t, c, req)
				if s.Class != errclass.None || string(resp.Body) != "hello, world" {
					t.Fatalf("class %q (%v), body %q", s.Class, s.Err, resp.Body)
				}
				if s.BytesIn != int64(len(answer)) {
					t.Errorf("BytesIn %d, the server sent %d", s.BytesIn, len(answer))
				}
			}
			if n := sc.conns.Load(); n != 1 {
				t.Errorf("%d connections, want 1", n)
			}
		})
	}
}

// TestConnectionClose: a response with Connection: close, and one whose
// body lasts until the connection closes, end their connection; the next
// request opens a new one and nothing fails.
func TestConnectionClose(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			var closes atomic.Int64
			addr, sc := scriptServer(t, func(i int, r *http.Request) string {
				if r.URL.Path == "/eof" {
					return "HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nuntil the end"
				}
				closes.Add(1)
				return "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok"
			})
			c := tr.make(Options{})
			defer c.Close()
			for _, path := range []string{"/", "/eof", "/", "/eof"} {
				s, resp := do(t, c, mustPrepare(t, &Request{URL: "http://" + addr + path, KeepBody: true}))
				if s.Class != errclass.None || len(resp.Body) == 0 {
					t.Fatalf("%s: class %q (%v), body %q", path, s.Class, s.Err, resp.Body)
				}
			}
			if n := sc.conns.Load(); n != 4 {
				t.Errorf("%d connections for 4 requests that each closed theirs", n)
			}
		})
	}
}

// TestIdleConnectionClosedByServer: a server that closes a keep-alive
// connection while it is idle costs the next request nothing: it goes out
// on a new connection, as net/http's background reader would arrange.
func TestIdleConnectionClosedByServer(t *testing.T) {
	closed := make(chan struct{}, 10)
	addr := servertest.Raw(t, func(c net.Conn) {
		br := bufio.NewReader(c)
		if _, err := http.ReadRequest(br); err == nil {
			io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
		}
		time.Sleep(10 * time.Millisecond)
		c.Close()
		closed <- struct{}{}
	})
	c := New(Options{})
	defer c.Close()
	req := mustPrepare(t, &Request{URL: "http://" + addr + "/"})
	for i := range 3 {
		if s, _ := do(t, c, req); s.Class != errclass.None {
			t.Fatalf("request %d: class %q (%v)", i, s.Class, s.Err)
		}
		<-closed
		time.Sleep(10 * time.Millisecond) // the FIN crosses loopback
	}
}

// TestProtocolViolations is the protocol class of issue 11.15: a malformed
// status line, a malformed header, oversized headers and bad chunk framing
// are errclass.Protocol, not closed.
func TestProtocolViolations(t *testing.T) {
	huge := "HTTP/1.1 200 OK\r\nX-Big: " + strings.Repeat("a", 11<<20) + "\r\n\r\n"
	for _, tc := range []struct{ name, answer string }{
		{"status line", "HTTP/1.1 OK 200\r\nContent-Length: 0\r\n\r\n"},
		{"not HTTP", "SSH-2.0-OpenSSH_9.2\r\n\r\n"},
		{"header line", "HTTP/1.1 200 OK\r\nno colon here\r\n\r\n"},
		{"oversized headers", huge},
		{"chunk framing", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"},
	} {
		for _, tr := range transports {
			t.Run(tc.name+"/"+tr.name, func(t *testing.T) {
				addr, _ := scriptServer(t, func(int, *http.Request) string { return tc.answer })
				c := tr.make(Options{})
				defer c.Close()
				s, _ := do(t, c, mustPrepare(t, &Request{URL: "http://" + addr + "/"}))
				if s.Class != errclass.Protocol {
					t.Fatalf("class %q, want protocol; err: %v", s.Class, s.Err)
				}
				if errclass.Protocol.Hint() == "" {
					t.Error("no hint")
				}
				t.Logf("err: %.200v", s.Err)
			})
		}
	}
}

// TestPreparedGETAllocatesNothing: on a reused connection a prepared GET
// whose response headers are not wanted costs no allocation.
func TestPreparedGETAllocatesNothing(t *testing.T) {
	addr := cannedServer(t)
	c := New(Options{})
	defer c.Close()
	req := mustPrepare(t, &Request{URL: "http://" + addr + "/", NoHeader: true})
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	var s metrics.Sample
	c.Do(ctx, req, &s)
	allocs := testing.AllocsPerRun(200, func() {
		c.Do(ctx, req, &s)
		if s.Class != errclass.None {
			t.Fatalf("class %q: %v", s.Class, s.Err)
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per request, want 0", allocs)
	}
}

// cannedServer answers every request on a connection with the same
// bytes, without parsing more than the end of its head.
func cannedServer(t testing.TB) string {
	return servertest.Canned(t, []byte("HTTP/1.1 200 OK\r\nServer: canned\r\nContent-Type: text/plain\r\nContent-Length: 13\r\n\r\nhello, world\n"))
}

// TestLeanOverTLS: an https server that offers only HTTP/1.1 is served by
// the lean client over one TLS connection, the handshake timed in the
// first request only.
func TestLeanOverTLS(t *testing.T) {
	var ua atomic.Value
	ts := &testServer{Server: httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ua.Store(r.UserAgent() + " " + r.Proto)
		io.WriteString(w, "hello")
	}))}
	ts.Config.ConnState = func(c net.Conn, st http.ConnState) {
		if st == http.StateNew {
			ts.conns.Add(1)
		}
	}
	ts.StartTLS() // without EnableHTTP2: ALPN settles on HTTP/1.1
	t.Cleanup(ts.Close)
	c := New(Options{InsecureTLS: true})
	defer c.Close()
	req := mustPrepare(t, &Request{URL: ts.URL, KeepBody: true})
	for i := range 3 {
		s, resp := do(t, c, req)
		if s.Class != errclass.None || string(resp.Body) != "hello" || resp.Proto != "HTTP/1.1" {
			t.Fatalf("request %d: class %q (%v), body %q, proto %q", i, s.Class, s.Err, resp.Body, resp.Proto)
		}
		if i == 0 && s.Timing.TLS <= 0 {
			t.Errorf("first request: TLS %v, want > 0", s.Timing.TLS)
		}
		if i > 0 && (s.Timing.TLS != 0 || s.Timing.Connect != 0) {
			t.Errorf("request %d on a reused connection: %+v", i, s.Timing)
		}
	}
	if got := ua.Load(); got != "surge HTTP/1.1" {
		t.Errorf("the server saw %q, want the lean client", got)
	}
	if n := ts.conns.Load(); n != 1 {
		t.Errorf("%d connections, want 1", n)
	}
}
