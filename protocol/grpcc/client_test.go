package grpcc

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"

	"github.com/surge-load/surge/errclass"
	"github.com/surge-load/surge/metrics"
)

func method(t *testing.T, f *Files, name string) *Call {
	t.Helper()
	md, err := f.Method(name)
	if err != nil {
		t.Fatal(err)
	}
	return &Call{Method: md}
}

// TestUnaryAndStreaming calls a grpc-go server over plaintext and TLS:
// unary calls with metadata, server streaming with its message count, each
// compared with what the server counted; the first call of a connection
// measures its connect (and TLS) time, later ones do not.
func TestUnaryAndStreaming(t *testing.T) {
	files := loadEcho(t)
	for _, useTLS := range []bool{false, true} {
		es := startEcho(t, useTLS)
		c := New(Options{InsecureTLS: true})
		say := method(t, files, "surge.test.Echo/Say")
		say.Target, say.TLS = es.Addr, useTLS
		say.Message = []byte(`{"text": "hi", "id": "42"}`)
		say.Metadata = map[string]string{"X-User": "ann"}
		for i := range 20 {
			var s metrics.Sample
			resp := c.Do(context.Background(), say, &s)
			if s.Class != errclass.None || resp.Code != codes.OK || resp.Messages != 1 {
				t.Fatalf("tls %v, call %d: %s %v, %d messages", useTLS, i, s.Class, s.Err, resp.Messages)
			}
			var reply map[string]any
			if err := json.Unmarshal(resp.Last, &reply); err != nil || reply["text"] != "hi from ann" || reply["n"] != "42" {
				t.Fatalf("reply %s: %v", resp.Last, err)
			}
			if resp.Header.Get("x-served-by")[0] != "echo" {
				t.Errorf("header %v", resp.Header)
			}
			if s.BytesIn <= 0 || s.BytesOut <= 0 || s.Timing.Wait <= 0 {
				t.Errorf("call %d: bytes %d in, %d out, wait %v", i, s.BytesIn, s.BytesOut, s.Timing.Wait)
			}
			first := i == 0
			if (s.Timing.Connect > 0) != first || (useTLS && (s.Timing.TLS > 0) != first) || (!useTLS && s.Timing.TLS != 0) {
				t.Errorf("tls %v, call %d: connect %v, tls %v", useTLS, i, s.Timing.Connect, s.Timing.TLS)
			}
		}
		count := method(t, files, "surge.test.Echo/Count")
		count.Target, count.TLS, count.Message = es.Addr, useTLS, []byte(`{"n": 7}`)
		var s metrics.Sample
		resp := c.Do(context.Background(), count, &s)
		if s.Class != errclass.None || resp.Messages != 7 || !strings.Contains(string(resp.Last), `"n":"7"`) {
			t.Errorf("stream: %s %v, %d messages, last %s", s.Class, s.Err, resp.Messages, resp.Last)
		}
		if es.Calls.Load() != 21 || es.Sent.Load() != 27 {
			t.Errorf("the server received %d calls and sent %d messages, want 21 and 27", es.Calls.Load(), es.Sent.Load())
		}
		c.Close()
	}
}

// TestReflectionAndHealth calls the standard health service, found by
// server reflection, once per client.
func TestReflectionAndHealth(t *testing.T) {
	es := startEcho(t, false)
	r := &Reflection{}
	for range 2 {
		c := New(Options{Reflection: r})
		call := &Call{Target: es.Addr, MethodName: "grpc.health.v1.Health/Check", Message: []byte(`{"service": "surge.test.Echo"}`)}
		var s metrics.Sample
		resp := c.Do(context.Background(), call, &s)
		if s.Class != errclass.None || !strings.Contains(string(resp.Last), "SERVING") {
			t.Fatalf("health: %s %v %s", s.Class, s.Err, resp.Last)
		}
		echo := &Call{Target: es.Addr, MethodName: "surge.test.Echo/Say", Message: []byte(`{"text": "x"}`)}
		if resp := c.Do(context.Background(), echo, &s); s.Class != errclass.None || !strings.Contains(string(resp.Last), `"x"`) {
			t.Fatalf("echo by reflection: %s %v", s.Class, s.Err)
		}
		c.Close()
	}
	if len(r.found) != 2 {
		t.Errorf("reflection found %d methods, want 2, once each", len(r.found))
	}
}

// TestFaults checks the classes of real faults: a deadline that passes, a
// method the server does not implement, a bad message, a server stopped.
func TestFaults(t *testing.T) {
	files := loadEcho(t)
	es := startEcho(t, false)
	c := New(Options{})
	defer c.Close()
	call := func(name, msg string, deadline time.Duration) (metrics.Sample, Response) {
		cl := method(t, files, name)
		cl.Target, cl.Message, cl.Deadline = es.Addr, []byte(msg), deadline
		var s metrics.Sample
		resp := c.Do(context.Background(), cl, &s)
		return s, resp
	}
	if s, _ := call("surge.test.Echo/Sleep", `{"ms": 2000}`, 50*time.Millisecond); s.Class != errclass.GRPCDeadlineExceeded || s.Status != int(codes.DeadlineExceeded) {
		t.Errorf("deadline: %s %d %v", s.Class, s.Status, s.Err)
	}
	if s, _ := call("surge.test.Echo/Missing", `{}`, 0); s.Class != errclass.GRPCUnimplemented {
		t.Errorf("unimplemented: %s %v", s.Class, s.Err)
	}
	if s, _ := call("surge.test.Echo/Say", `{"nope": 1}`, 0); s.Class != errclass.GRPCInvalidArgument || !strings.Contains(s.Err.Error(), "surge.test.SayRequest") {
		t.Errorf("bad message: %s %v", s.Class, s.Err)
	}
	es.Srv.Stop()
	if s, _ := call("surge.test.Echo/Say", `{}`, time.Second); s.Class != errclass.GRPCUnavailable {
		t.Errorf("server stopped: %s %v", s.Class, s.Err)
	}
	if errclass.GRPCUnavailable.Hint() == "" {
		t.Error("grpc_unavailable has no hint")
	}
}

func TestLoadProtosErrors(t *testing.T) {
	f := loadEcho(t)
	for name, want := range map[string]string{
		"surge.test.Echo/Nope": "service surge.test.Echo has no method Nope; it has Count, Missing, Say, Sleep",
		"surge.test.Nope/Say":  "service surge.test.Nope is not described",
		"Say":                  "is not package.Service/Method",
	} {
		if _, err := f.Method(name); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", name, err, want)
		}
	}
	_, err := LoadProtos([]string{"bad.proto"}, nil, func(string) ([]byte, error) { return []byte("syntax = \"proto3\";\nmessage {"), nil })
	if err == nil || !strings.Contains(err.Error(), "bad.proto:2:") {
		t.Errorf("a broken .proto: %v", err)
	}
}
