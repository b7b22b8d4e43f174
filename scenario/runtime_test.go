package scenario

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/surge-load/surge/errclass"
	"github.com/surge-load/surge/executor"
	"github.com/surge-load/surge/metrics"
	"github.com/surge-load/surge/result"
)

// server answers /status/N with status N and echoes the request in JSON;
// it logs the paths it sees.
type server struct {
	mu    sync.Mutex
	paths []string
}

// seen returns the requests received so far. The lock orders it after the
// handlers, which the race detector does not see the network do.
func (s *server) seen() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.paths)
}

func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	s.paths = append(s.paths, r.Method+" "+r.URL.RequestURI())
	s.mu.Unlock()
	w.Header().Set("X-Token", "tok-1")
	code := http.StatusOK
	fmt.Sscanf(r.URL.Path, "/status/%d", &code)
	if r.URL.Path == "/slow" {
		time.Sleep(30 * time.Millisecond)
	}
	w.WriteHeader(code)
	fmt.Fprintf(w, `{"path": %q, "body": %q, "ct": %q, "next": %d, "id": 5}`, r.URL.Path, body, r.Header.Get("Content-Type"), 3)
}

// runUser compiles spec against srv, runs the setup and iterations of one
// user of the first scenario, and returns the result.
func runUser(t *testing.T, spec *Spec, iterations int) (*result.Result, *vuser) {
	t.Helper()
	p, plan, err := compile(spec, Options{})
	if err != nil {
		t.Fatal(err)
	}
	rec := metrics.NewRecorder(1)
	start := time.Now()
	rec.Begin(start, nil)
	if _, err := plan.Setup(context.Background(), rec); err != nil {
		t.Fatal(err)
	}
	u := plan.Scenarios[0].Users(rec)(0).(*vuser)
	for i := range iterations {
		u.Iterate(context.Background(), executor.Iteration{N: int64(i), Intended: time.Now()})
	}
	rec.Finish(time.Now())
	_ = p
	return rec.Result(time.Second), u
}

func rows(res *result.Result) map[string]result.Stats {
	m := map[string]result.Stats{}
	for _, e := range res.Endpoints {
		m[e.Name] = e.Stats
	}
	return m
}

func TestFlow(t *testing.T) {
	s := &server{}
	srv := httptest.NewServer(s)
	defer srv.Close()
	spec := &Spec{
		Target:   srv.URL,
		Defaults: Defaults{Headers: map[string]string{"X-User": "{{ user }}"}},
		Pools:    map[string][]any{"ids": {1, 5}},
		Scenarios: []Scenario{{
			Name: "s", Load: Users(1, 0, time.Second),
			OnStart: []Step{{Request: &Request{Method: "POST", URL: "/login", Form: map[string]string{"u": "a b"}},
				Capture: map[string]string{"token": `headers["x-token"]`}}},
			Flow: []Step{
				{Set: map[string]string{"n": "0"}},
				{Repeat: 5, While: "n < 3", Steps: []Step{
					{Request: &Request{Method: "GET", URL: "/items", Query: map[string]string{"n": "{{ n }}", "t": "{{ token }}"}}, Name: "items",
						Expect:  &Expect{That: []string{"json.path == \"/items\""}, Contains: "next"},
						Capture: map[string]string{"n": "n + 1"}},
				}},
				{When: "n == 99", Request: &Request{Method: "GET", URL: "/never"}},
				{Sleep: Pause{Min: time.Millisecond}},
				{Request: &Request{Method: "DELETE", URL: "/status/404"}, Name: "gone", Expect: &Expect{Status: []int{404}},
					Remove: map[string]string{"ids": "json.id"}},
				{Request: &Request{Method: "PUT", URL: "/x", Body: "raw {{ n }}"}, Name: "raw",
					Expect: &Expect{That: []string{`json.body == "raw 3"`, `json.ct == ""`}}},
			},
		}},
	}
	res, u := runUser(t, spec, 1)
	r := rows(res)
	if r["POST /login"].Requests != 1 || r["items"].Requests != 3 || r["gone"].Failures != 0 || r["raw"].Failures != 0 || res.Totals.Failures != 0 {
		t.Errorf("rows %+v\nerrors %+v", r, res.Errors)
	}
	if u.Env["token"] != "tok-1" || u.Env["n"] != 3 {
		t.Errorf("variables %v", u.Env)
	}
	if got := u.p.pools["ids"].Values(); len(got) != 1 || got[0] != 1 {
		t.Errorf("pool after remove: %v", got)
	}
	want := []string{"POST /login", "GET /items?n=0&t=tok-1", "GET /items?n=1&t=tok-1", "GET /items?n=2&t=tok-1", "DELETE /status/404", "PUT /x"}
	if got := s.seen(); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("requests %q\nwant     %q", got, want)
	}
}

func TestFailures(t *testing.T) {
	srv := httptest.NewServer(&server{})
	defer srv.Close()
	step := func(name, url string, e *Expect) Step {
		return Step{Name: name, Request: &Request{Method: "GET", URL: url}, Expect: e}
	}
	cases := []struct {
		step  Step
		class errclass.Class
		msg   string
	}{
		{step("5xx", "/status/503", nil), errclass.HTTP5xx, "status 503"},
		{step("unexpected 4xx", "/status/409", &Expect{Status: []int{201}}), errclass.HTTP4xx, "expect status 201: status 409: {"},
		{step("unexpected 2xx", "/status/200", &Expect{Status: []int{201, 202}}), errclass.Check, "expect status [201, 202]: got 200"},
		{step("contains", "/", &Expect{Contains: "nope"}), errclass.Check, `expect the body to contain "nope"`},
		{step("slow", "/slow", &Expect{MaxDuration: time.Millisecond}), errclass.Check, "expect max_duration 1ms"},
		{step("that", "/", &Expect{That: []string{"json.next > 5"}}), errclass.Check, "expect json.next > 5: false"},
		{step("that error", "/", &Expect{That: []string{"json.next.x"}}), errclass.Check, "expect json.next.x"},
		{step("build", "/{{ pick(empty) }}", nil), errclass.NotSent, "pool empty is empty"},
		{Step{Set: map[string]string{"x": `int("abc")`}}, errclass.NotSent, `x: int("abc")`},
	}
	for _, c := range cases {
		spec := &Spec{Target: srv.URL, Pools: map[string][]any{"empty": nil},
			Scenarios: []Scenario{{Name: "s", Load: Users(1, 0, time.Second), Flow: []Step{c.step, {Request: &Request{Method: "GET", URL: "/after"}}}}}}
		res, _ := runUser(t, spec, 1)
		if len(res.Errors) != 1 || res.Errors[0].Class != string(c.class) || len(res.Errors[0].Samples) == 0 ||
			!strings.Contains(res.Errors[0].Samples[0].Example, c.msg) {
			t.Errorf("%s: errors %+v, want class %s with %q", c.step.Name, res.Errors, c.class, c.msg)
		}
		if rows(res)["GET /after"].Requests != 0 {
			t.Errorf("%s: the iteration went on after a failure", c.step.Name)
		}
	}
}

// A failed setup stops the run with its reason; OnStart runs again until
// it succeeds.
func TestSetupAndOnStart(t *testing.T) {
	srv := httptest.NewServer(&server{})
	defer srv.Close()
	spec := &Spec{Target: srv.URL, Setup: []Step{{Request: &Request{Method: "POST", URL: "/status/500"}}},
		Scenarios: []Scenario{{Name: "s", Load: Users(1, 0, time.Second), Flow: []Step{{Request: &Request{Method: "GET", URL: "/"}}}}}}
	_, plan, err := compile(spec, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := plan.Setup(context.Background(), metrics.NewRecorder(1)); err == nil || !strings.Contains(err.Error(), "setup[0]: POST") {
		t.Errorf("setup error %v", err)
	}

	spec = &Spec{Target: srv.URL, Scenarios: []Scenario{{Name: "s", Load: Users(1, 0, time.Second),
		OnStart: []Step{{Request: &Request{Method: "GET", URL: "/status/{{ iteration < 2 ? 500 : 200 }}"}, Name: "login"}},
		Flow:    []Step{{Request: &Request{Method: "GET", URL: "/"}, Name: "work"}}}}}
	res, _ := runUser(t, spec, 4)
	if r := rows(res); r["login"].Requests != 3 || r["login"].Failures != 2 || r["work"].Requests != 2 {
		t.Errorf("rows %+v", r)
	}
}

// The first request of an arrival's iteration counts its latency from the
// arrival's intended time; later ones, and every request of a looping
// user, from their own start.
func TestIntendedStart(t *testing.T) {
	srv := httptest.NewServer(&server{})
	defer srv.Close()
	spec := &Spec{Target: srv.URL, Scenarios: []Scenario{{Name: "s", Load: Users(1, 0, time.Second),
		Flow: []Step{{Name: "first", Request: &Request{Method: "GET", URL: "/"}}, {Name: "second", Request: &Request{Method: "GET", URL: "/"}}}}}}
	_, plan, err := compile(spec, Options{})
	if err != nil {
		t.Fatal(err)
	}
	rec := metrics.NewRecorder(1)
	rec.Begin(time.Now(), nil)
	u := plan.Scenarios[0].Users(rec)(0)
	u.Iterate(context.Background(), executor.Iteration{Intended: time.Now().Add(-time.Second), Arrival: true})
	u.Iterate(context.Background(), executor.Iteration{N: 1, Intended: time.Now().Add(-time.Second)})
	rec.Finish(time.Now())
	r := rows(rec.Result(time.Second))
	if r["first"].Requests != 2 || r["first"].Latency.Max < 1000 || r["first"].Latency.Min > 500 || r["second"].Latency.Max > 500 {
		t.Errorf("first latency %v..%vms, second up to %vms", r["first"].Latency.Min, r["first"].Latency.Max, r["second"].Latency.Max)
	}
}
