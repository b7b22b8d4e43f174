package surge_test

import (
	"context"
	"testing"
	"time"

	"github.com/surge-load/surge"
	"github.com/surge-load/surge/executor"
	"github.com/surge-load/surge/internal/servertest"
	"github.com/surge-load/surge/metrics"
)

// TestSingleURLIterationAllocatesNothing: an iteration of a single-URL
// user on a reused connection costs no allocation (the transport's own is
// TestPreparedGETAllocatesNothing), so that the generator makes no garbage
// per request for the collector to pay for in pauses. The server answers
// with canned bytes, allocating nothing itself.
func TestSingleURLIterationAllocatesNothing(t *testing.T) {
	addr := servertest.Canned(t, []byte("HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nok\n"))
	plan, err := surge.SingleURL(surge.Request{URL: "http://" + addr + "/"}, executor.Closed{Start: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	rec := metrics.NewRecorder(1)
	start := time.Now()
	rec.Begin(start, nil)
	u := plan.Scenarios[0].Users(rec)(0)
	defer u.(executor.Closer).Close()
	ctx := context.Background()
	u.Iterate(ctx, executor.Iteration{}) // dials
	if a := testing.AllocsPerRun(200, func() { u.Iterate(ctx, executor.Iteration{}) }); a != 0 {
		t.Errorf("%v allocations per iteration, want 0", a)
	}
	rec.Finish(time.Now())
	res := rec.Result(time.Since(start))
	if res.Totals.Requests != 202 || res.Totals.Failures != 0 {
		t.Errorf("%d requests recorded, %d failed; want 202 (a first, a warm-up and 200) and 0", res.Totals.Requests, res.Totals.Failures)
	}
}
