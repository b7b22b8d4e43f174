package scenario_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/surge-load/surge"
	"github.com/surge-load/surge/internal/grpctest"
	"github.com/surge-load/surge/scenario"
	"github.com/surge-load/surge/scenario/yamlfile"
)

// TestGRPCStep runs a file with grpc steps against a grpc-go server: unary
// calls described by a .proto with metadata and a capture, a server stream
// whose message count is checked, the health service found by reflection,
// and a call past its deadline, each row compared with what the server
// counted.
func TestGRPCStep(t *testing.T) {
	es := grpctest.Start(t, false)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "echo.proto"), grpctest.Proto, 0o644); err != nil {
		t.Fatal(err)
	}
	src := `
target: http://` + es.Addr + `
scenarios:
  rpc:
    load: {iterations: 10, users: 2}
    flow:
      - name: say
        grpc:
          method: surge.test.Echo/Say
          proto: echo.proto
          message: {text: "hello", id: "{{ user }}"}
          metadata: {x-user: "u{{ user }}"}
          deadline: 5s
        expect: {that: 'json.text == "hello from u" + string(user) && headers["x-served-by"] == "echo"'}
        capture: {said: json.text}
      - name: count
        grpc: {method: surge.test.Echo/Count, proto: [echo.proto], message: {n: 4}}
        expect: {that: messages == 4 && json.n == "4"}
      - name: health
        grpc: {method: grpc.health.v1.Health/Check, message: {service: surge.test.Echo}}
        expect: {that: json.status == "SERVING"}
      - name: slow
        grpc: {method: surge.test.Echo/Sleep, proto: echo.proto, message: {ms: 3000}, deadline: 20ms}
        expect: {status: [4]}
`
	plan, err := yamlfile.Compile("grpc.yaml", []byte(src), scenario.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := surge.Run(ctx, plan, surge.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"say", "count", "health", "slow"} {
		e := endpoint(res, name)
		if e.Requests != 10 || e.Failures != 0 {
			t.Errorf("%s: %d calls, %d failures %v; want 10, none", name, e.Requests, e.Failures, res.Errors)
		}
	}
	// The server counts Echo calls (say, count, slow), not health or
	// reflection; count sent 4 messages each, say 1.
	if es.Calls.Load() != 30 || es.Sent.Load() != 50 {
		t.Errorf("the server received %d Echo calls and sent %d messages; want 30 and 50", es.Calls.Load(), es.Sent.Load())
	}

	// A stopped server: every call fails as grpc_unavailable.
	es.Srv.Stop()
	plan, err = yamlfile.Compile("grpc.yaml", []byte(strings.Replace(src, "iterations: 10", "iterations: 3", 1)), scenario.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	res, err = surge.Run(ctx, plan, surge.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if e := endpoint(res, "say"); e.Requests != 3 || e.Errors["grpc_unavailable"] != 3 {
		t.Errorf("server stopped: %d calls, errors %v; want 3 grpc_unavailable", e.Requests, e.Errors)
	}
}

func TestGRPCStepErrors(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "echo.proto"), grpctest.Proto, 0o644); err != nil {
		t.Fatal(err)
	}
	for src, want := range map[string]string{
		"grpc: {method: surge.test.Echo/Nope, proto: echo.proto}": "f.yaml:7:24: service surge.test.Echo has no method Nope; it has Count, Missing, Say, Sleep",
		"grpc: {method: surge.test.Echo/Say, proto: nope.proto}":  "f.yaml:7:52: compile the .proto files",
		"grpc: {proto: echo.proto}":                               "the call has no method",
		"grpc: {method: a.B/C, deadline: -1s}":                    "deadline -1s is negative",
	} {
		file := "target: http://127.0.0.1:1\nscenarios:\n  s:\n    load: {iterations: 1, users: 1}\n    flow:\n      - name: x\n        " + src + "\n"
		_, err := yamlfile.Compile("f.yaml", []byte(file), scenario.Options{Dir: dir})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v\nwant %q", src, err, want)
		}
	}
}
