// Package servertest starts the servers of the tests on loopback ports and
// stops them when the test ends: the real ones they measure against and
// watch (nginx, prometheus, influxd, node-exporter from Debian's
// packages), and raw TCP servers that answer by hand (Raw, Hold, Canned).
package servertest

import (
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// Require returns path, a program of Debian's package pkg, or skips t
// where it is not installed; with the environment variable env set (as
// .ci/run sets it) a missing program fails the test instead.
func Require(t testing.TB, path, pkg, env string) string {
	t.Helper()
	if _, err := os.Stat(path); err != nil {
		if os.Getenv(env) != "" {
			t.Fatalf("%s is not installed and %s is set; .ci/run installs Debian's %s package", path, env, pkg)
		}
		t.Skipf("%s is not installed (apt-get install %s)", path, pkg)
	}
	return path
}

// FreePort returns a loopback port that was free a moment ago.
func FreePort(t testing.TB) int {
	t.Helper()
	ln := listen(t)
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// Listening is a readiness check: addr accepts TCP connections.
func Listening(addr string) func() bool {
	return func() bool {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
		}
		return err == nil
	}
}

// Answers is a readiness check: a GET of url answers 2xx.
func Answers(url string) func() bool {
	return func() bool {
		resp, err := http.Get(url)
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode/100 == 2
	}
}

// Start starts cmd with its output in a log file of the test's temporary
// directory and waits, for at most a minute, until ready reports true. When
// the test ends the process is interrupted, and killed if it has not
// exited 5 seconds later. A process that exits before it is ready, or is
// not ready in time, fails the test with its log.
func Start(t testing.TB, cmd *exec.Cmd, ready func() bool) {
	t.Helper()
	logf, err := os.Create(filepath.Join(t.TempDir(), filepath.Base(cmd.Path)+".log"))
	if err != nil {
		t.Fatal(err)
	}
	if cmd.Stdout == nil {
		cmd.Stdout = logf
	}
	if cmd.Stderr == nil {
		cmd.Stderr = logf
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", cmd.Path, err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		select {
		case <-exited:
		case <-time.After(5 * time.Second):
			_ = cmd.Process.Kill()
			<-exited
		}
		logf.Close()
	})
	log := func() string {
		b, _ := os.ReadFile(logf.Name())
		return string(b)
	}
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		select {
		case <-exited:
			t.Fatalf("%s exited at start:\n%s", cmd.Path, log())
		default:
		}
		if ready() {
			return
		}
	}
	t.Fatalf("%s not ready after a minute:\n%s", cmd.Path, log())
}
