package httpc

import (
	"context"
	"crypto/tls"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/quic-go/quic-go/http3"

	"github.com/surge-load/surge/errclass"
	"github.com/surge-load/surge/metrics"
)

// h3Server serves HTTP/3 with quic-go on a UDP port of 127.0.0.1,
// counting the requests by protocol and client address.
func h3Server(t *testing.T, h http.Handler) string {
	t.Helper()
	cert := httptest.NewUnstartedServer(nil)
	cert.StartTLS()
	c := cert.TLS.Certificates[0]
	cert.Close()
	pc, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	srv := &http3.Server{Handler: h, TLSConfig: http3.ConfigureTLSConfig(&tls.Config{Certificates: []tls.Certificate{c}})}
	go srv.Serve(pc)
	t.Cleanup(func() { srv.Close(); pc.Close() })
	return "https://" + pc.LocalAddr().String()
}

// TestHTTP3 sends requests with http3 to a quic-go server: every one
// arrived over HTTP/3 from one client address (one connection), every
// sample says HTTP/3.0 with bytes counted, the first measures the QUIC
// handshake as its TLS time and later ones reuse the connection; a
// request body arrives whole. An http URL still goes over TCP.
func TestHTTP3(t *testing.T) {
	var mu sync.Mutex
	protos, addrs, bodies := map[string]int{}, map[string]bool{}, 0
	url := h3Server(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b := make([]byte, 10)
		n, _ := r.Body.Read(b)
		mu.Lock()
		protos[r.Proto]++
		addrs[r.RemoteAddr] = true
		if string(b[:n]) == "hello" {
			bodies++
		}
		mu.Unlock()
		w.Write([]byte(strings.Repeat("x", 1000)))
	}))
	tr := New(Options{HTTP3: true, InsecureTLS: true})
	defer tr.Close()
	req := &Request{Method: "POST", URL: url + "/h3", Body: []byte("hello")}
	for i := range 15 {
		var s metrics.Sample
		resp := tr.Do(context.Background(), req, &s)
		if s.Class != errclass.None || resp.Status != 200 || s.Proto != "HTTP/3.0" {
			t.Fatalf("request %d: status %d, class %s, %v, proto %q", i, resp.Status, s.Class, s.Err, s.Proto)
		}
		if s.BytesIn < 1000 || s.BytesOut <= 0 {
			t.Errorf("request %d: %d bytes in, %d out", i, s.BytesIn, s.BytesOut)
		}
		if (s.Timing.TLS > 0) != (i == 0) || s.Timing.Wait <= 0 {
			t.Errorf("request %d: tls %v, wait %v", i, s.Timing.TLS, s.Timing.Wait)
		}
	}
	mu.Lock()
	if protos["HTTP/3.0"] != 15 || len(protos) != 1 || len(addrs) != 1 || bodies != 15 {
		t.Errorf("the server saw %v from %d addresses, %d whole bodies; want 15 HTTP/3.0 from 1, 15 bodies", protos, len(addrs), bodies)
	}
	mu.Unlock()

	ps := &protoServer{protos: map[string]int{}}
	h1 := httptest.NewServer(ps)
	defer h1.Close()
	if got := sendN(t, Options{HTTP3: true}, h1.URL+"/x", 3); got["HTTP/1.1"] != 3 {
		t.Errorf("an http URL with http3: %v, want HTTP/1.1", got)
	}
}

// TestHTTP3Refused checks a target with no HTTP/3 server: the request
// fails, classified, and nothing is retried.
func TestHTTP3Refused(t *testing.T) {
	pc, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	addr := pc.LocalAddr().String()
	pc.Close() // nothing listens there now
	tr := New(Options{HTTP3: true, InsecureTLS: true, Timeout: 2e9})
	defer tr.Close()
	var s metrics.Sample
	tr.Do(context.Background(), &Request{URL: "https://" + addr + "/"}, &s)
	if s.Class == errclass.None || s.Status != 0 {
		t.Errorf("no server: class %s, status %d, %v", s.Class, s.Status, s.Err)
	}
	t.Logf("no HTTP/3 server: %s: %v", s.Class, s.Err)
}
