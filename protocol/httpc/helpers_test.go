package httpc

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/surge-load/surge/metrics"
)

// serverBytes counts what the server side of connections read and wrote.
type serverBytes struct{ read, written atomic.Int64 }

// countingListener counts the bytes of the connections it accepts.
type countingListener struct {
	net.Listener
	n *serverBytes
}

func (l countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &serverConn{Conn: c, n: l.n}, nil
}

type serverConn struct {
	net.Conn
	n *serverBytes
}

func (c *serverConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.n.read.Add(int64(n))
	return n, err
}

func (c *serverConn) Write(p []byte) (int, error) {
	n, err := c.Conn.Write(p)
	c.n.written.Add(int64(n))
	return n, err
}

// testServer is an httptest.Server that counts its connections and bytes.
type testServer struct {
	*httptest.Server
	conns atomic.Int64 // connections accepted
	bytes serverBytes

	mu      sync.Mutex
	sources []string // client IP of each connection
}

// sourceCounts returns how many connections came from each client IP.
func (ts *testServer) sourceCounts() map[string]int {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	m := map[string]int{}
	for _, s := range ts.sources {
		m[s]++
	}
	return m
}

// newTestServer starts a server on 127.0.0.1; with tls it serves HTTPS
// with HTTP/2 enabled.
func newTestServer(t testing.TB, h http.Handler, tls bool) *testServer {
	t.Helper()
	ts := &testServer{Server: httptest.NewUnstartedServer(h)}
	ts.Listener = countingListener{Listener: ts.Listener, n: &ts.bytes}
	ts.Config.ErrorLog = log.New(io.Discard, "", 0) // faults are the point here
	ts.Config.ConnState = func(c net.Conn, st http.ConnState) {
		if st == http.StateNew {
			ts.conns.Add(1)
			host, _, _ := net.SplitHostPort(c.RemoteAddr().String())
			ts.mu.Lock()
			ts.sources = append(ts.sources, host)
			ts.mu.Unlock()
		}
	}
	if tls {
		ts.EnableHTTP2 = true
		ts.StartTLS()
	} else {
		ts.Start()
	}
	t.Cleanup(ts.Close)
	return ts
}

// readRequestHead reads from c until the end of a request head.
func readRequestHead(c net.Conn) error {
	r := bufio.NewReader(c)
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return err
		}
		if line == "\r\n" {
			return nil
		}
	}
}

// fakeDNS serves DNS on a loopback UDP port and answers every query with
// NXDOMAIN. The returned resolver sends all its queries there, so no lookup
// reaches a real resolver; queries counts them.
func fakeDNS(t testing.TB) (r *net.Resolver, queries *atomic.Int64) {
	t.Helper()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pc.Close() })
	queries = new(atomic.Int64)
	go func() {
		buf := make([]byte, 1500)
		for {
			n, addr, err := pc.ReadFrom(buf)
			if err != nil {
				return
			}
			if n < 12 {
				continue
			}
			queries.Add(1)
			resp := bytes.Clone(buf[:n])
			flags := binary.BigEndian.Uint16(resp[2:])
			flags |= 1 << 15   // QR: response
			flags |= 1 << 7    // RA
			flags &^= 0xf      // RCODE
			flags |= 3         // NXDOMAIN
			flags &^= 0x7 << 4 // Z
			binary.BigEndian.PutUint16(resp[2:], flags)
			// Keep the question, no answer, authority or additional
			// records (drop any EDNS OPT record).
			binary.BigEndian.PutUint16(resp[6:], 0)
			binary.BigEndian.PutUint16(resp[8:], 0)
			binary.BigEndian.PutUint16(resp[10:], 0)
			if end := questionEnd(resp); end > 0 {
				resp = resp[:end]
			}
			pc.WriteTo(resp, addr)
		}
	}()
	addr := pc.LocalAddr().String()
	r = &net.Resolver{
		PreferGo: true,
		Dial: func(ctx context.Context, network, _ string) (net.Conn, error) {
			var d net.Dialer
			if strings.HasPrefix(network, "tcp") {
				network = "tcp" // nothing listens: refused
			} else {
				network = "udp"
			}
			return d.DialContext(ctx, network, addr)
		},
	}
	return r, queries
}

// questionEnd returns the offset after the first question of a DNS
// message, or 0 if it is malformed.
func questionEnd(m []byte) int {
	i := 12
	for i < len(m) {
		l := int(m[i])
		if l == 0 {
			i++
			if i+4 > len(m) {
				return 0
			}
			return i + 4
		}
		i += 1 + l
	}
	return 0
}

// checkTiming checks that the phases of s are non-negative and add up to
// its service time.
func checkTiming(t testing.TB, s *metrics.Sample) {
	t.Helper()
	tm := s.Timing
	for name, d := range map[string]time.Duration{
		"Blocked": tm.Blocked, "DNS": tm.DNS, "Connect": tm.Connect, "TLS": tm.TLS,
		"Send": tm.Send, "Wait": tm.Wait, "Receive": tm.Receive,
	} {
		if d < 0 {
			t.Errorf("Timing.%s = %v, want >= 0", name, d)
		}
	}
	sum := tm.Blocked + tm.DNS + tm.Connect + tm.TLS + tm.Send + tm.Wait + tm.Receive
	if total := s.ServiceTime(); sum != total {
		t.Errorf("timings add up to %v, service time is %v (%+v)", sum, total, tm)
	}
	if s.Start.IsZero() || s.End.Before(s.Start) {
		t.Errorf("Start %v, End %v", s.Start, s.End)
	}
}

// eventually polls cond for up to a second.
func eventually(cond func() bool) bool {
	for deadline := time.Now().Add(time.Second); ; time.Sleep(time.Millisecond) {
		if cond() {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
	}
}

func mustPrepare(t testing.TB, r *Request) *Request {
	t.Helper()
	if err := r.Prepare(); err != nil {
		t.Fatal(err)
	}
	return r
}
