package scenario

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/surge-load/surge"
	"github.com/surge-load/surge/errclass"
	"github.com/surge-load/surge/result"
)

func runSpec(t *testing.T, spec *Spec) *result.Result {
	t.Helper()
	_, plan, err := compile(spec, Options{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := surge.Run(context.Background(), plan, surge.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// closedPort returns the URL of a loopback port nothing listens on.
func closedPort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return "http://" + addr
}

// A failure ends the iteration's requests, not its pacing: against a
// closed port, users whose flow sleeps 100 ms after the request send one
// request per 100 ms each, not a retry storm.
func TestFailureKeepsPacing(t *testing.T) {
	const users, sleep, hold = 5, 100 * time.Millisecond, time.Second
	spec := &Spec{Target: closedPort(t), Scenarios: []Scenario{{Name: "s", Load: Users(users, 0, hold),
		Flow: []Step{{Request: &Request{Method: "GET", URL: "/"}}, {Steps: []Step{{Sleep: Pause{Min: sleep}}}}, {Sleep: Pause{Min: sleep}}}}}}
	res := runSpec(t, spec)
	most := int64(users * (hold/(2*sleep) + 1))
	if res.Totals.Requests == 0 || res.Totals.Requests > most || res.Totals.Errors[string(errclass.ConnectRefused)] != res.Totals.Requests {
		t.Errorf("%d requests (%v); want 1 to %d refused, one per user per %v", res.Totals.Requests, res.Totals.Errors, most, 2*sleep)
	}
}

// on_failure: continue goes on past a failed step; the default stops the
// iteration's requests.
func TestOnFailureContinue(t *testing.T) {
	var after atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/after" {
			after.Add(1)
			return
		}
		w.WriteHeader(http.StatusInternalServerError)
	}))
	defer srv.Close()
	for _, c := range []struct {
		onFailure string
		want      int64
	}{{OnFailureContinue, 10}, {"", 0}} {
		after.Store(0)
		spec := &Spec{Target: srv.URL, Scenarios: []Scenario{{Name: "s", Load: Iterations(10, 2, 10*time.Second),
			Flow: []Step{{Request: &Request{Method: "GET", URL: "/fail"}, OnFailure: c.onFailure}, {Request: &Request{Method: "GET", URL: "/after"}}}}}}
		res := runSpec(t, spec)
		if after.Load() != c.want || rows(res)["GET /after"].Requests != c.want || rows(res)["GET /fail"].Failures != 10 {
			t.Errorf("on_failure %q: server saw %d requests to /after, the result %d; want %d", c.onFailure, after.Load(), rows(res)["GET /after"].Requests, c.want)
		}
	}
	if _, _, err := compile(&Spec{Target: srv.URL, Scenarios: []Scenario{{Name: "s", Load: Iterations(1, 1, time.Second),
		Flow: []Step{{Request: &Request{Method: "GET", URL: "/"}, OnFailure: "retry"}}}}}, Options{}); err == nil {
		t.Error("on_failure: retry compiled")
	}
}

// A request whose URL, built at run time, does not parse never reaches
// the wire: it is a not_sent failure, not a request.
func TestNotSentIsNotARequest(t *testing.T) {
	var seen atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { seen.Add(1) }))
	defer srv.Close()
	spec := &Spec{Target: srv.URL, Scenarios: []Scenario{{Name: "s", Load: Iterations(50, 2, 10*time.Second),
		Flow: []Step{{Request: &Request{Method: "GET", URL: "{{ 'http://[::1/x' }}"}}}}}}
	res := runSpec(t, spec)
	tot := res.Totals
	if seen.Load() != 0 || tot.Requests != 0 || tot.NotSent != 50 || tot.Errors[string(errclass.NotSent)] != 50 || tot.ErrorRate != 1 {
		t.Errorf("server saw %d; result: %d requests, %d not sent, errors %v, error rate %v; want 0, 0, 50, not_sent 50, 1",
			seen.Load(), tot.Requests, tot.NotSent, tot.Errors, tot.ErrorRate)
	}
	if len(res.Errors) != 1 || res.Errors[0].Class != string(errclass.NotSent) || len(res.Errors[0].Samples) == 0 {
		t.Errorf("errors %+v; want one not_sent class with its message", res.Errors)
	}
}
