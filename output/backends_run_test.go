package output_test

import (
	"context"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	colmetrics "go.opentelemetry.io/proto/otlp/collector/metrics/v1"
	"google.golang.org/protobuf/proto"

	"github.com/surge-load/surge"
	"github.com/surge-load/surge/executor"
	"github.com/surge-load/surge/output"
	"github.com/surge-load/surge/result"
)

// twoEndpoints is a plan of two scenarios, "a" on /ok and "b" on /flaky,
// each at rate arrivals per second for d.
func twoEndpoints(t *testing.T, base string, rate float64, d time.Duration) *surge.Plan {
	t.Helper()
	plan := &surge.Plan{Target: base}
	for _, sc := range []struct{ name, path string }{{"a", "/ok"}, {"b", "/flaky"}} {
		load := executor.Open{StartRate: rate, Stages: []executor.Stage{{Duration: d, Target: rate}}, MaxUsers: 50, Grace: 5 * time.Second}
		p, err := surge.SingleURL(surge.Request{URL: base + sc.path}, load, nil)
		if err != nil {
			t.Fatal(err)
		}
		s := p.Scenarios[0]
		s.Name = sc.name
		plan.Scenarios = append(plan.Scenarios, s)
	}
	return plan
}

func mustParse(t *testing.T, spec string) *output.Output {
	t.Helper()
	o, err := output.Parse(spec)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// want is the result's count of every (endpoint, status, class).
func want(res *result.Result) map[string]float64 {
	m := map[string]float64{}
	for _, ep := range res.Endpoints {
		for st, n := range ep.Statuses {
			m[ep.Name+" "+st] += float64(n)
		}
	}
	return m
}

// otlpReceiver decodes OTLP/HTTP metric exports and keeps the last value
// of every surge_requests_total series; requests sums them by endpoint
// and status over the segments that sent them.
type otlpReceiver struct {
	mu       sync.Mutex
	requests map[string]float64
	last     map[[2]string]float64 // by endpoint and status, and segment
	segments map[string]bool
	hist     map[string]uint64 // histogram counts by endpoint
	exports  int
}

func newOTLPReceiver() *otlpReceiver {
	return &otlpReceiver{requests: map[string]float64{}, last: map[[2]string]float64{}, segments: map[string]bool{}, hist: map[string]uint64{}}
}

func (o *otlpReceiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	var req colmetrics.ExportMetricsServiceRequest
	if r.URL.Path != "/v1/metrics" || r.Header.Get("Content-Type") != "application/x-protobuf" || proto.Unmarshal(b, &req) != nil {
		http.Error(w, "bad export", http.StatusBadRequest)
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	o.exports++
	for _, rm := range req.GetResourceMetrics() {
		for _, sm := range rm.GetScopeMetrics() {
			for _, m := range sm.GetMetrics() {
				switch m.GetName() {
				case "surge_requests_total":
					for _, p := range m.GetSum().GetDataPoints() {
						k, seg := attr(p.GetAttributes(), "endpoint")+" "+attr(p.GetAttributes(), "status"), attr(p.GetAttributes(), "segment")
						o.last[[2]string{k, seg}] = p.GetAsDouble()
						o.segments[seg] = true
						o.requests[k] = 0
						for key, v := range o.last {
							if key[0] == k {
								o.requests[k] += v
							}
						}
					}
				case "surge_request_duration_seconds":
					for _, p := range m.GetHistogram().GetDataPoints() {
						o.hist[attr(p.GetAttributes(), "endpoint")] = p.GetCount()
					}
				}
			}
		}
	}
	_, _ = w.Write(nil)
}

func attr(kvs []*commonKV, k string) string {
	for _, kv := range kvs {
		if kv.GetKey() == k {
			return kv.GetValue().GetStringValue()
		}
	}
	return ""
}

type commonKV = mpbKeyValue

// TestBackends runs a load with every output on at once against real
// backends, then reads each back: Prometheus (remote write) and InfluxDB
// 1.6 from Debian's packages, an OTLP/HTTP receiver decoding the protobuf,
// and the jsonl file. Counts per endpoint and status equal the result's
// exactly, and Prometheus's quantile from the exported histogram agrees
// with the result's within the histogram's precision.
func TestBackends(t *testing.T) {
	prom := startPrometheus(t)
	influx := startInflux(t, "surge")
	recv := newOTLPReceiver()
	otlpSrv := httptest.NewServer(recv)
	defer otlpSrv.Close()
	tg := startTarget(t, time.Millisecond)
	jsonlPath := filepath.Join(t.TempDir(), "points.jsonl")

	plan := twoEndpoints(t, tg.URL, 100, 3*time.Second)
	plan.Outputs = []*output.Output{
		mustParse(t, "prometheus-rw="+prom+"/api/v1/write"),
		mustParse(t, "influxdb="+influx+"/write?db=surge"),
		mustParse(t, "otlp="+otlpSrv.URL),
		mustParse(t, "jsonl="+jsonlPath),
	}
	res, err := surge.Run(context.Background(), plan, surge.Options{})
	if err != nil {
		t.Fatal(err)
	}
	wantCounts := want(res)
	if len(wantCounts) != 3 {
		t.Fatalf("result statuses %v: want /ok 200, /flaky 200 and 503", wantCounts)
	}
	// The server saw what the result says.
	for k, n := range wantCounts {
		i := strings.LastIndex(k, " ")
		ep, st := k[:i], k[i+1:]
		if got := tg.seen[strings.TrimPrefix(ep, "GET ")+" "+st]; float64(got) != n {
			t.Errorf("server saw %d of %s, result says %v", got, k, n)
		}
	}
	for _, o := range res.Outputs {
		if o.Dropped != 0 || o.Sent != o.Points || o.Points == 0 {
			t.Errorf("output %s: %+v, want every point sent", o.Kind, o)
		}
	}

	// Prometheus.
	got := map[string]float64{}
	for _, s := range promQuery(t, prom, "surge_requests_total") {
		got[s.Labels["endpoint"]+" "+s.Labels["status"]] += s.Value
		if s.Labels["scenario"] == "" {
			t.Errorf("series without a scenario: %v", s.Labels)
		}
	}
	equalCounts(t, "prometheus", got, wantCounts)
	for _, ep := range res.Endpoints {
		p95 := ep.Latency.P95 / 1000
		q := promQuery(t, prom, fmt.Sprintf(`histogram_quantile(0.95, surge_request_duration_seconds{endpoint=%q})`, ep.Name))
		if len(q) != 1 {
			t.Fatalf("native quantile of %s: %v", ep.Name, q)
		}
		// A native bucket spans a factor 2^(1/8); the estimate is inside
		// the bucket holding the result's p95.
		if r := q[0].Value / p95; r < 1/1.0905 || r > 1.0905 {
			t.Errorf("%s: Prometheus p95 %.6fs (native histogram), result %.6fs", ep.Name, q[0].Value, p95)
		}
		c := promQuery(t, prom, fmt.Sprintf(`histogram_quantile(0.95, sum by (le) (surge_request_duration_seconds_bucket{endpoint=%q}))`, ep.Name))
		if len(c) != 1 || !sameClassicBucket(c[0].Value, p95) {
			t.Errorf("%s: Prometheus p95 %v (classic buckets), result %.6fs: not in the same bucket", ep.Name, c, p95)
		}
	}

	// InfluxDB.
	got = map[string]float64{}
	for _, s := range influxQuery(t, influx, "surge", `SELECT sum("count") FROM surge_requests GROUP BY endpoint, status`) {
		got[s.Tags["endpoint"]+" "+s.Tags["status"]] += s.Values[0][1].(float64)
	}
	equalCounts(t, "influxdb", got, wantCounts)

	// The Grafana dashboards' queries work on what the outputs sent.
	checkDashboards(t, prom, influx)

	// OTLP.
	recv.mu.Lock()
	equalCounts(t, "otlp", recv.requests, wantCounts)
	for _, ep := range res.Endpoints {
		if recv.hist[ep.Name] != uint64(ep.Requests) {
			t.Errorf("otlp histogram count of %s: %d, result %d", ep.Name, recv.hist[ep.Name], ep.Requests)
		}
	}
	recv.mu.Unlock()

	// jsonl.
	got = map[string]float64{}
	for _, l := range readLines(t, jsonlPath) {
		for _, o := range l.Outcomes {
			got[l.Endpoint+" "+o.Status] += float64(o.Count)
		}
	}
	equalCounts(t, "jsonl", got, wantCounts)
}

func equalCounts(t *testing.T, who string, got, want map[string]float64) {
	t.Helper()
	keys := map[string]bool{}
	for k := range got {
		keys[k] = true
	}
	for k := range want {
		keys[k] = true
	}
	var ks []string
	for k := range keys {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	for _, k := range ks {
		if got[k] != want[k] {
			t.Errorf("%s: %s = %v, result says %v", who, k, got[k], want[k])
		}
	}
}

// sameClassicBucket reports whether a and b (seconds) fall in the same
// classic bucket of surge_request_duration_seconds.
func sameClassicBucket(a, b float64) bool {
	idx := func(v float64) int {
		for i, le := range classicBuckets {
			if v <= le*(1+1e-9) {
				return i
			}
		}
		return len(classicBuckets)
	}
	return idx(a) == idx(b) || math.Abs(a-b) < 1e-9
}
