package search_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/surge-load/surge/internal/leaktest"
	"github.com/surge-load/surge/search"
)

// The steps of a search leave no connections open: after stepping through
// 10, 20 and 40 users the process has the descriptors it started with.
func TestSearchStepsDoNotLeakConnections(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	t.Cleanup(srv.Close)
	base := leaktest.OpenFDs(t)
	cfg := shortSearch(search.Users, singleURL(srv.URL, search.Users), 10)
	cfg.Max, cfg.Step, cfg.Warmup = 40, time.Second, 0
	res, err := search.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(res.Capacity.Steps); n < 2 {
		t.Fatalf("%d steps", n)
	}
	if n := leaktest.SettledFDs(t, base+10); n > base+10 {
		t.Errorf("%d open file descriptors after %d steps, %d before: the steps' connections were left open", n, len(res.Capacity.Steps), base)
	}
}
