package ws

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/surge-load/surge/demo"
	"github.com/surge-load/surge/errclass"
	"github.com/surge-load/surge/metrics"
	"github.com/surge-load/surge/result"
)

type recording struct {
	rec       *metrics.Recorder
	start     time.Time
	conn, rtt metrics.EndpointID
}

func newRecording() *recording {
	r := &recording{rec: metrics.NewRecorder(1), start: time.Now()}
	r.conn = r.rec.Endpoint("WS /api/v1/ws/echo")
	r.rtt = r.rec.Endpoint("echo round trip")
	r.rec.Begin(r.start, nil)
	return r
}

func (r *recording) to() Recording { return Recording{Shard: r.rec.Shard(0), Endpoint: r.conn} }

func (r *recording) result() *result.Result {
	end := time.Now()
	r.rec.Finish(end)
	return r.rec.Result(end.Sub(r.start))
}

func startDemo(t *testing.T) string {
	t.Helper()
	srv, err := demo.Start(context.Background(), "127.0.0.1:0", demo.Config{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	return "ws://" + srv.Addr + "/api/v1/ws/echo"
}

// connectEcho connects to the demo's echo endpoint, recording into r.
func connectEcho(t *testing.T, ctx context.Context, r *recording) *Conn {
	t.Helper()
	conn, err := New(Options{}).Connect(ctx, startDemo(t), nil, r.to())
	if err != nil {
		t.Fatal(err)
	}
	return conn
}

func TestEchoRoundTrips(t *testing.T) {
	ctx, r := t.Context(), newRecording()
	conn := connectEcho(t, ctx, r)
	for i := range 5 {
		if err := conn.SendJSON(ctx, map[string]int{"id": i}); err != nil {
			t.Fatal(err)
		}
		want := fmt.Sprintf(`{"id":%d}`, i)
		msg, err := conn.Await(ctx, Await{Match: func(m []byte) bool { return string(m) == want }, Timeout: 2 * time.Second, Record: true, Endpoint: r.rtt})
		if err != nil || string(msg) != want {
			t.Fatalf("await %d: %q, %v", i, msg, err)
		}
	}
	if err := conn.Close(websocket.StatusNormalClosure, "done"); err != nil {
		t.Fatal(err)
	}
	res := r.result()
	st := res.Totals.Streams
	if st == nil || st.Opened != 1 || st.Events != 5 || st.Sent != 5 || st.Ends["held"] != 1 || st.CloseCodes["1000"] != 1 {
		t.Fatalf("streams %+v", st)
	}
	if st.Connect.Max <= 0 || st.Headers.Max < st.Connect.Max || st.BytesIn <= 0 || st.BytesOut <= 0 {
		t.Fatalf("stream not measured: %+v", st)
	}
	byName := map[string]result.Stats{}
	for _, e := range res.Endpoints {
		byName[e.Name] = e.Stats
	}
	if h := byName["WS /api/v1/ws/echo"]; h.Requests != 1 || h.Failures != 0 || h.Statuses["101"] != 1 || h.BytesIn <= 0 {
		t.Fatalf("handshake row %+v", h)
	}
	if rt := byName["echo round trip"]; rt.Requests != 5 || rt.Failures != 0 || rt.Latency.Max <= 0 {
		t.Fatalf("round-trip row %+v", rt)
	}
}

func TestServerCloseCode(t *testing.T) {
	ctx, r := t.Context(), newRecording()
	conn := connectEcho(t, ctx, r)
	if err := conn.Send(ctx, []byte("close 4001 bye")); err != nil {
		t.Fatal(err)
	}
	_, err := conn.Await(ctx, Await{Record: true, Endpoint: r.rtt})
	if websocket.CloseStatus(err) != 4001 {
		t.Fatalf("await after a server close: %v", err)
	}
	if err := conn.Send(ctx, []byte("x")); err == nil {
		t.Fatal("sending on a closed connection worked")
	}
	res := r.result()
	if st := res.Totals.Streams; st.Ends["server_closed"] != 1 || st.CloseCodes["4001"] != 1 {
		t.Fatalf("streams %+v", st)
	}
	if res.Totals.Errors["closed"] != 1 {
		t.Fatalf("the failed round trip is not classed closed: %v", res.Totals.Errors)
	}
}

func TestAwaitTimeoutKeepsTheConnection(t *testing.T) {
	ctx, r := t.Context(), newRecording()
	conn := connectEcho(t, ctx, r)
	if _, err := conn.Await(ctx, Await{Timeout: 100 * time.Millisecond, Record: true, Endpoint: r.rtt}); !errors.Is(err, ErrAwaitTimeout) {
		t.Fatalf("await with nothing sent: %v, want ErrAwaitTimeout", err)
	}
	for _, m := range []string{"a", "b", "c"} {
		if err := conn.Send(ctx, []byte(m)); err != nil {
			t.Fatalf("send after a timed-out wait: %v", err)
		}
	}
	if err := conn.Hold(ctx, 200*time.Millisecond); err != nil {
		t.Fatalf("hold: %v", err)
	}
	if conn.Received() != 3 {
		t.Fatalf("received %d messages while holding, want 3", conn.Received())
	}
	if err := conn.Send(ctx, []byte("d")); err != nil {
		t.Fatalf("send after hold: %v", err)
	}
	if msg, err := conn.Await(ctx, Await{Timeout: time.Second}); err != nil || string(msg) != "d" {
		t.Fatalf("await after hold: %q %v", msg, err)
	}
	conn.Close(websocket.StatusNormalClosure, "")
	res := r.result()
	if res.Totals.Errors["timeout"] != 1 || res.Totals.Streams.Ends["held"] != 1 || res.Totals.Streams.Events != 4 {
		t.Fatalf("errors %v, streams %+v", res.Totals.Errors, res.Totals.Streams)
	}
}

func TestHandshakeFailures(t *testing.T) {
	url := startDemo(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refused := "ws://" + ln.Addr().String() + "/"
	ln.Close()
	for _, tt := range []struct {
		url   string
		class errclass.Class
		end   metrics.StreamEnd
	}{
		{strings.Replace(url, "/ws/echo", "/nope", 1), errclass.HTTP4xx, metrics.EndHTTPError},
		{strings.Replace(url, "/api/v1/ws/echo", "/healthz", 1), errclass.Check, metrics.EndHTTPError},
		{refused, errclass.ConnectRefused, metrics.EndConnectFailed},
		{"ftp://x/", errclass.Other, metrics.EndError},
	} {
		r := newRecording()
		conn, err := New(Options{}).Connect(t.Context(), tt.url, nil, r.to())
		if err == nil || conn != nil {
			t.Fatalf("%s: connected", tt.url)
		}
		res := r.result()
		if res.Totals.Errors[string(tt.class)] != 1 || res.Totals.Streams.Ends[string(tt.end)] != 1 || res.Totals.Streams.Opened != 0 {
			t.Fatalf("%s: %v; errors %v, ends %v", tt.url, err, res.Totals.Errors, res.Totals.Streams.Ends)
		}
	}
}

func TestInterruptedWait(t *testing.T) {
	url := startDemo(t)
	r := newRecording()
	ctx, cancel := context.WithCancelCause(t.Context())
	conn, err := New(Options{}).Connect(ctx, url, nil, r.to())
	if err != nil {
		t.Fatal(err)
	}
	time.AfterFunc(50*time.Millisecond, func() { cancel(errclass.ErrInterrupted) })
	if _, err := conn.Await(ctx, Await{Record: true, Endpoint: r.rtt}); !errors.Is(err, errclass.ErrInterrupted) {
		t.Fatalf("await: %v", err)
	}
	res := r.result()
	if res.Totals.Errors["interrupted"] != 1 || res.Totals.Streams.Ends["interrupted"] != 1 {
		t.Fatalf("errors %v ends %v", res.Totals.Errors, res.Totals.Streams.Ends)
	}
}
