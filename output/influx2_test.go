package output_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/influxdata/line-protocol/v2/lineprotocol"

	"github.com/surge-load/surge"
	"github.com/surge-load/surge/output"
)

// TestInfluxDB2 writes to an InfluxDB 2.x write endpoint (a receiver in
// the test, since Debian ships 1.x): the path, org, bucket, precision and
// token are as InfluxDB 2 wants them, and the line protocol it decodes
// counts every request of the result once.
func TestInfluxDB2(t *testing.T) {
	t.Setenv("INFLUX_TOKEN", "tok3n")
	var mu sync.Mutex
	counts := map[string]int64{}
	var bad []string
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		mu.Lock()
		defer mu.Unlock()
		if r.URL.Path != "/api/v2/write" || q.Get("org") != "acme" || q.Get("bucket") != "load" || q.Get("precision") != "ms" ||
			r.Header.Get("Authorization") != "Token tok3n" {
			bad = append(bad, r.URL.String()+" "+r.Header.Get("Authorization"))
			http.Error(w, "bad write", http.StatusUnauthorized)
			return
		}
		b, _ := io.ReadAll(r.Body)
		dec := lineprotocol.NewDecoderWithBytes(b)
		for dec.Next() {
			m, err := dec.Measurement()
			if err != nil {
				bad = append(bad, err.Error())
				return
			}
			if string(m) != "surge_requests" {
				continue
			}
			var ep, st string
			for {
				k, v, err := dec.NextTag()
				if err != nil || k == nil {
					break
				}
				switch string(k) {
				case "endpoint":
					ep = string(v)
				case "status":
					st = string(v)
				}
			}
			for {
				k, v, err := dec.NextField()
				if err != nil || k == nil {
					break
				}
				if string(k) == "count" {
					counts[ep+" "+st] += v.IntV()
				}
			}
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	defer recv.Close()
	tg := startTarget(t, 0)
	plan := twoEndpoints(t, tg.URL, 50, 2*time.Second)
	plan.Outputs = []*output.Output{mustParse(t, "influxdb="+recv.URL+"/api/v2/write?org=acme&bucket=load")}
	res, err := surge.Run(context.Background(), plan, surge.Options{})
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(bad) > 0 {
		t.Fatalf("writes refused: %q", bad)
	}
	got := map[string]float64{}
	for k, n := range counts {
		got[k] = float64(n)
	}
	equalCounts(t, "influxdb 2", got, want(res))
	if o := res.Outputs[0]; o.Dropped != 0 || o.Sent != o.Points {
		t.Errorf("output %+v", o)
	}
	if _, err := output.Parse("influxdb=" + recv.URL + "/api/v2/write?org=acme"); err == nil {
		t.Error("a 2.x URL without a bucket was accepted")
	}
}
