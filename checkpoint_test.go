package surge

import (
	"context"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/surge-load/surge/executor"
	"github.com/surge-load/surge/result"
)

// Checkpoints arrive during the run, each incomplete and covering more than
// the last, with the counts of the intervals they cover; the final result
// is complete and holds at least as much as the last checkpoint.
func TestRunCheckpoints(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer srv.Close()
	load := executor.Closed{Start: 2, Stages: []executor.Stage{{Duration: 1500 * time.Millisecond, Target: 2}},
		Think: func(*rand.Rand) time.Duration { return 5 * time.Millisecond }}
	plan, err := SingleURL(Request{Method: "GET", URL: srv.URL}, load, nil)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var cps []*result.Result
	res, err := Run(context.Background(), plan, Options{
		CheckpointEvery: 200 * time.Millisecond,
		Checkpoint: func(r *result.Result) {
			mu.Lock()
			cps = append(cps, r)
			mu.Unlock()
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(cps) < 2 {
		t.Fatalf("%d checkpoints in a 1.5s run at every 200ms", len(cps))
	}
	prev := 0.0
	for i, c := range cps {
		var n int64
		for _, p := range c.Series {
			n += p.Requests
		}
		if !c.Run.Incomplete || c.Run.CoveredS < prev || c.Run.ID != res.Run.ID || n != c.Totals.Requests {
			t.Errorf("checkpoint %d: run %+v, %d requests in the series, %d in the totals", i, c.Run, n, c.Totals.Requests)
		}
		prev = c.Run.CoveredS
	}
	last := cps[len(cps)-1]
	if res.Run.Incomplete || res.Totals.Requests < last.Totals.Requests || last.Totals.Requests == 0 {
		t.Errorf("final %+v with %d requests; last checkpoint %d", res.Run, res.Totals.Requests, last.Totals.Requests)
	}
}
