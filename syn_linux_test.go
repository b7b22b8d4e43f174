package surge_test

import (
	"bytes"
	"net"
	"net/http"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/surge-load/surge/executor"
	"github.com/surge-load/surge/internal/report"
)

// slowAccepter accepts one connection per interval.
type slowAccepter struct {
	net.Listener
	every time.Duration
}

func (l slowAccepter) Accept() (net.Conn, error) {
	time.Sleep(l.every)
	return l.Listener.Accept()
}

// backlogListener listens on loopback with a listen backlog of 0: the
// kernel queues one connection the server has not accepted and drops the
// SYNs of the others, which the client sends again after 1 s, 3 s, ...
func backlogListener(t *testing.T) net.Listener {
	t.Helper()
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM, 0)
	if err != nil {
		t.Skipf("socket: %v", err)
	}
	if err := syscall.Bind(fd, &syscall.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		t.Skipf("bind: %v", err)
	}
	if err := syscall.Listen(fd, 0); err != nil {
		t.Skipf("listen: %v", err)
	}
	f := os.NewFile(uintptr(fd), "backlog-0")
	defer f.Close()
	ln, err := net.FileListener(f)
	if err != nil {
		t.Fatal(err)
	}
	return ln
}

// Connects that wait for a SYN retransmission take about 1 s or 3 s: the
// result counts them and the summary says the server's listen backlog
// overflowed.
func TestSYNRetransmissionsNamed(t *testing.T) {
	ln := backlogListener(t)
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}), ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(slowAccepter{ln, 200 * time.Millisecond})
	t.Cleanup(func() { srv.Close() })
	res := runPlan(t, "http://"+ln.Addr().String()+"/", executor.Iterations{Total: 6, Users: 6, MaxDuration: 20 * time.Second, Grace: 10 * time.Second})
	if res.Totals.Requests != 6 {
		t.Fatalf("%d requests (%v); want 6", res.Totals.Requests, res.Totals.Errors)
	}
	n := res.Totals.Timing.ConnectSYNRetransmits
	if n == 0 || res.Totals.Timing.Connect.Max < 900 {
		t.Fatalf("%d SYN retransmissions, longest connect %.0f ms; want some connects of about 1 s", n, res.Totals.Timing.Connect.Max)
	}
	var out bytes.Buffer
	report.Summary(&out, res)
	if !strings.Contains(out.String(), "SYN retransmissions") || !strings.Contains(out.String(), "listen backlog overflowed") {
		t.Errorf("the summary does not name the SYN retransmissions:\n%s", out.String())
	}
}
