package httpc

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/surge-load/surge/errclass"
	"github.com/surge-load/surge/internal/servertest"
	"github.com/surge-load/surge/metrics"
)

// closeAfter serves n requests per keep-alive connection, then reads one
// more and closes the connection without answering it. It counts every
// request it read.
func closeAfter(t testing.TB, n int, read *atomic.Int64) string {
	return servertest.Raw(t, func(c net.Conn) {
		defer c.Close()
		br := bufio.NewReader(c)
		for i := 0; ; i++ {
			req, err := http.ReadRequest(br)
			if err != nil {
				return
			}
			io.Copy(io.Discard, req.Body)
			read.Add(1)
			if i == n {
				return // read the request, close without an answer
			}
			resp := "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"
			if req.Method == "HEAD" {
				resp = resp[:len(resp)-2]
			}
			if _, err := io.WriteString(c, resp); err != nil {
				return
			}
		}
	})
}

// TestNoSilentResend is issue 11.1: net/http re-sends an idempotent request
// when a reused connection fails, and the one sample would span two
// requests on the wire. Every request the server read must be one sample:
// the unanswered one a failure of class closed.
func TestNoSilentResend(t *testing.T) {
	for _, tr := range transports {
		for _, method := range []string{"GET", "HEAD", "POST"} {
			t.Run(tr.name+"/"+method, func(t *testing.T) { noSilentResend(t, tr.make, method) })
		}
	}
}

func noSilentResend(t *testing.T, newTransport func(Options) Transport, method string) {
	var read atomic.Int64
	addr := closeAfter(t, 3, &read)
	c := newTransport(Options{})
	defer c.Close()
	req := &Request{Method: method, URL: "http://" + addr + "/", Header: http.Header{"Idempotency-Key": {"k"}}}
	if method == "POST" {
		req.Body = []byte("x")
	}
	mustPrepare(t, req)
	const sends = 40
	var ok, closed int
	for range sends {
		s := new(metrics.Sample)
		c.Do(context.Background(), req, s)
		checkTiming(t, s)
		switch s.Class {
		case errclass.None:
			ok++
		case errclass.Closed:
			closed++
			if closed == 1 {
				t.Logf("err: %v", s.Err)
			}
		default:
			t.Fatalf("class %q: %v", s.Class, s.Err)
		}
	}
	if got := read.Load(); got != sends {
		t.Errorf("the server read %d requests; surge reported %d (%d ok, %d closed)", got, sends, ok, closed)
	}
	if closed != sends/4 {
		t.Errorf("%d closed, want %d (every 4th request)", closed, sends/4)
	}
}
