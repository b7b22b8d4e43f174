package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/surge-load/surge/result"
)

// The target of TestChaos runs in a process of its own (this test binary,
// started with chaosServerEnv set), so that the test can kill it outright.
const (
	chaosServerEnv = "SURGE_TEST_CHAOS_SERVER" // the address to listen on
	chaosLogEnv    = "SURGE_TEST_CHAOS_LOG"    // the server's own request log
)

// chaosServer serves addr, writing one line to its log for every request
// it receives, before it answers: a write(2) of its own, unbuffered, so
// the kernel has it even if the process is killed the next instant.
func chaosServer(addr, logPath string) {
	log, err := os.OpenFile(logPath, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	var ln net.Listener
	for i := 0; ; i++ {
		// The port of the killed process may take a moment to be free.
		if ln, err = net.Listen("tcp", addr); err == nil || i == 100 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println("ready")
	http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, err := log.Write([]byte("recv " + r.URL.Path + "\n")); err != nil {
			os.Exit(1)
		}
		time.Sleep(20 * time.Millisecond) // requests are in flight when it dies
		w.Write([]byte("ok"))
	}))
}

// startChaosServer starts the target process and waits until it listens.
func startChaosServer(t *testing.T, addr, logPath string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), chaosServerEnv+"="+addr, chaosLogEnv+"="+logPath)
	out, _ := cmd.StdoutPipe()
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	ready := make(chan bool, 1)
	go func() {
		line, _ := bufio.NewReader(out).ReadString('\n')
		ready <- strings.TrimSpace(line) == "ready"
	}()
	select {
	case ok := <-ready:
		if !ok {
			t.Fatal("the target did not start")
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the target did not start within 20s")
	}
	return cmd
}

// TestChaos kills the target (SIGKILL) twice in the middle of a run and
// restarts it: the generator keeps going, classes every failure by its
// cause, and its counts agree with the target's own log: every success was
// received by the target, and the target received no more than the
// successes plus the requests in flight when it died.
func TestChaos(t *testing.T) {
	probe, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := probe.Addr().String()
	probe.Close()
	dir := t.TempDir()
	logPath, out := filepath.Join(dir, "server.log"), filepath.Join(dir, "res.json")

	const users, kills = 4, 2
	server := startChaosServer(t, addr, logPath)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	gen := exec.CommandContext(ctx, surgeBin, "run", "--url", "http://"+addr+"/x", "--users", fmt.Sprint(users),
		"--think", "5ms", "--duration", "6s", "--timeout", "2s", "--out", out, "-q")
	var stdout, stderr bytes.Buffer
	gen.Stdout, gen.Stderr = &stdout, &stderr
	if err := gen.Start(); err != nil {
		t.Fatal(err)
	}
	logLines := func() int {
		b, _ := os.ReadFile(logPath)
		return bytes.Count(b, []byte("\n"))
	}
	var atKill []int
	for k := range kills {
		// Kill it once it has served a good share since it started.
		for start := logLines(); logLines() < start+100; {
			if ctx.Err() != nil {
				t.Fatalf("the target saw only %d requests", logLines())
			}
			time.Sleep(20 * time.Millisecond)
		}
		if err := server.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		server.Wait()
		atKill = append(atKill, logLines())
		time.Sleep(700 * time.Millisecond) // down: connections are refused
		server = startChaosServer(t, addr, logPath)
		t.Logf("kill %d: the target had received %d requests; restarted", k+1, atKill[k])
	}
	if err := gen.Wait(); err != nil {
		t.Fatalf("surge: %v\n%s\n%s", err, stdout.String(), stderr.String())
	}
	server.Process.Signal(syscall.SIGKILL)
	server.Wait()

	res, err := result.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	recv := logLines()
	tot := res.Totals
	ok := tot.Statuses["200"]
	var failed int64
	for class, n := range tot.Errors {
		failed += n
		switch class {
		case "connect_refused", "reset", "closed":
		default:
			t.Errorf("%d failures of class %q; a killed target gives connect_refused, reset or closed", n, class)
		}
	}
	t.Logf("surge: %d requests, %d ok, failures %v; the target's log: %d requests received", tot.Requests, ok, tot.Errors, recv)
	for _, e := range res.Errors {
		for _, m := range e.Samples {
			t.Logf("  %s: %s (%d)", e.Class, m.Message, m.Count)
		}
	}
	if tot.Requests != ok+failed || tot.Failures != failed {
		t.Errorf("%d requests are not %d ok + %d failed (failures %d)", tot.Requests, ok, failed, tot.Failures)
	}
	if tot.Errors["connect_refused"] == 0 {
		t.Error("no connection was refused while the target was down")
	}
	// Every success was received by the target...
	if ok > int64(recv) {
		t.Errorf("%d successes, but the target received only %d requests", ok, recv)
	}
	// ...and the target received nothing else but what was in flight when
	// it died, which failed mid-request. A user's connection fails mid-request
	// at most twice per kill: once in flight (or at its next use), and once
	// more if the user reconnected while the dying process was still closing
	// its files: the kernel completes a handshake into a listener that is
	// about to close, and then resets it. So no more than 2 × users × kills
	// did; more would be failures counted twice.
	midRequest := tot.Errors["reset"] + tot.Errors["closed"]
	lost := int64(recv) - ok
	if lost > midRequest || midRequest > 2*users*kills {
		t.Errorf("the target received %d requests that surge did not count as successes; %d failed mid-request, at most %d (twice users × kills) may",
			lost, midRequest, 2*users*kills)
	}
	// The generator kept going: successes after each restart.
	var okAfter int64
	for _, p := range res.Series {
		if p.T >= res.Series[len(res.Series)-1].T-1 {
			okAfter += p.Requests - p.Failures
		}
	}
	if okAfter == 0 || res.Run.Interrupted {
		t.Errorf("no successes in the last second of the run after the restarts (interrupted %v)", res.Run.Interrupted)
	}
}
