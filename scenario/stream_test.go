package scenario_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/surge-load/surge"
	"github.com/surge-load/surge/demo"
	"github.com/surge-load/surge/executor"
	"github.com/surge-load/surge/result"
	"github.com/surge-load/surge/scenario"
	"github.com/surge-load/surge/scenario/yamlfile"
)

// fastDemo serves a demo service that ticks every 20ms.
func fastDemo(t *testing.T) string {
	t.Helper()
	svc := demo.New(demo.Config{EventInterval: 20 * time.Millisecond, KeepAliveInterval: 10 * time.Millisecond})
	srv := httptest.NewServer(svc)
	t.Cleanup(func() { svc.Close(); srv.Close() })
	return srv.URL
}

func runPlan(t *testing.T, spec *scenario.Spec) *result.Result {
	t.Helper()
	plan, err := scenario.Compile(spec, scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res, err := surge.Run(ctx, plan, surge.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func endpointRows(res *result.Result) map[string]result.EndpointStats {
	m := map[string]result.EndpointStats{}
	for _, e := range res.Endpoints {
		m[e.Name] = e
	}
	return m
}

func TestSSEStep(t *testing.T) {
	target := fastDemo(t)
	spec := &scenario.Spec{
		Target: target,
		Pools:  map[string][]any{"ids": {}},
		Scenarios: []scenario.Scenario{{
			Name: "subscribe",
			Load: executor.Iterations{Total: 4, Users: 2, MaxDuration: 20 * time.Second},
			Flow: []scenario.Step{
				{SSE: &scenario.SSE{URL: "/api/v1/events", Events: 3, SentAt: "json.sent_at"},
					Capture: map[string]string{"lastId": "event.id", "seqNo": "json.seq", "kind": "event.type"},
					Append:  map[string]string{"ids": "int(event.id)"}},
				{Name: "resume", SSE: &scenario.SSE{URL: "/api/v1/events", LastEventID: "{{ lastId }}", Until: "json.seq > seqNo", Hold: 5 * time.Second},
					Capture: map[string]string{"next": "json.seq", "n": "event.n"}},
				{Set: map[string]string{"ok": "next == seqNo + 1 && n == 1 && kind == 'tick'"}},
				{When: "!ok", Request: &scenario.Request{Method: "GET", URL: "/status-{{ next }}-{{ seqNo }}-{{ n }}"}},
			},
		}},
	}
	res := runPlan(t, spec)
	rows := endpointRows(res)
	first, resume := rows["SSE /api/v1/events"], rows["resume"]
	if first.Requests != 4 || first.Failures != 0 || resume.Requests != 4 || resume.Failures != 0 {
		t.Fatalf("rows %+v", res.Endpoints)
	}
	if len(rows) != 2 {
		t.Fatalf("a resumed subscription did not continue from the last id: rows %v", rows)
	}
	st := first.Streams
	if st == nil || st.Opened != 4 || st.Events != 12 || st.Ends["held"] != 4 || st.DelayHistogram == "" {
		t.Fatalf("streams of the first step %+v", st)
	}
	if rs := resume.Streams; rs == nil || rs.Events != 4 || rs.Ends["held"] != 4 || rs.DelayHistogram != "" {
		t.Fatalf("streams of the resumed step %+v", rs)
	}
}

func TestWebSocketStep(t *testing.T) {
	target := fastDemo(t)
	spec := &scenario.Spec{
		Target: target,
		Scenarios: []scenario.Scenario{{
			Name: "echo",
			Load: executor.Iterations{Total: 6, Users: 2, MaxDuration: 20 * time.Second},
			Flow: []scenario.Step{
				{WebSocket: &scenario.WebSocket{URL: "/api/v1/ws/echo", Actions: []scenario.WSAction{
					{JSON: map[string]any{"user": "{{ user }}", "iteration": "{{ iteration }}"}},
					{Await: "json.user == user && json.iteration == iteration", Timeout: 2 * time.Second, Capture: map[string]string{"got": "json.iteration"}},
					{Send: "hello {{ user }}"},
					{Await: "body == 'hello ' + string(user)", Name: "hello reply"},
					{Hold: 20 * time.Millisecond},
				}}, Capture: map[string]string{"lastBody": "body", "rtt": "duration_ms"}},
				{Set: map[string]string{"ok": "got == iteration && lastBody == 'hello ' + string(user) && rtt >= 0"}},
				{When: "!ok", Request: &scenario.Request{Method: "GET", URL: "/wrong"}},
			},
		}},
	}
	res := runPlan(t, spec)
	rows := endpointRows(res)
	hs, await, hello := rows["WS /api/v1/ws/echo"], rows["WS /api/v1/ws/echo await"], rows["hello reply"]
	if len(rows) != 3 || hs.Requests != 6 || hs.Failures != 0 || await.Requests != 6 || await.Failures != 0 || hello.Requests != 6 {
		t.Fatalf("rows %+v", res.Endpoints)
	}
	if st := hs.Streams; st == nil || st.Opened != 6 || st.Events != 12 || st.Sent != 12 || st.CloseCodes["1000"] != 6 || st.Ends["held"] != 6 {
		t.Fatalf("streams %+v", st)
	}
}

func TestStreamStepsInFiles(t *testing.T) {
	target := fastDemo(t)
	src := `target: ` + target + `
scenarios:
  streams:
    load: {iterations: 2, users: 1}
    flow:
      - name: ticks
        sse:
          url: /api/v1/events
          events: 2
          sent_at: json.sent_at
          sent_at_unit: ns
          idle_timeout: 5s
        capture: {id: event.id}
      - sse: /api/v1/events?x={{ id }}
        until: "true"
      - ws:
          url: /api/v1/ws/echo
          actions:
            - send: "{{ id }}"
            - await: body == id
              timeout: 2s
            - send: close 4001 done
            - hold: 1s
`
	src = strings.Replace(src, "        until: \"true\"\n", "", 1)
	src = strings.Replace(src, "      - sse: /api/v1/events?x={{ id }}\n", "      - sse: {url: \"/api/v1/events?x={{ id }}\", until: \"true\"}\n", 1)
	plan, err := yamlfile.Compile("streams.yaml", []byte(src), scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := surge.Run(context.Background(), plan, surge.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rows := endpointRows(res)
	if r := rows["ticks"]; r.Requests != 2 || r.Streams == nil || r.Streams.Events != 4 || r.Streams.DelayHistogram == "" {
		t.Fatalf("ticks %+v", r)
	}
	if r := rows["SSE /api/v1/events?x={{ id }}"]; r.Requests != 0 {
		t.Fatalf("the query is part of the row name: %v", rows)
	}
	if r := rows["SSE /api/v1/events"]; r.Requests != 2 || r.Streams.Events != 2 {
		t.Fatalf("until: %+v", r)
	}
	// The server closed the WebSocket with 4001 while it was held: the
	// step failed, the stream ended server_closed with that code.
	ws := rows["WS /api/v1/ws/echo"]
	if ws.Requests != 2 || ws.Streams == nil || ws.Streams.CloseCodes["4001"] != 2 || ws.Streams.Ends["server_closed"] != 2 {
		t.Fatalf("ws %+v, streams %+v", ws.Stats, ws.Streams)
	}
}

func TestExampleSSESubscribers(t *testing.T) {
	res := runExample(t, "sse-subscribers.yaml", fastDemo(t), scenario.Options{Users: 20, Duration: 2 * time.Second})
	rows := endpointRows(res)
	sub := rows["subscribe"]
	if sub.Requests < 20 || sub.Failures != 0 || sub.Streams == nil || sub.Streams.Opened < 20 || sub.Streams.Events == 0 || sub.Streams.DelayHistogram == "" {
		t.Fatalf("subscribe %+v, streams %+v", sub.Stats, sub.Streams)
	}
	if res.Totals.Streams.OpenMax < 10 {
		t.Fatalf("open streams at most %d", res.Totals.Streams.OpenMax)
	}
}

// TestStreamHeldUntilTheRunEnds holds streams with no end of their own: when
// the load stops they end as planned (held), at once, not after the grace
// period and not interrupted.
func TestStreamHeldUntilTheRunEnds(t *testing.T) {
	spec := &scenario.Spec{
		Target: fastDemo(t),
		Scenarios: []scenario.Scenario{{
			Name: "hold",
			Load: executor.Closed{Start: 3, Stages: []executor.Stage{{Duration: time.Second, Target: 3}}, Grace: 30 * time.Second},
			Flow: []scenario.Step{{SSE: &scenario.SSE{URL: "/api/v1/events"}}},
		}},
	}
	began := time.Now()
	res := runPlan(t, spec)
	if took := time.Since(began); took > 5*time.Second {
		t.Errorf("the run took %v: held streams waited for the 30 s grace period", took)
	}
	st := res.Totals.Streams
	if st == nil || st.Opened != 3 || st.Ends["held"] != 3 || st.Ends["interrupted"] != 0 || res.Totals.Failures != 0 {
		t.Fatalf("streams %+v, failures %d; want 3 opened and 3 held", st, res.Totals.Failures)
	}
}
