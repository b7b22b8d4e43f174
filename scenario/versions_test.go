package scenario_test

import (
	"context"
	"crypto/tls"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/quic-go/quic-go/http3"

	"github.com/surge-load/surge"
	"github.com/surge-load/surge/protocol/httpc"
	"github.com/surge-load/surge/scenario"
	"github.com/surge-load/surge/scenario/yamlfile"
)

// TestHTTP2PriorKnowledgeFile runs a file with defaults: {http2:
// prior-knowledge} against an h2c server that speaks no HTTP/1.1: every
// request arrived over HTTP/2, as the server counted, and the result's
// row says which version it used.
func TestHTTP2PriorKnowledgeFile(t *testing.T) {
	var h2 atomic.Int64
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ProtoMajor == 2 {
			h2.Add(1)
		}
	}))
	srv.Config.Protocols = new(http.Protocols)
	srv.Config.Protocols.SetUnencryptedHTTP2(true)
	srv.Start()
	defer srv.Close()
	src := `
defaults: {http2: prior-knowledge}
scenarios:
  s:
    load: {iterations: 25, users: 2}
    flow:
      - {name: h2c, get: /x}
`
	plan, err := yamlfile.Compile("h2c.yaml", []byte(src), scenario.Options{Target: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := surge.Run(ctx, plan, surge.Options{})
	if err != nil {
		t.Fatal(err)
	}
	e := endpoint(res, "h2c")
	if e.Requests != 25 || e.Failures != 0 || h2.Load() != 25 || e.Protocols["HTTP/2.0"] != 25 || len(e.Protocols) != 1 {
		t.Errorf("%d requests, %d failures, protocols %v; the server saw %d over HTTP/2; want 25 each", e.Requests, e.Failures, e.Protocols, h2.Load())
	}
	if _, err := yamlfile.Compile("bad.yaml", []byte("defaults: {http2: maybe}\n"+src[len("\ndefaults: {http2: prior-knowledge}\n"):]), scenario.Options{Target: srv.URL}); err == nil ||
		!containsAll(err.Error(), "bad.yaml:1:19", "not true, false or prior-knowledge") {
		t.Errorf("http2: maybe: %v", err)
	}
}

func containsAll(s string, parts ...string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}

// TestHTTP3File runs a file with defaults: {http3: true} against a quic-go
// HTTP/3 server: every request arrived over HTTP/3, as the server counted,
// and the row says so.
func TestHTTP3File(t *testing.T) {
	cert := httptest.NewUnstartedServer(nil)
	cert.StartTLS()
	c := cert.TLS.Certificates[0]
	cert.Close()
	pc, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	var h3 atomic.Int64
	srv := &http3.Server{TLSConfig: http3.ConfigureTLSConfig(&tls.Config{Certificates: []tls.Certificate{c}}),
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.ProtoMajor == 3 {
				h3.Add(1)
			}
		})}
	go srv.Serve(pc)
	defer func() { srv.Close(); pc.Close() }()
	src := `
defaults: {http3: true}
scenarios:
  s:
    load: {iterations: 12, users: 3}
    flow:
      - {name: h3, get: /x}
`
	plan, err := yamlfile.Compile("h3.yaml", []byte(src), scenario.Options{Target: "https://" + pc.LocalAddr().String(), HTTP: httpc.Options{InsecureTLS: true}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := surge.Run(ctx, plan, surge.Options{})
	if err != nil {
		t.Fatal(err)
	}
	e := endpoint(res, "h3")
	if e.Requests != 12 || e.Failures != 0 || h3.Load() != 12 || e.Protocols["HTTP/3.0"] != 12 {
		t.Errorf("%d requests, %d failures %v, protocols %v; the server saw %d over HTTP/3; want 12 each", e.Requests, e.Failures, res.Errors, e.Protocols, h3.Load())
	}
}
