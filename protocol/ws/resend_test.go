package ws

import (
	"bufio"
	"net"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/surge-load/surge/errclass"
	"github.com/surge-load/surge/internal/servertest"
)

// TestHandshakeNotResent is issue 11.1 for WebSocket: a server that reads
// every handshake and closes without an answer saw as many handshakes as
// surge reports, each one failure of class closed.
func TestHandshakeNotResent(t *testing.T) {
	var read atomic.Int64
	addr := servertest.Raw(t, func(c net.Conn) {
		defer c.Close()
		if _, err := http.ReadRequest(bufio.NewReader(c)); err == nil {
			read.Add(1)
		}
	})
	r := newRecording()
	c := New(Options{})
	const tries = 5
	for range tries {
		if conn, err := c.Connect(t.Context(), "ws://"+addr+"/", nil, r.to()); err == nil || conn != nil {
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
