package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/surge-load/surge/result"
)

// The port range of the test's network namespaces: ten ephemeral ports.
const (
	narrowPorts = "40000 40009"
	nsTarget    = "127.0.0.1:18080" // outside the range
)

// TestLocalAddrsBeyondPortRange holds 25 connections to one loopback
// destination in a network namespace whose ephemeral port range has ten
// ports. From one source address the connections beyond the tenth fail
// with local_ports, and the pre-flight check says so before any traffic;
// spread over 127.0.0.1-127.0.0.4 with --local-addrs, all of them succeed.
func TestLocalAddrsBeyondPortRange(t *testing.T) {
	cases := []struct {
		name       string
		localAddrs []string
		wantPorts  bool // local_ports failures and a pre-flight warning
	}{
		{"one source address", nil, true},
		{"four source addresses", []string{"--local-addrs", "127.0.0.1-127.0.0.4"}, false},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// A namespace of its own: the first case's closed connections
			// would hold ports in TIME_WAIT.
			ns := narrowNamespace(t, i)
			startInNamespace(t, ns, surgeBin, "demo", "--addr", nsTarget, "--latency", "300ms")
			out := filepath.Join(t.TempDir(), "r.json")
			args := append([]string{"netns", "exec", ns, surgeBin, "run", "--url", "http://" + nsTarget + "/",
				"--users", "25", "--duration", "2s", "--out", out, "-q"}, c.localAddrs...)
			cmd := exec.Command("ip", args...)
			var stdout, stderr strings.Builder
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("surge run: %v\n%s\n%s", err, stdout.String(), stderr.String())
			}
			res, err := result.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			var busy int64
			for _, p := range res.Series {
				busy = max(busy, p.Busy)
			}
			ports := res.Totals.Errors["local_ports"]
			warned := strings.Contains(stderr.String(), "one source address has 10 ephemeral ports")
			t.Logf("%d requests, %d failures (%d local_ports), up to %d at once; pre-flight warning: %v",
				res.Totals.Requests, res.Totals.Failures, ports, busy, warned)
			if busy < 20 {
				t.Errorf("only %d requests were in flight at once; want 25", busy)
			}
			if c.wantPorts {
				if ports < 15 || !warned {
					t.Errorf("one source address: %d local_ports failures, warning %v; want 15 or more (the users beyond 10 ports) and a warning\n%s", ports, warned, stderr.String())
				}
				return
			}
			if res.Totals.Failures != 0 || warned || res.Totals.Requests < 100 {
				t.Errorf("four source addresses: %d requests, %d failures %v, warning %v; want all of about 150 to succeed\n%s",
					res.Totals.Requests, res.Totals.Failures, res.Totals.Errors, warned, stderr.String())
			}
		})
	}
}

// narrowNamespace creates a network namespace with its loopback up and an
// ephemeral port range of ten ports, deleted at the end of the test. It
// skips the test where namespaces cannot be created.
func narrowNamespace(t *testing.T, n int) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("creating a network namespace needs root")
	}
	if _, err := exec.LookPath("ip"); err != nil {
		t.Skip("creating a network namespace needs the ip command (iproute2)")
	}
	ns := fmt.Sprintf("surge-test-%d-%d", os.Getpid(), n)
	if out, err := exec.Command("ip", "netns", "add", ns).CombinedOutput(); err != nil {
		t.Skipf("network namespaces are not permitted here: ip netns add: %v: %s", err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("ip", "netns", "del", ns).CombinedOutput(); err != nil {
			t.Errorf("ip netns del %s: %v: %s", ns, err, out)
		}
	})
	for _, args := range [][]string{
		{"ip", "link", "set", "lo", "up"},
		{"sh", "-c", "echo '" + narrowPorts + "' > /proc/sys/net/ipv4/ip_local_port_range"},
	} {
		if out, err := exec.Command("ip", append([]string{"netns", "exec", ns}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("in namespace %s: %s: %v: %s", ns, strings.Join(args, " "), err, out)
		}
	}
	return ns
}

// startInNamespace starts a server in ns and waits until it says it
// listens; it is killed at the end of the test.
func startInNamespace(t *testing.T, ns string, argv ...string) {
	t.Helper()
	cmd := exec.Command("ip", append([]string{"netns", "exec", ns}, argv...)...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	ready := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if strings.Contains(sc.Text(), "listening on") {
				ready <- true
				break
			}
		}
		ready <- false
		for sc.Scan() {
		}
	}()
	select {
	case ok := <-ready:
		if !ok {
			t.Fatalf("%s ended before it listened", strings.Join(argv, " "))
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("%s did not listen within 10 s", strings.Join(argv, " "))
	}
}
