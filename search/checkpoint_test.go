package search_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/surge-load/surge/result"
	"github.com/surge-load/surge/search"
)

// Checkpoints come after every step, holding the steps finished so far,
// and during a step at Options.CheckpointEvery; each is incomplete, and
// the final result is complete and holds every step. The server's latency
// makes the throughput grow with the users (no plateau).
func TestSearchCheckpoints(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { time.Sleep(20 * time.Millisecond) }))
	defer srv.Close()
	cfg := shortSearch(search.Users, singleURL(srv.URL, search.Users), 1)
	cfg.Factor, cfg.Add, cfg.Max, cfg.NoConfirm = 0, 1, 3, true
	cfg.Step, cfg.Warmup = time.Second, 200*time.Millisecond
	cfg.Options.CheckpointEvery = 300 * time.Millisecond
	var cps []*result.Result // one call at a time, as Config.Checkpoint says
	cfg.Checkpoint = func(r *result.Result) { cps = append(cps, r) }
	res, err := search.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res.Run.Incomplete || res.Capacity == nil || len(res.Capacity.Steps) == 0 {
		t.Fatalf("final run %+v, capacity %+v", res.Run, res.Capacity)
	}
	afterStep, during, prev := 0, 0, 0
	for i, c := range cps {
		if !c.Run.Incomplete || c.Capacity == nil || c.Capacity.Verdict.Reason != result.ReasonInterrupted {
			t.Fatalf("checkpoint %d: run %+v, capacity %+v", i, c.Run, c.Capacity)
		}
		n := len(c.Capacity.Steps)
		if n < prev {
			t.Errorf("checkpoint %d holds %d steps, after one with %d", i, n, prev)
		}
		if n > prev {
			afterStep++
		} else {
			during++
		}
		for j, st := range c.Capacity.Steps {
			if f := res.Capacity.Steps[j]; st.Level != f.Level || st.Phase != f.Phase || st.Requests != f.Requests || st.OK != f.OK {
				t.Errorf("checkpoint %d, step %d: %+v, final %+v", i, j, st, res.Capacity.Steps[j])
			}
		}
		prev = n
	}
	if afterStep != len(res.Capacity.Steps) || during == 0 {
		t.Errorf("%d checkpoints after a step (want %d), %d during one (want some)", afterStep, len(res.Capacity.Steps), during)
	}
}
