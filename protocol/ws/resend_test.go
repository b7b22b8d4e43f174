package ws

import (
	"bufio"
	"net"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/surge-load/surge/errclass"
)

// TestHandshakeNotResent is issue 11.1 for WebSocket: a server that reads
// every handshake and closes without an answer saw as many handshakes as
// surge reports, each one failure of class closed.
func TestHandshakeNotResent(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	var read atomic.Int64
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				if _, err := http.ReadRequest(bufio.NewReader(c)); err == nil {
					read.Add(1)
				}
			}()
		}
	}()
	r := newRecording()
	c := New(Options{})
	const tries = 5
	for range tries {
		if conn, err := c.Connect(t.Context(), "ws://"+ln.Addr().String()+"/", nil, r.to()); err == nil || conn != nil {
			t.Fatal("connected")
		}
	}
	res := r.result()
	if res.Totals.Requests != tries || res.Totals.Errors[string(errclass.Closed)] != tries {
		t.Errorf("%d handshakes reported, errors %v; want %d closed", res.Totals.Requests, res.Totals.Errors, tries)
	}
	if got := read.Load(); got != tries {
		t.Errorf("the server read %d handshakes, surge reported %d", got, res.Totals.Requests)
	}
}
