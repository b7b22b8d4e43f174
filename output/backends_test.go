package output_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/surge-load/surge/internal/servertest"
)

// startPrometheus starts Debian's prometheus on a loopback port with its
// data in a temporary directory, receiving remote write (and native
// histograms), and returns its base URL.
func startPrometheus(t *testing.T) string {
	return startPrometheusWith(t, "--enable-feature=native-histograms")
}

// startPrometheusWith starts prometheus as startPrometheus does, with
// extra flags instead of the native histograms.
func startPrometheusWith(t *testing.T, extra ...string) string {
	bin := servertest.Require(t, "/usr/bin/prometheus", "prometheus", "SURGE_REQUIRE_BACKENDS")
	dir := t.TempDir()
	cfg := filepath.Join(dir, "prometheus.yml")
	if err := os.WriteFile(cfg, []byte("global:\n  scrape_interval: 1m\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	base := fmt.Sprintf("http://127.0.0.1:%d", servertest.FreePort(t))
	args := append([]string{"--config.file=" + cfg, "--storage.tsdb.path=" + filepath.Join(dir, "data"),
		"--web.listen-address=" + base[len("http://"):], "--web.enable-remote-write-receiver"}, extra...)
	cmd := exec.Command(bin, args...)
	servertest.Start(t, cmd, servertest.Answers(base+"/-/ready"))
	return base
}

const influxConf = `
reporting-disabled = true
bind-address = "127.0.0.1:%d"
[meta]
  dir = "%[2]s/meta"
[data]
  dir = "%[2]s/data"
  wal-dir = "%[2]s/wal"
  query-log-enabled = false
[coordinator]
[retention]
  enabled = false
[shard-precreation]
  enabled = false
[monitor]
  store-enabled = false
[http]
  bind-address = "127.0.0.1:%[3]d"
  log-enabled = false
[[graphite]]
  enabled = false
[[collectd]]
  enabled = false
[[opentsdb]]
  enabled = false
[[udp]]
  enabled = false
[continuous_queries]
  enabled = false
`

// startInflux starts Debian's influxd (1.6) with every port on loopback
// and its data in a temporary directory, creates database db, and returns
// its base URL.
func startInflux(t *testing.T, db string) string {
	bin := servertest.Require(t, "/usr/bin/influxd", "influxdb", "SURGE_REQUIRE_BACKENDS")
	dir := t.TempDir()
	cfg := filepath.Join(dir, "influxdb.conf")
	port := servertest.FreePort(t)
	if err := os.WriteFile(cfg, []byte(fmt.Sprintf(influxConf, servertest.FreePort(t), dir, port)), 0o644); err != nil {
		t.Fatal(err)
	}
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	servertest.Start(t, exec.Command(bin, "-config", cfg), servertest.Answers(base+"/ping"))
	influxQuery(t, base, "", "CREATE DATABASE "+db)
	return base
}

// influxQuery runs an InfluxQL query and returns its first result's series.
func influxQuery(t *testing.T, base, db, q string) []influxSeries {
	t.Helper()
	resp, err := http.PostForm(base+"/query", url.Values{"q": {q}, "db": {db}})
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		Results []struct {
			Series []influxSeries `json:"series"`
			Error  string         `json:"error"`
		} `json:"results"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatal(err)
	}
	if len(out.Results) == 0 {
		return nil
	}
	if out.Results[0].Error != "" {
		t.Fatalf("influx %q: %s", q, out.Results[0].Error)
	}
	return out.Results[0].Series
}

type influxSeries struct {
	Tags    map[string]string `json:"tags"`
	Columns []string          `json:"columns"`
	Values  [][]any           `json:"values"`
}

// promQuery runs an instant PromQL query and returns its vector.
func promQuery(t *testing.T, base, q string) []promSample {
	t.Helper()
	resp, err := http.Get(base + "/api/v1/query?" + url.Values{"query": {q}}.Encode())
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var out struct {
		Status string `json:"status"`
		Error  string `json:"error"`
		Data   struct {
			Result []struct {
				Metric map[string]string `json:"metric"`
				Value  [2]any            `json:"value"`
			} `json:"result"`
		} `json:"data"`
	}
	if err := json.Unmarshal(b, &out); err != nil || out.Status != "success" {
		t.Fatalf("prometheus %q: %v %s", q, err, b)
	}
	var s []promSample
	for _, r := range out.Data.Result {
		v, _ := strconv.ParseFloat(r.Value[1].(string), 64)
		s = append(s, promSample{Labels: r.Metric, Value: v})
	}
	return s
}

type promSample struct {
	Labels map[string]string
	Value  float64
}

// target is a test server on loopback that counts what it saw: /ok
// answers 200, /flaky 503 on every third request and 200 otherwise.
type target struct {
	URL  string
	mu   sync.Mutex
	seen map[string]int64 // "path status"
}

func startTarget(t *testing.T, delay time.Duration) *target {
	tg := &target{seen: map[string]int64{}}
	var n int64
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(delay)
		code := http.StatusOK
		tg.mu.Lock()
		if r.URL.Path == "/flaky" {
			n++
			if n%3 == 0 {
				code = http.StatusServiceUnavailable
			}
		}
		tg.seen[fmt.Sprintf("%s %d", r.URL.Path, code)]++
		tg.mu.Unlock()
		w.WriteHeader(code)
		_, _ = io.WriteString(w, "ok\n")
	})
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: mux}
	go func() { _ = srv.Serve(l) }()
	t.Cleanup(func() { _ = srv.Shutdown(context.Background()) })
	tg.URL = "http://" + l.Addr().String()
	return tg
}
