package sse

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/surge-load/surge/demo"
	"github.com/surge-load/surge/metrics"
	"github.com/surge-load/surge/result"
)

// startDemo starts the demo service on loopback, closed at the end of the
// test. Ticks are rare unless cfg sets them, so tests count broadcasts.
func startDemo(t *testing.T, cfg demo.Config) *demo.Server {
	t.Helper()
	if cfg.EventInterval == 0 {
		cfg.EventInterval = time.Hour
	}
	srv, err := demo.Start(context.Background(), "127.0.0.1:0", cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	return srv
}

// broadcast publishes n broadcast events {"data": {"n": i}} on the demo.
func broadcast(t *testing.T, baseURL string, from, n int) {
	t.Helper()
	for i := from; i < from+n; i++ {
		resp, err := http.Post(baseURL+"/api/v1/events", "application/json", strings.NewReader(fmt.Sprintf(`{"data":{"n":%d}}`, i)))
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusAccepted {
			t.Fatalf("broadcast: status %d", resp.StatusCode)
		}
	}
}

// subscribers returns the demo's count of open event streams.
func subscribers(t *testing.T, baseURL string) int {
	t.Helper()
	resp, err := http.Get(baseURL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "surge_demo_sse_subscriptions "); ok {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				t.Fatal(err)
			}
			return int(f)
		}
	}
	t.Fatal("no surge_demo_sse_subscriptions in /metrics")
	return 0
}

// waitSubscribers waits until the demo has n open streams.
func waitSubscribers(t *testing.T, baseURL string, n int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for subscribers(t, baseURL) != n {
		if time.Now().After(deadline) {
			t.Fatalf("the demo never had %d subscribers (has %d)", n, subscribers(t, baseURL))
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// recording is a Recorder with one shard, for one test.
type recording struct {
	rec   *metrics.Recorder
	start time.Time
	ep    metrics.EndpointID
}

func newRecording() *recording {
	r := &recording{rec: metrics.NewRecorder(1), start: time.Now()}
	r.ep = r.rec.Endpoint("GET /api/v1/events")
	r.rec.Begin(r.start, nil)
	return r
}

func (r *recording) to() Recording { return Recording{Shard: r.rec.Shard(0), Endpoint: r.ep} }

// result finishes the recording and returns the result document.
func (r *recording) result() *result.Result {
	end := time.Now()
	r.rec.Finish(end)
	return r.rec.Result(end.Sub(r.start))
}

// collect returns an OnEvent that keeps a copy of every event, and the
// function that returns them.
func collect() (func(*Event), func() []refEvent) {
	var mu sync.Mutex
	var got []refEvent
	on := func(ev *Event) {
		mu.Lock()
		got = append(got, refEvent{Type: string(ev.Type), Data: string(ev.Data), ID: string(ev.ID)})
		mu.Unlock()
	}
	return on, func() []refEvent {
		mu.Lock()
		defer mu.Unlock()
		return append([]refEvent(nil), got...)
	}
}

// A proxy forwards TCP connections to a backend and can cut them: closed
// with a FIN, or reset with an RST.
type proxy struct {
	ln      net.Listener
	backend string
	mu      sync.Mutex
	conns   []*net.TCPConn // client side
	wg      sync.WaitGroup
}

func startProxy(t *testing.T, backend string) *proxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{ln: ln, backend: backend}
	p.wg.Add(1)
	go p.serve()
	t.Cleanup(func() {
		ln.Close()
		p.cut(false)
		p.wg.Wait()
	})
	return p
}

func (p *proxy) URL() string { return "http://" + p.ln.Addr().String() }

func (p *proxy) serve() {
	defer p.wg.Done()
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		b, err := net.Dial("tcp", p.backend)
		if err != nil {
			c.Close()
			continue
		}
		p.mu.Lock()
		p.conns = append(p.conns, c.(*net.TCPConn))
		p.mu.Unlock()
		p.wg.Add(2)
		go func() { defer p.wg.Done(); io.Copy(b, c); b.Close() }()
		go func() { defer p.wg.Done(); io.Copy(c, b); c.Close() }()
	}
}

// cut ends every connection made so far: with an RST if reset, else
// with a FIN.
func (p *proxy) cut(reset bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		if reset {
			_ = c.SetLinger(0)
		}
		c.Close()
	}
	p.conns = nil
}

// eventStream is a canned event stream: n events with ids from first.
func eventStream(first, n int) []byte {
	var b bytes.Buffer
	for i := first; i < first+n; i++ {
		fmt.Fprintf(&b, "id: %d\nevent: tick\ndata: {\"seq\":%d,\"sent_at\":%d}\n\n", i, i, time.Now().UnixNano())
	}
	return b.Bytes()
}
