package surge_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/surge-load/surge"
	"github.com/surge-load/surge/analysis"
	"github.com/surge-load/surge/executor"
	"github.com/surge-load/surge/internal/servertest"
	"github.com/surge-load/surge/monitor"
	"github.com/surge-load/surge/protocol/httpc"
)

// A monitored source that accepts connections and never answers does not
// change the achieved load: the open model sends every planned arrival, as
// without it, and the server saw exactly those; the source's gaps say why
// it has no samples. A threshold on it fails, saying it has no data. The
// pool of 100 users at 100/s drops an arrival only if every user is held
// for a second, as a source sampled on the load's path would hold them (it
// times out after its 1 s interval); a busy machine's delays are shorter.
func TestHungMonitorDoesNotSlowTheLoad(t *testing.T) {
	var served atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { served.Add(1) }))
	defer srv.Close()
	hungAddr, _ := servertest.Hold(t, nil) // accepts, never answers
	hung, err := monitor.Parse("app", "prometheus:http://"+hungAddr+"/metrics")
	if err != nil {
		t.Fatal(err)
	}
	th, err := analysis.ParseThreshold("app.m:app_pending.max<5")
	if err != nil {
		t.Fatal(err)
	}
	load := executor.Open{StartRate: 100, Stages: []executor.Stage{{Duration: 3 * time.Second, Target: 100}}, MaxUsers: 100, Grace: 30 * time.Second}
	for _, monitors := range [][]monitor.Spec{nil, {hung}} {
		served.Store(0)
		plan, err := surge.SingleURL(surge.Request{URL: srv.URL, HTTP: httpc.Options{Timeout: 30 * time.Second}}, load, nil)
		if err != nil {
			t.Fatal(err)
		}
		plan.Monitors = monitors
		if monitors != nil {
			plan.Thresholds = []analysis.Threshold{th}
		}
		res, err := surge.Run(context.Background(), plan, surge.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if res.Totals.Requests != 300 || res.Totals.Dropped != 0 || served.Load() != 300 {
			t.Errorf("with %d monitors: %d requests, %d dropped, server saw %d; want 300, 0, 300",
				len(monitors), res.Totals.Requests, res.Totals.Dropped, served.Load())
		}
		if monitors == nil {
			if res.Monitor != nil {
				t.Errorf("a run without monitors has a monitor section")
			}
			continue
		}
		src := res.Monitor.Source("app")
		if src == nil || len(src.T) != 0 || len(src.Gaps) == 0 {
			t.Fatalf("hung source: %+v", src)
		}
		if !strings.Contains(src.Gaps[0].Reason, "did not answer within its 1s interval") {
			t.Errorf("gap reason %q", src.Gaps[0].Reason)
		}
		if v := res.Thresholds[0]; v.OK || !strings.Contains(v.Note, "no data") {
			t.Errorf("threshold on a source without data: %+v", v)
		}
	}
}
