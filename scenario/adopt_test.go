package scenario

import (
	"context"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/surge-load/surge/executor"
	"github.com/surge-load/surge/metrics"
)

// A setup's state travels: what one process's setup captured and put in
// the pools, another process's plan adopts without running the setup, and
// its users see the same values, ids as ints.
func TestSetupStateIsAdopted(t *testing.T) {
	srv := &server{}
	hs := httptest.NewServer(srv)
	defer hs.Close()
	spec := func() *Spec {
		return &Spec{Target: hs.URL, Pools: map[string][]any{"ids": {"seed"}, "empty": {}},
			Setup:     []Step{{Request: &Request{Method: "POST", URL: "/status/201"}, Capture: map[string]string{"tok": "json.path", "n": "json.id"}, Append: map[string]string{"ids": "json.id"}}},
			Scenarios: []Scenario{{Name: "s", Load: Users(1, 0, time.Second), Flow: []Step{{Request: &Request{Method: "GET", URL: "/{{ tok }}/{{ n + 1 }}"}}}}}}
	}
	_, first, err := compile(spec(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	state, err := first.Setup(context.Background(), metrics.NewRecorder(1))
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"vars":{"n":5,"tok":"/status/201"},"pools":{"empty":[],"ids":["seed",5]}}`; string(state) != want {
		t.Errorf("state %s, want %s", state, want)
	}

	p, second, err := compile(spec(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := second.Adopt(state); err != nil {
		t.Fatal(err)
	}
	rec := metrics.NewRecorder(1)
	rec.Begin(time.Now(), nil)
	u := second.Scenarios[0].Users(rec)(0).(*vuser)
	u.Iterate(context.Background(), executor.Iteration{Intended: time.Now()})
	rec.Finish(time.Now())
	if got := srv.seen(); len(got) != 2 || got[1] != "GET /%2Fstatus%2F201/6" {
		t.Errorf("paths %q: want the setup once, then the user with the adopted values", got)
	}
	if ids := p.pools["ids"].items; !slices.Equal(ids, []any{"seed", 5}) {
		t.Errorf("adopted pool %v, want [seed 5] with 5 an int", ids)
	}
	if err := second.Adopt([]byte(`{"vars":{},"pools":{}}`)); err == nil {
		t.Error("a state without the captures was adopted")
	}
}
