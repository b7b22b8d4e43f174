package httpc

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/surge-load/surge/errclass"
	"github.com/surge-load/surge/metrics"
)

// protoServer counts the requests it answered by protocol version, and the
// connections it accepted.
type protoServer struct {
	mu     sync.Mutex
	protos map[string]int
	conns  int
}

func (p *protoServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p.mu.Lock()
	p.protos[r.Proto]++
	p.mu.Unlock()
	_, _ = w.Write([]byte("ok"))
}

func (p *protoServer) connState(_ net.Conn, st http.ConnState) {
	if st == http.StateNew {
		p.mu.Lock()
		p.conns++
		p.mu.Unlock()
	}
}

// sendN sends n GETs to url with a client of opts and returns the samples'
// protocols; every one must succeed.
func sendN(t *testing.T, opts Options, url string, n int) map[string]int {
	t.Helper()
	tr := New(opts)
	defer tr.Close()
	req := &Request{URL: url}
	if err := req.Prepare(); err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for range n {
		var s metrics.Sample
		resp := tr.Do(context.Background(), req, &s)
		if s.Class != errclass.None || resp.Status != 200 {
			t.Fatalf("%s: status %d, class %s, %v", url, resp.Status, s.Class, s.Err)
		}
		if s.Proto != resp.Proto {
			t.Fatalf("the sample says %q, the response %q", s.Proto, resp.Proto)
		}
		got[s.Proto]++
	}
	return got
}

// TestHTTP2PriorKnowledge sends requests with http2: prior-knowledge to a
// net/http server that speaks HTTP/2 without TLS (h2c) and no HTTP/1.1:
// the server answered every one over HTTP/2, on one connection, and every
// sample says so. Without the option the same server cannot be spoken to.
func TestHTTP2PriorKnowledge(t *testing.T) {
	ps := &protoServer{protos: map[string]int{}}
	srv := httptest.NewUnstartedServer(ps)
	srv.Config.Protocols = new(http.Protocols)
	srv.Config.Protocols.SetUnencryptedHTTP2(true)
	srv.Config.ConnState = ps.connState
	srv.Start()
	defer srv.Close()

	got := sendN(t, Options{HTTP2: HTTP2PriorKnowledge}, srv.URL+"/x", 20)
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if got["HTTP/2.0"] != 20 || ps.protos["HTTP/2.0"] != 20 || len(ps.protos) != 1 || ps.conns != 1 {
		t.Errorf("samples %v; the server saw %v on %d connections; want 20 HTTP/2.0 on 1", got, ps.protos, ps.conns)
	}
}

// TestHTTP2Off sends requests with http2: false to a TLS server that offers
// HTTP/2: they go over HTTP/1.1, as the server counted; by default the
// same server is spoken to in HTTP/2.
func TestHTTP2Off(t *testing.T) {
	for _, c := range []struct {
		mode HTTP2
		want string
	}{{HTTP2Off, "HTTP/1.1"}, {HTTP2Auto, "HTTP/2.0"}} {
		ps := &protoServer{protos: map[string]int{}}
		srv := httptest.NewUnstartedServer(ps)
		srv.EnableHTTP2 = true
		srv.Config.ConnState = ps.connState
		srv.StartTLS()
		got := sendN(t, Options{HTTP2: c.mode, InsecureTLS: true}, srv.URL+"/x", 10)
		srv.Close()
		ps.mu.Lock()
		if got[c.want] != 10 || ps.protos[c.want] != 10 || len(ps.protos) != 1 || ps.conns != 1 {
			t.Errorf("http2 %v: samples %v; the server saw %v on %d connections; want 10 %s on 1", c.mode, got, ps.protos, ps.conns, c.want)
		}
		ps.mu.Unlock()
	}
}
