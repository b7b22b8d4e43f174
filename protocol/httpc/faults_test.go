package httpc

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/surge-load/surge/errclass"
	"github.com/surge-load/surge/internal/servertest"
	"github.com/surge-load/surge/metrics"
)

// Every class below is produced by a real fault on loopback.

// doOnce makes one request with a fresh client and checks the common
// invariants of a failure of class want.
func doOnce(t *testing.T, opts Options, req *Request, want errclass.Class) (*metrics.Sample, Response) {
	t.Helper()
	c := New(opts)
	defer c.Close()
	s := new(metrics.Sample)
	resp := c.Do(context.Background(), mustPrepare(t, req), s)
	if s.Class != want {
		t.Fatalf("class %q, want %q; err: %v", s.Class, want, s.Err)
	}
	if s.Err == nil {
		t.Errorf("class %q with a nil Err", s.Class)
	}
	checkTiming(t, s)
	return s, resp
}

func TestConnectRefused(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	s, _ := doOnce(t, Options{}, &Request{URL: "http://" + addr + "/"}, errclass.ConnectRefused)
	if s.Status != 0 || s.BytesIn != 0 || s.BytesOut != 0 {
		t.Errorf("status %d, bytes in %d out %d; want zeros", s.Status, s.BytesIn, s.BytesOut)
	}
	t.Logf("err: %v", s.Err)
}

// TestConnectTimeout fills the accept queue of a listener that never
// accepts; Linux then drops further SYNs, so the next dial hangs until the
// request's timeout fires.
func TestConnectTimeout(t *testing.T) {
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(fd)
	if err := syscall.Bind(fd, &syscall.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Listen(fd, 0); err != nil {
		t.Fatal(err)
	}
	sa, err := syscall.Getsockname(fd)
	if err != nil {
		t.Fatal(err)
	}
	addr := fmt.Sprintf("127.0.0.1:%d", sa.(*syscall.SockaddrInet4).Port)

	// Fill the queue until a dial goes unanswered.
	full := false
	for range 32 {
		c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond)
		if err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				full = true
				break
			}
			t.Fatalf("filling the accept queue: %v", err)
		}
		defer c.Close()
	}
	if !full {
		t.Skip("the kernel kept completing handshakes to a listener with a full accept queue; cannot provoke a connect timeout")
	}

	s, _ := doOnce(t, Options{Timeout: 300 * time.Millisecond}, &Request{URL: "http://" + addr + "/"}, errclass.ConnectTimeout)
	if s.Timing.Connect < 250*time.Millisecond {
		t.Errorf("Connect = %v, want about the 300ms timeout", s.Timing.Connect)
	}
	if d := s.ServiceTime(); d < 300*time.Millisecond || d > 2*time.Second {
		t.Errorf("service time %v, want about 300ms", d)
	}
	t.Logf("err: %v; timing %+v", s.Err, s.Timing)
}

func TestTimeout(t *testing.T) {
	addr := servertest.Raw(t, func(c net.Conn) { io.Copy(io.Discard, c) }) // reads, never answers
	s, _ := doOnce(t, Options{Timeout: 300 * time.Millisecond}, &Request{URL: "http://" + addr + "/"}, errclass.Timeout)
	if s.Timing.Wait < 250*time.Millisecond {
		t.Errorf("Wait = %v, want about the 300ms timeout", s.Timing.Wait)
	}
	if s.BytesOut == 0 {
		t.Error("BytesOut = 0: the request was written")
	}
	// Request.Timeout overrides Options.Timeout.
	s, _ = doOnce(t, Options{Timeout: time.Hour}, &Request{URL: "http://" + addr + "/", Timeout: 100 * time.Millisecond}, errclass.Timeout)
	if d := s.ServiceTime(); d < 100*time.Millisecond || d > 2*time.Second {
		t.Errorf("service time %v with a 100ms Request.Timeout", d)
	}
	t.Logf("err: %v", s.Err)
}

func TestTimeoutWhileReadingBody(t *testing.T) {
	addr := servertest.Raw(t, func(c net.Conn) {
		if readRequestHead(c) == nil {
			io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\nsome of it")
			io.Copy(io.Discard, c)
		}
	})
	s, resp := doOnce(t, Options{Timeout: 300 * time.Millisecond}, &Request{URL: "http://" + addr + "/"}, errclass.Timeout)
	if s.Status != 200 || resp.Status != 200 {
		t.Errorf("status %d, want the 200 that arrived", s.Status)
	}
	if s.Timing.Receive < 250*time.Millisecond {
		t.Errorf("Receive = %v, want about the 300ms timeout", s.Timing.Receive)
	}
	t.Logf("err: %v", s.Err)
}

func TestReset(t *testing.T) {
	addr := servertest.Raw(t, func(c net.Conn) {
		if readRequestHead(c) == nil {
			c.(*net.TCPConn).SetLinger(0)
			c.Close() // RST
		}
	})
	s, _ := doOnce(t, Options{}, &Request{URL: "http://" + addr + "/"}, errclass.Reset)
	t.Logf("err: %v", s.Err)
}

// TestResetHTTP2: an HTTP/2 server that aborts a handler resets the stream
// (RST_STREAM), the HTTP/2 form of a reset.
func TestResetHTTP2(t *testing.T) {
	ts := newTestServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Has("mid") {
			w.Write(make([]byte, 100))
			w.(http.Flusher).Flush()
		}
		panic(http.ErrAbortHandler)
	}), true)
	s, _ := doOnce(t, Options{InsecureTLS: true}, &Request{URL: ts.URL}, errclass.Reset)
	t.Logf("err: %v", s.Err)
	s, _ = doOnce(t, Options{InsecureTLS: true}, &Request{URL: ts.URL + "/?mid"}, errclass.Reset)
	if s.Status != 200 {
		t.Errorf("status %d, want the 200 that arrived", s.Status)
	}
	t.Logf("err: %v", s.Err)
}

func TestClosedMidBody(t *testing.T) {
	addr := servertest.Raw(t, func(c net.Conn) {
		if readRequestHead(c) == nil {
			io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n0123456789")
			c.Close()
		}
	})
	s, resp := doOnce(t, Options{}, &Request{URL: "http://" + addr + "/", KeepBody: true}, errclass.Closed)
	if s.Status != 200 || string(resp.Body) != "0123456789" {
		t.Errorf("status %d, body %q; want 200 and the 10 bytes that arrived", s.Status, resp.Body)
	}
	t.Logf("err: %v", s.Err)
}

func TestClosedBeforeResponse(t *testing.T) {
	addr := servertest.Raw(t, func(c net.Conn) {
		if readRequestHead(c) == nil {
			c.Close()
		}
	})
	s, _ := doOnce(t, Options{}, &Request{URL: "http://" + addr + "/"}, errclass.Closed)
	if s.Status != 0 {
		t.Errorf("status %d, want 0", s.Status)
	}
	t.Logf("err: %v", s.Err)
}

func TestTLSUntrusted(t *testing.T) {
	ts := newTestServer(t, http.HandlerFunc(hello), true) // self-signed
	s, _ := doOnce(t, Options{}, &Request{URL: ts.URL}, errclass.TLS)
	if s.Timing.TLS <= 0 {
		t.Errorf("TLS = %v, want > 0", s.Timing.TLS)
	}
	t.Logf("err: %v", s.Err)
}

func TestDNS(t *testing.T) {
	r, queries := fakeDNS(t)
	s, _ := doOnce(t, Options{Resolver: r}, &Request{URL: "http://surge-test.invalid/"}, errclass.DNS)
	if queries.Load() == 0 {
		t.Error("the fake DNS server got no query")
	}
	if s.Timing.DNS <= 0 {
		t.Errorf("DNS = %v, want > 0", s.Timing.DNS)
	}
	t.Logf("err: %v (%d queries)", s.Err, queries.Load())
}

func TestLocalPorts(t *testing.T) {
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		t.Fatal(err)
	}
	local := func(ip net.IP) bool {
		for _, a := range addrs {
			if n, ok := a.(*net.IPNet); ok && n.IP.Equal(ip) {
				return true
			}
		}
		return false
	}
	if b, _ := os.ReadFile("/proc/sys/net/ipv4/ip_nonlocal_bind"); strings.TrimSpace(string(b)) == "1" {
		t.Skip("net.ipv4.ip_nonlocal_bind is on: binding a foreign address succeeds")
	}
	var foreign net.IP
	for _, s := range []string{"192.0.2.1", "198.51.100.1", "203.0.113.1"} { // TEST-NETs
		if ip := net.ParseIP(s); !local(ip) {
			foreign = ip
			break
		}
	}
	if foreign == nil {
		t.Skip("every TEST-NET candidate address is assigned to this machine")
	}
	ts := newTestServer(t, http.HandlerFunc(hello), false)
	s, _ := doOnce(t, Options{LocalAddrs: []net.IP{foreign}}, &Request{URL: ts.URL}, errclass.LocalPorts)
	if n := ts.conns.Load(); n != 0 {
		t.Errorf("server saw %d connections", n)
	}
	t.Logf("err: %v", s.Err)
}

func TestLocalAddrsRoundRobin(t *testing.T) {
	ts := newTestServer(t, http.HandlerFunc(hello), false)
	c := New(Options{NoKeepAlive: true, LocalAddrs: []net.IP{net.ParseIP("127.0.0.2"), net.ParseIP("127.0.0.3")}})
	defer c.Close()
	for range 4 {
		var s metrics.Sample
		c.Do(context.Background(), &Request{URL: ts.URL}, &s)
		if s.Class != errclass.None {
			t.Fatalf("class %q: %v", s.Class, s.Err)
		}
	}
	if seen := ts.sourceCounts(); seen["127.0.0.2"] != 2 || seen["127.0.0.3"] != 2 {
		t.Errorf("connections by source address: %v, want 2 each", seen)
	}
}

const fdHelperEnv = "SURGE_HTTPC_FD_HELPER"

// TestLocalFDs runs TestHelperFDLimit in a child process, which exhausts
// its open-files limit before making a request.
func TestLocalFDs(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestHelperFDLimit$", "-test.count=1")
	// updatemaxprocs=0: the runtime would otherwise reread cgroup files
	// every second, taking a file descriptor the child means to exhaust.
	// atexit_sleep_ms=0: the race detector would wait a second at exit.
	cmd.Env = append(os.Environ(), fdHelperEnv+"=1", "GODEBUG=updatemaxprocs=0", "GORACE=atexit_sleep_ms=0")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("helper: %v\n%s", err, out)
	}
	var class string
	for _, line := range strings.Split(string(out), "\n") {
		if v, ok := strings.CutPrefix(line, "class="); ok {
			class = v
		}
	}
	if errclass.Class(class) != errclass.LocalFDs {
		t.Fatalf("child classed %q, want %q; output:\n%s", class, errclass.LocalFDs, out)
	}
	t.Logf("child output:\n%s", out)
}

// TestHelperFDLimit is the child process of TestLocalFDs; it does nothing
// in a normal test run.
func TestHelperFDLimit(t *testing.T) {
	if os.Getenv(fdHelperEnv) != "1" {
		t.Skip("helper process for TestLocalFDs")
	}
	ts := newTestServer(t, http.HandlerFunc(hello), false)
	c := New(Options{Timeout: 5 * time.Second})
	defer c.Close()
	req := mustPrepare(t, &Request{URL: ts.URL})

	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		t.Fatal(err)
	}
	lim.Cur = 64
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		t.Fatal(err)
	}
	var files []*os.File
	defer func() {
		for _, f := range files {
			f.Close()
		}
	}()
	// Open files until the limit; again after a pause, in case another
	// goroutine held a descriptor for a moment, until none is left.
	for opened := -1; opened != 0; time.Sleep(10 * time.Millisecond) {
		opened = 0
		for len(files) < 1024 {
			f, err := os.Open(os.DevNull)
			if err != nil {
				if !errors.Is(err, syscall.EMFILE) {
					t.Fatalf("opening files: %v", err)
				}
				break
			}
			files = append(files, f)
			opened++
		}
	}
	var s metrics.Sample
	c.Do(context.Background(), req, &s)
	fmt.Printf("\nclass=%s\nerr=%v\n", s.Class, s.Err)
}

func TestInterrupted(t *testing.T) {
	release := make(chan struct{})
	ts := newTestServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}), false)
	defer close(release)
	c := New(Options{})
	defer c.Close()
	ctx, cancel := context.WithCancelCause(context.Background())
	time.AfterFunc(100*time.Millisecond, func() { cancel(errclass.ErrInterrupted) })
	var s metrics.Sample
	c.Do(ctx, mustPrepare(t, &Request{URL: ts.URL}), &s)
	if s.Class != errclass.Interrupted || !errors.Is(s.Err, errclass.ErrInterrupted) {
		t.Fatalf("class %q, err %v; want interrupted", s.Class, s.Err)
	}
	if d := s.ServiceTime(); d < 50*time.Millisecond || d > 5*time.Second {
		t.Errorf("service time %v, want about 100ms", d)
	}
	checkTiming(t, &s)
	t.Logf("err: %v", s.Err)
}

// TestInterruptedBeforeStart: a context already canceled with the
// interruption cause is classed interrupted, not as a connect failure.
func TestInterruptedBeforeStart(t *testing.T) {
	ts := newTestServer(t, http.HandlerFunc(hello), false)
	c := New(Options{})
	defer c.Close()
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(errclass.ErrInterrupted)
	var s metrics.Sample
	c.Do(ctx, &Request{URL: ts.URL}, &s)
	if s.Class != errclass.Interrupted {
		t.Fatalf("class %q, err %v; want interrupted", s.Class, s.Err)
	}
	checkTiming(t, &s)
}
