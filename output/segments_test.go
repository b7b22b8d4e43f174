package output_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/surge-load/surge"
	"github.com/surge-load/surge/executor"
	"github.com/surge-load/surge/output"
	"github.com/surge-load/surge/result"
)

// The segments of a split plan, streaming to one Prometheus and one
// InfluxDB, write series of their own (the segment label or tag): without
// it they wrote the same series, Prometheus refused one segment's samples
// as out of order and the counts did not add up to what the segments sent.
func TestSegmentsOnOneBackend(t *testing.T) {
	prom := startPrometheus(t)
	influx := startInflux(t, "surge")
	tg := startTarget(t, time.Millisecond)
	recv := newOTLPReceiver()
	otlpSrv := httptest.NewServer(recv)
	defer otlpSrv.Close()
	start := time.Now().Add(time.Second)
	results := make([]*result.Result, 2)
	dir := t.TempDir()
	var wg sync.WaitGroup
	for i := range results {
		plan := twoEndpoints(t, tg.URL, 100, 3*time.Second)
		plan.Outputs = []*output.Output{
			mustParse(t, "prometheus-rw="+prom+"/api/v1/write"),
			mustParse(t, "influxdb="+influx+"/write?db=surge"),
			mustParse(t, fmt.Sprintf("jsonl=%s/%d.jsonl", dir, i)),
			mustParse(t, "otlp="+otlpSrv.URL),
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := surge.Run(context.Background(), plan, surge.Options{StartAt: start, Segment: executor.Segment{Index: i, Count: 2}})
			if err != nil {
				t.Error(err)
				return
			}
			results[i] = res
		}()
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	wantCounts := map[string]float64{}
	for _, res := range results {
		for k, n := range want(res) {
			wantCounts[k] += n
		}
		for _, o := range res.Outputs {
			if o.Dropped != 0 || o.Sent != o.Points || o.Points == 0 {
				t.Errorf("segment %d, output %s: %+v, want every point sent", res.Run.Segment.Index, o.Kind, o)
			}
		}
	}

	got := map[string]float64{}
	segments := map[string]bool{}
	for _, s := range promQuery(t, prom, "surge_requests_total") {
		got[s.Labels["endpoint"]+" "+s.Labels["status"]] += s.Value
		segments[s.Labels["segment"]] = true
	}
	equalCounts(t, "prometheus", got, wantCounts)
	if !segments["0/2"] || !segments["1/2"] || len(segments) != 2 {
		t.Errorf("prometheus series of segments %v; want 0/2 and 1/2", segments)
	}

	got = map[string]float64{}
	for _, s := range influxQuery(t, influx, "surge", `SELECT sum("count") FROM surge_requests GROUP BY endpoint, status, segment`) {
		got[s.Tags["endpoint"]+" "+s.Tags["status"]] += s.Values[0][1].(float64)
	}
	equalCounts(t, "influxdb", got, wantCounts)

	recv.mu.Lock()
	equalCounts(t, "otlp", recv.requests, wantCounts)
	if !recv.segments["0/2"] || !recv.segments["1/2"] || len(recv.segments) != 2 {
		t.Errorf("otlp data points of segments %v; want 0/2 and 1/2", recv.segments)
	}
	recv.mu.Unlock()

	// The dashboard's virtual users are the segments' together, not the
	// largest segment's.
	var perSegment float64
	for _, s := range influxQuery(t, influx, "surge", `SELECT max("users") FROM surge_run GROUP BY segment`) {
		perSegment += s.Values[0][1].(float64)
	}
	var dashboard float64
	for _, q := range dashboardTargets(t, "grafana-influxdb.json", map[string]string{"/^$scenario$/": "/.*/", "/^$endpoint$/": "/.*/", "$timeFilter": "time > now() - 1h", "$__interval": "1s"})["Load: virtual users"] {
		for _, s := range influxQuery(t, influx, "surge", q) {
			for _, v := range s.Values {
				if f, ok := v[1].(float64); ok {
					dashboard = max(dashboard, f)
				}
			}
		}
	}
	if perSegment == 0 || dashboard != perSegment {
		t.Errorf("the InfluxDB dashboard shows at most %v users; the segments had %v together", dashboard, perSegment)
	}

	// Each segment's JSON lines say which segment they are.
	for i := range results {
		f, err := os.Open(filepath.Join(dir, fmt.Sprintf("%d.jsonl", i)))
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			var l output.Line
			if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
				t.Fatal(err)
			}
			if want := fmt.Sprintf("%d/2", i); l.Segment != want {
				t.Fatalf("segment %d's line %s: segment %q, want %q", i, sc.Text(), l.Segment, want)
			}
		}
		f.Close()
	}
}
