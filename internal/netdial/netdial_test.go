package netdial

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/surge-load/surge/errclass"
)

func TestDialCountsAndTimes(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "hello") }))
	defer srv.Close()
	addr := strings.TrimPrefix(srv.URL, "http://")
	_, port, _ := net.SplitHostPort(addr)
	for _, a := range []string{addr, "localhost:" + port} {
		var cnt Counter
		var tm Timing
		conn, phase, err := New(Options{}).Dial(t.Context(), a, false, "", &cnt, &tm)
		if err != nil {
			t.Fatalf("%s: %v (phase %v)", a, err, phase)
		}
		req := "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
		io.WriteString(conn, req)
		b, _ := io.ReadAll(conn)
		conn.Close()
		if cnt.Out.Load() != int64(len(req)) || cnt.In.Load() != int64(len(b)) || !strings.HasSuffix(string(b), "hello") {
			t.Fatalf("%s: counted %d out, %d in; wrote %d, read %d", a, cnt.Out.Load(), cnt.In.Load(), len(req), len(b))
		}
		if tm.Connect <= 0 || (a == addr) != (tm.DNS == 0) {
			t.Fatalf("%s: timing %+v", a, tm)
		}
	}
}

func TestDialTLS(t *testing.T) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer srv.Close()
	addr := strings.TrimPrefix(srv.URL, "https://")
	var cnt Counter
	var tm Timing
	conn, _, err := New(Options{InsecureTLS: true}).Dial(t.Context(), addr, true, "", &cnt, &tm)
	if err != nil {
		t.Fatal(err)
	}
	conn.Close()
	if tm.TLS <= 0 || cnt.In.Load() == 0 || cnt.Out.Load() == 0 {
		t.Fatalf("TLS handshake not measured: %+v, %d in, %d out", tm, cnt.In.Load(), cnt.Out.Load())
	}
	// Without InsecureTLS the test certificate is refused, in the TLS phase.
	_, phase, err := New(Options{}).Dial(t.Context(), addr, true, "", &cnt, &tm)
	if err == nil || phase != errclass.PhaseTLS || errclass.Classify(err, phase) != errclass.TLS {
		t.Fatalf("untrusted certificate: %v, phase %v", err, phase)
	}
}

func TestDialFailures(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	var cnt Counter
	var tm Timing
	_, phase, err := New(Options{}).Dial(t.Context(), addr, false, "", &cnt, &tm)
	if errclass.Classify(err, phase) != errclass.ConnectRefused {
		t.Fatalf("refused: %v, phase %v", err, phase)
	}
	// A resolver that reaches no server: the lookup fails without traffic.
	offline := &net.Resolver{PreferGo: true, Dial: func(context.Context, string, string) (net.Conn, error) {
		return nil, errors.New("no DNS server in tests")
	}}
	_, phase, err = New(Options{Resolver: offline}).Dial(t.Context(), "no-such-host.invalid:80", false, "", &cnt, &tm)
	if phase != errclass.PhaseDNS || errclass.Classify(err, phase) != errclass.DNS {
		t.Fatalf("bad name: %v, phase %v", err, phase)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, _, err := New(Options{}).Dial(ctx, addr, false, "", &cnt, &tm); err == nil {
		t.Fatal("dialed under a cancelled context")
	}
	if _, _, err := New(Options{}).Dial(t.Context(), "no port", false, "", &cnt, &tm); err == nil {
		t.Fatal("dialed an address without a port")
	}
}

func TestLocalAddrsTakeTurns(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	d := New(Options{LocalAddrs: []net.IP{net.ParseIP("127.0.0.2"), net.ParseIP("127.0.0.3")}})
	seen := map[string]int{}
	for range 4 {
		var cnt Counter
		var tm Timing
		conn, _, err := d.Dial(t.Context(), ln.Addr().String(), false, "", &cnt, &tm)
		if err != nil {
			t.Fatal(err)
		}
		seen[conn.LocalAddr().(*net.TCPAddr).IP.String()]++
		conn.Close()
	}
	if seen["127.0.0.2"] != 2 || seen["127.0.0.3"] != 2 {
		t.Fatalf("source addresses used %v", seen)
	}
}
