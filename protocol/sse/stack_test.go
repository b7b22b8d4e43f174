package sse

import (
	"fmt"
	"net"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/surge-load/surge/internal/servertest"
)

// TestHeldStreamStackStaysSmall holds streams that receive events with a
// send time, recorded, and checks that each costs its goroutine no more
// than a 4 KiB stack: the dial and the header exchange run aside (see
// stream.openAside), and the parked path keeps small frames. A regression
// to 8 KiB costs 4 KiB per stream, a third of a stream's memory.
func TestHeldStreamStackStaysSmall(t *testing.T) {
	if raceEnabled || testing.Short() {
		t.Skip("measures goroutine stacks; run without -race and -short")
	}
	// A server that answers every connection from its accept loop and
	// keeps it, with no goroutine of its own per connection.
	events := eventStream(1, 3)
	response := fmt.Appendf(nil, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n%x\r\n%s\r\n", len(events), events)
	buf := make([]byte, 4096)
	addr, closeAll := servertest.Hold(t, func(c net.Conn) {
		_, _ = c.Read(buf)
		_, _ = c.Write(response)
	})

	const n = 300
	r := newRecording()
	defer r.result()
	var got atomic.Int64
	req := &Request{URL: "http://" + addr + "/", SentAt: JSONTime("sent_at", time.Nanosecond),
		OnEvent: func(*Event) { got.Add(1) }}
	c := New(Options{})
	ctx := t.Context()
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() { c.Subscribe(ctx, req, r.to()) })
	}
	for deadline := time.Now().Add(10 * time.Second); got.Load() < 3*n; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d events arrived", got.Load(), 3*n)
		}
	}
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&after)
	perStream := float64(after.StackInuse-before.StackInuse) / n
	t.Logf("%.0f bytes of stack per held stream", perStream)
	if perStream > 4.5*1024 {
		t.Errorf("%.0f bytes of stack per held stream, want at most 4 KiB", perStream)
	}
	closeAll()
	wg.Wait()
}
