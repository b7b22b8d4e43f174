package scenario

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/surge-load/surge/errclass"
)

// errorServer fails every request: /move with 409 and a body naming one of
// two causes with the ids involved, /kind with one of 30 causes.
func errorServer(t *testing.T) *httptest.Server {
	var n [3]atomic.Int64 // per path, so each path alternates its causes exactly
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		k := n[map[string]int{"/move": 0, "/move2": 1, "/kind": 2}[r.URL.Path]].Add(1)
		switch r.URL.Path {
		case "/move", "/move2":
			w.WriteHeader(http.StatusConflict)
			if k%2 == 0 {
				fmt.Fprintf(w, `{"error":"folder %d exceeds the maximum depth 16","request":"3f2b8c1e-9a4d-4e2f-8b1c-%012d"}`, 1000+k, k)
			} else {
				fmt.Fprintf(w, `{"error":"Deadlock found when trying to get lock; txn %d","request":"%d"}`, k*7, k)
			}
		case "/kind":
			w.WriteHeader(http.StatusUnprocessableEntity)
			fmt.Fprintf(w, `{"error":"rule %c broken by item %d"}`, 'A'+rune(k%30), k)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// Failures are grouped by the template of their message, counted per
// template and endpoint; error_key groups them by a field of the body.
func TestErrorMessagesGroupByTemplate(t *testing.T) {
	srv := errorServer(t)
	move := func(url, key string) Step {
		return Step{Name: url, Request: &Request{Method: "PATCH", URL: url}, ErrorKey: key, OnFailure: OnFailureContinue}
	}
	spec := &Spec{Target: srv.URL, Scenarios: []Scenario{{Name: "s", Load: Iterations(60, 2, 20*time.Second),
		Flow: []Step{move("/move", ""), move("/move2", "json.error"), move("/kind", "")}}}}
	res := runSpec(t, spec)
	e := errorOf(res, errclass.HTTP4xx)
	if e == nil || e.Count != 180 {
		t.Fatalf("errors %+v; want 180 http_4xx", res.Errors)
	}
	got := map[string]int64{}
	var sum int64
	for _, m := range e.Samples {
		got[m.Message] = m.Count
		sum += m.Count
		if m.Example == "" && m.Message != "(further distinct messages)" {
			t.Errorf("template %q has no example", m.Message)
		}
	}
	if sum != e.Count {
		t.Errorf("the templates count %d failures, the class %d", sum, e.Count)
	}
	for tmpl, want := range map[string]int64{
		`status 409: json.error = folder {n} exceeds the maximum depth {n}`:                       30,
		`status 409: json.error = Deadlock found when trying to get lock; txn {n}`:                30,
		`status 409: {"error":"folder {n} exceeds the maximum depth {n}","request":"{uuid}"}`:     30,
		`status 409: {"error":"Deadlock found when trying to get lock; txn {n}","request":"{n}"}`: 30,
	} {
		if got[tmpl] != want {
			t.Errorf("template %q counted %d, want %d", tmpl, got[tmpl], want)
		}
	}
	if len(e.Samples) != 21 || got["(further distinct messages)"] == 0 {
		t.Errorf("%d templates; want the top 20 and the rest counted together", len(e.Samples))
	}
	for _, m := range e.Samples {
		if strings.Contains(m.Message, "json.error") && (len(m.Endpoints) != 1 || m.Endpoints["/move2"] != m.Count) {
			t.Errorf("template %q: endpoints %v, want all at /move2", m.Message, m.Endpoints)
		}
	}
}
