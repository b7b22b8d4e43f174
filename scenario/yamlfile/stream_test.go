package yamlfile

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/surge-load/surge/scenario"
)

// goodStreams is a valid file with an sse and a ws step, that the bad
// cases below start from.
const goodStreams = `target: http://127.0.0.1:8080
scenarios:
  live:
    load: {users: 5, duration: 10s}
    flow:
      - sse:
          url: /api/v1/events
          hold: 30s
          until: json.seq > 3
          sent_at: json.sent_at
        capture: {id: event.id}
      - ws:
          url: /api/v1/ws/echo
          actions:
            - send: "{{ id }}"
            - await: body == id
              timeout: 2s
`

func TestStreamSteps(t *testing.T) {
	if err := compileString(goodStreams); err != nil {
		t.Fatalf("a good file: %v", err)
	}
	short := strings.Replace(goodStreams, "      - sse:\n          url: /api/v1/events\n", "      - sse: /api/v1/events\n", 1)
	short = strings.Replace(short, "          hold: 30s\n          until: json.seq > 3\n          sent_at: json.sent_at\n", "", 1)
	if err := compileString(short); err != nil {
		t.Fatalf("sse: URL: %v", err)
	}
	cases := []struct {
		name, old, new string
		want           string
	}{
		{"unknown sse key", "until:", "untl:", "9:11: unknown key \"untl\" in sse; did you mean until?"},
		{"bad hold", "hold: 30s", "hold: long", "8:17: hold must be a duration, not \"long\""},
		{"reconnect not a boolean", "hold: 30s", "reconnect: yes please", "8:22: reconnect must be true or false"},
		{"undefined name in until", "json.seq > 3", "json.seq > limit", "9:29: limit is not defined"},
		{"max_reconnects without reconnect", "hold: 30s", "max_reconnects: 3", "8:27: max_reconnects applies to reconnections, and reconnect is off; add reconnect: true"},
		{"bad unit", "sent_at: json.sent_at", "sent_at: json.sent_at\n          sent_at_unit: days", "11:25: \"days\" is not a unit of time; use ns, us, ms or s"},
		{"sse and a request", "      - sse:", "      - get: /x\n        sse:", "6:9: the step has a request and sse"},
		{"action doing two things", "            - send: \"{{ id }}\"", "            - send: \"{{ id }}\"\n              hold: 1s", "15:15: the action has send and hold"},
		{"timeout without await", "            - send: \"{{ id }}\"", "            - send: \"{{ id }}\"\n              timeout: 1s", "16:24: timeout applies to an await"},
		{"unknown action key", "await: body == id", "awai: body == id", "16:15: unknown key \"awai\" in a WebSocket action; did you mean await?"},
		{"event taken by a variable", "scenarios:", "vars: {event: 1}\nscenarios:", "7:9: event is a variable here"},
		{"no URL", "          url: /api/v1/ws/echo\n", "", "12:9: the step has no URL"},
		{"expect on an sse step", "        capture: {id: event.id}", "        capture: {id: event.id}\n        expect: {status: 200}", "12:9: expect applies to the response of a request"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if !strings.Contains(goodStreams, c.old) {
				t.Fatalf("the good file lacks %q", c.old)
			}
			err := compileString(strings.Replace(goodStreams, c.old, c.new, 1))
			var es scenario.Errors
			if !errors.As(err, &es) || len(es) == 0 {
				t.Fatalf("error %v; want %s", err, c.want)
			}
			e := es[0]
			got := fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg)
			if e.Fix != "" {
				got += "; " + e.Fix
			}
			if !strings.HasPrefix(got, c.want) {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
		})
	}
}
