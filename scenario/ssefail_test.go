package scenario

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/surge-load/surge/errclass"
	"github.com/surge-load/surge/result"
)

// sseFaults serves event streams that fail: /early sends one event and
// closes, /long sends a line over the parser's limit, /never never sends
// its headers.
func sseFaults(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/never" {
			<-r.Context().Done()
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		switch r.URL.Path {
		case "/early":
			fmt.Fprint(w, "data: one\n\n")
		case "/long":
			fmt.Fprintf(w, "data: %s\n\n", strings.Repeat("x", 1<<20+100))
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

func errorOf(res *result.Result, class errclass.Class) *result.ErrorStats {
	for i := range res.Errors {
		if res.Errors[i].Class == string(class) {
			return &res.Errors[i]
		}
	}
	return nil
}

// Streams that open and then fail are failures of their class, with their
// cause, in the error table, the error rate and the thresholds.
func TestStreamFailuresAreCounted(t *testing.T) {
	srv := sseFaults(t)
	for _, c := range []struct {
		path  string
		class errclass.Class
		msg   string
	}{{"/early", errclass.Closed, "the server closed the stream"}, {"/long", errclass.Other, "reading stream"}} {
		spec := &Spec{Target: srv.URL, Thresholds: []string{"errors<1%"}, Scenarios: []Scenario{{Name: "s", Load: Iterations(20, 2, 20*time.Second),
			Flow: []Step{{Name: "sub", SSE: &SSE{URL: c.path, Hold: 5 * time.Second}}}}}}
		res := runSpec(t, spec)
		row := rows(res)["sub"]
		e := errorOf(res, c.class)
		if row.Requests != 20 || row.Failures != 20 || res.Totals.ErrorRate != 1 || e == nil || e.Count != 20 ||
			len(e.Samples) == 0 || !strings.Contains(e.Samples[0].Message, c.msg) {
			t.Errorf("%s: %d requests, %d failures, error rate %v, errors %+v; want 20 failures of class %s saying %q",
				c.path, row.Requests, row.Failures, res.Totals.ErrorRate, res.Errors, c.class, c.msg)
		}
		if len(res.Thresholds) != 1 || res.Thresholds[0].OK {
			t.Errorf("%s: thresholds %+v; errors<1%% must fail", c.path, res.Thresholds)
		}
	}
}

// Subscriptions still waiting for their headers when the run ends are
// interrupted, not failures of another class.
func TestStreamsWaitingAtTheEndAreInterrupted(t *testing.T) {
	srv := sseFaults(t)
	spec := &Spec{Target: srv.URL, Scenarios: []Scenario{{Name: "s", Load: Users(3, 0, 500*time.Millisecond),
		Flow: []Step{{Name: "sub", SSE: &SSE{URL: "/never"}}}}}}
	res := runSpec(t, spec)
	e := errorOf(res, errclass.Interrupted)
	if e == nil || e.Count != 3 || len(res.Errors) != 1 {
		t.Errorf("errors %+v; want 3 interrupted and nothing else", res.Errors)
	}
}
