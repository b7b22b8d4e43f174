package output_test

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/surge-load/surge"
	"github.com/surge-load/surge/output"
)

// TestBackendDownOrSlow runs against an output whose backend is down and
// one that answers after 5 s: the load and the result are what the plan
// and the server say, the run ends within the flush bound, and the points
// the outputs could not deliver are counted as dropped.
func TestBackendDownOrSlow(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	down := "http://" + l.Addr().String()
	l.Close() // nothing listens there now
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(5 * time.Second):
		case <-r.Context().Done():
		}
	}))
	defer slow.Close()
	tg := startTarget(t, 0)

	plan := twoEndpoints(t, tg.URL, 50, 3*time.Second)
	plan.Outputs = []*output.Output{
		mustParse(t, "prometheus-rw="+down+"/api/v1/write"),
		mustParse(t, "influxdb="+slow.URL+"/write?db=surge"),
		mustParse(t, "otlp="+slow.URL),
		mustParse(t, "jsonl="+filepath.Join(t.TempDir(), "ok.jsonl")),
	}
	began := time.Now()
	res, err := surge.Run(context.Background(), plan, surge.Options{})
	if err != nil {
		t.Fatal(err)
	}
	took := time.Since(began)
	// The load is the plan's, exactly: 150 arrivals per scenario, none
	// dropped, all seen by the server.
	if res.Totals.Dropped != 0 {
		t.Errorf("%d arrivals dropped", res.Totals.Dropped)
	}
	for _, ep := range res.Endpoints {
		if ep.Requests != 150 {
			t.Errorf("%s: %d requests, the plan has 150", ep.Name, ep.Requests)
		}
	}
	tg.mu.Lock()
	var seen int64
	for _, n := range tg.seen {
		seen += n
	}
	tg.mu.Unlock()
	if seen != res.Totals.Requests {
		t.Errorf("server saw %d requests, result says %d", seen, res.Totals.Requests)
	}
	// The run's end waits for no backend beyond the flush bound.
	if limit := 3*time.Second + 2*surge.OutputFlush + 10*time.Second; took > limit {
		t.Errorf("run took %v, more than %v", took, limit)
	}
	byKind := map[string]int64{}
	for _, o := range res.Outputs {
		byKind[o.Kind] = o.Dropped
		if o.Dropped != o.DroppedQueue+o.DroppedFailed || o.Sent+o.Dropped != o.Points {
			t.Errorf("%s: counts do not add up: %+v", o.Kind, o)
		}
	}
	for _, k := range []string{output.KindPrometheusRW, output.KindInfluxDB, output.KindOTLP} {
		if byKind[k] == 0 {
			t.Errorf("%s: no points reported dropped: %+v", k, res.Outputs)
		}
	}
	if byKind[output.KindJSONL] != 0 {
		t.Errorf("jsonl dropped points: %+v", res.Outputs)
	}
}
