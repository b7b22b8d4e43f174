package servertest

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"

	"github.com/surge-load/surge/demo"
)

// A Child is the test binary run again as a process of its own, whose
// TestMain, seeing the environment variable it was started with, serves
// or does what the test watches instead of running the tests. It runs
// until its standard input closes.
type Child struct {
	Cmd   *exec.Cmd
	First string // the first line it printed: its URL, or "ready"
	stdin io.WriteCloser
}

// StartChild runs the test binary with env=kind in its environment and
// args after -test.run=^$, waits for the first line it prints and stops it
// when the test ends.
func StartChild(t testing.TB, env, kind string, args ...string) *Child {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, append([]string{"-test.run=^$"}, args...)...)
	cmd.Env = append(os.Environ(), env+"="+kind)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &Child{Cmd: cmd, stdin: stdin}
	t.Cleanup(c.Stop)
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("child %s=%s: %v", env, kind, err)
	}
	c.First = strings.TrimSpace(line)
	return c
}

// Stop closes the child's standard input and waits for it to exit, at
// most 5 seconds before it is killed. It may be called more than once.
func (c *Child) Stop() {
	c.stdin.Close()
	done := make(chan struct{})
	go func() { _ = c.Cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		_ = c.Cmd.Process.Kill()
		<-done
	}
}

// ServeDemo is a child's part (call it from TestMain): it serves the demo
// service, with the knobs of surge demo given in args (after a "--", if
// any), on a loopback port, prints its URL and exits once its standard
// input closes.
func ServeDemo(args []string) {
	for i, a := range args {
		if a == "--" {
			args = args[i+1:]
			break
		}
	}
	cfg := demo.DefaultConfig()
	fs := pflag.NewFlagSet("demo", pflag.ContinueOnError)
	demo.RegisterFlags(fs, &cfg)
	if err := fs.Parse(args); err != nil {
		fmt.Println("error", err)
		os.Exit(2)
	}
	srv, err := demo.Start(context.Background(), "127.0.0.1:0", cfg)
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	fmt.Println(srv.URL)
	_, _ = io.Copy(io.Discard, os.Stdin)
	os.Exit(0)
}
