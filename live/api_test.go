package live_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/surge-load/surge"
	"github.com/surge-load/surge/executor"
	"github.com/surge-load/surge/live"
	"github.com/surge-load/surge/result"
)

// TestAPISteersAClosedModel drives a closed-model run through the JSON
// API alone: a new number of users, hold and resume, a change in the
// wrong unit refused, then abort, which cancels the requests in flight.
// Every accepted change is in the result's timeline, in order.
func TestAPISteersAClosedModel(t *testing.T) {
	slow := make(chan struct{})
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-slow: // after the abort: answer at once
		case <-time.After(20 * time.Millisecond):
		case <-r.Context().Done():
		}
	}))
	defer target.Close()
	defer close(slow)
	load := executor.Closed{Start: 2, Stages: []executor.Stage{{Duration: time.Minute, Target: 2}}, Grace: 30 * time.Second}
	plan, err := surge.SingleURL(surge.Request{URL: target.URL + "/"}, load, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctl := surge.NewController()
	srv, err := live.New(live.Config{Addr: "127.0.0.1:0", Control: ctl, Planned: plan.Duration()})
	if err != nil {
		t.Fatal(err)
	}
	srv.Serve()
	defer srv.Close(time.Second)
	done := make(chan *result.Result, 1)
	go func() {
		res, err := surge.Run(context.Background(), plan, surge.Options{Control: ctl, Watch: srv.Watch})
		if err != nil {
			t.Error(err)
		}
		done <- res
	}()
	base := "http://" + srv.Addr()
	call := func(path, body string) (int, string) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, base+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+srv.Token())
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var m map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&m)
		msg, _ := m["error"].(string)
		return resp.StatusCode, msg
	}
	for !ctl.Running() {
		time.Sleep(10 * time.Millisecond)
	}
	if code, msg := call("/api/load", `{"rate": 10}`); code != http.StatusBadRequest || !strings.Contains(msg, "users") {
		t.Errorf("a rate for a closed model: %d %q, want 400 saying it counts users", code, msg)
	}
	for _, body := range []string{`{"users": 5}`, `{"hold": true}`, `{"resume": true}`} {
		if code, msg := call("/api/load", body); code != http.StatusOK {
			t.Fatalf("%s: %d %q", body, code, msg)
		}
	}
	if code, msg := call("/api/load", `{"resume": true}`); code != http.StatusConflict {
		t.Errorf("resume when nothing is held: %d %q, want 409", code, msg)
	}
	resp, err := http.Get(base + "/api/status")
	if err != nil {
		t.Fatal(err)
	}
	var st live.Status
	_ = json.NewDecoder(resp.Body).Decode(&st)
	resp.Body.Close()
	if len(st.Scenarios) != 1 || st.Scenarios[0].Unit != "users" {
		t.Errorf("status scenarios %+v", st.Scenarios)
	}
	if code, msg := call("/api/stop", `{"abort": true}`); code != http.StatusOK {
		t.Fatalf("abort: %d %q", code, msg)
	}
	var res *result.Result
	select {
	case res = <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("the run did not end after abort (its grace is 30 s)")
	}
	var kinds []string
	for _, e := range res.Timeline {
		kinds = append(kinds, e.Kind)
		if e.Kind == "load" && (e.Level != 5 || e.Unit != "users" || e.By != "the API") {
			t.Errorf("load event %+v", e)
		}
	}
	if strings.Join(kinds, " ") != "load hold resume abort" {
		t.Errorf("timeline %v, want load hold resume abort", kinds)
	}
	if !res.Run.Interrupted || !strings.Contains(res.Run.StopReason, "aborted") {
		t.Errorf("run %+v: want aborted", res.Run)
	}
	if code, _ := call("/api/stop", ""); code != http.StatusConflict {
		t.Errorf("stop after the run: %d, want 409", code)
	}
}
