package search_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"
	"time"

	"github.com/surge-load/surge/search"
)

func openFDs(t *testing.T) int {
	t.Helper()
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skipf("no /proc/self/fd: %v", err)
	}
	return len(fds)
}

// The steps of a search leave no connections open: after stepping through
// 10, 20 and 40 users the process has the descriptors it started with.
func TestSearchStepsDoNotLeakConnections(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	t.Cleanup(srv.Close)
	base := openFDs(t)
	cfg := shortSearch(search.Users, singleURL(srv.URL, search.Users), 10)
	cfg.Max, cfg.Step, cfg.Warmup = 40, time.Second, 0
	res, err := search.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(res.Capacity.Steps); n < 2 {
		t.Fatalf("%d steps", n)
	}
	n := openFDs(t)
	for i := 0; i < 50 && n > base+10; i++ {
		time.Sleep(20 * time.Millisecond)
		n = openFDs(t)
	}
	if n > base+10 {
		t.Errorf("%d open file descriptors after %d steps, %d before: the steps' connections were left open", n, len(res.Capacity.Steps), base)
	}
}
