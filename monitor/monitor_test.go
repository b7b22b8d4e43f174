package monitor

import (
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/surge-load/surge/internal/servertest"
	"github.com/surge-load/surge/result"
)

// watch samples specs for n intervals of iv and returns what was recorded,
// and the start of the timeline.
func watch(t *testing.T, n int, iv time.Duration, specs ...Spec) (*result.Monitor, time.Time) {
	t.Helper()
	for i := range specs {
		specs[i].Interval = iv
	}
	start := time.Now().Add(50 * time.Millisecond)
	m := Start(specs, start)
	time.Sleep(time.Until(start.Add(time.Duration(n)*iv + iv/2)))
	return m.Stop(), start
}

func mustParse(t *testing.T, name, spec string) Spec {
	t.Helper()
	s, err := Parse(name, spec)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// An exporter with exactly known values: a gauge at 42.5, a counter that
// grows by 7 per second of its own timestamps, and a histogram that gains
// 100 observations between 0.1 and 0.2 per scrape. Their figures come back
// exact.
func TestPrometheusExactValues(t *testing.T) {
	t0 := time.Now().UnixMilli()
	var scrapes atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := scrapes.Add(1)
		ms := time.Now().UnixMilli()
		w.Header().Set("Content-Type", "text/plain; version=0.0.4")
		fmt.Fprintf(w, "# TYPE app_pending gauge\napp_pending{pool=\"db\"} 42.5\n")
		fmt.Fprintf(w, "# TYPE app_jobs_total counter\napp_jobs_total %s %d\n", strconv.FormatFloat(7*float64(ms-t0)/1000, 'g', -1, 64), ms)
		fmt.Fprintf(w, "# TYPE app_wait_seconds histogram\n")
		fmt.Fprintf(w, "app_wait_seconds_bucket{le=\"0.1\"} 0\napp_wait_seconds_bucket{le=\"0.2\"} %d\napp_wait_seconds_bucket{le=\"+Inf\"} %d\n", 100*n, 100*n)
		fmt.Fprintf(w, "app_wait_seconds_sum %g\napp_wait_seconds_count %d\n", 15*float64(n), 100*n)
		fmt.Fprintf(w, "# TYPE other_metric gauge\nother_metric 1\n")
	}))
	defer srv.Close()
	res, _ := watch(t, 4, 250*time.Millisecond, mustParse(t, "app", "prometheus:"+srv.URL+" metrics=app_*"))
	src := res.Sources[0]
	if len(src.T) < 3 {
		t.Fatalf("only %d samples: %+v", len(src.T), src.Gaps)
	}
	exact := func(name string, want float64, from int) {
		t.Helper()
		vals := seriesOf(t, src, name)
		for i, v := range vals[from:] {
			if math.Abs(v-want) > 1e-9*math.Abs(want) {
				t.Errorf("%s[%d] = %v, want %v exactly", name, i+from, v, want)
			}
		}
	}
	exact(`m:app_pending{pool="db"}`, 42.5, 0)
	// The first sample is the counters' baseline: their rates start with
	// the second.
	exact("m:app_jobs_total", 7, 1)
	exact(`m:app_wait_seconds{quantile="0.5"}`, 0.15, 1)
	exact(`m:app_wait_seconds{quantile="0.95"}`, 0.195, 1)
	for _, s := range src.Series {
		if strings.Contains(s.Name, "other_metric") {
			t.Errorf("metrics=app_* kept %s", s.Name)
		}
	}
	if len(src.Gaps) != 0 {
		t.Errorf("gaps: %+v", src.Gaps)
	}
}

// Debian's prometheus-node-exporter, started on a loopback port: the
// machine's memory comes back exactly as /proc/meminfo says.
func TestNodeExporter(t *testing.T) {
	exe := servertest.Require(t, "/usr/bin/prometheus-node-exporter", "prometheus-node-exporter", "SURGE_REQUIRE_NODE_EXPORTER")
	addr := fmt.Sprintf("127.0.0.1:%d", servertest.FreePort(t))
	servertest.Start(t, exec.Command(exe, "--web.listen-address="+addr, "--collector.disable-defaults", "--collector.meminfo", "--collector.loadavg", "--collector.cpu"),
		servertest.Listening(addr))
	res, _ := watch(t, 3, 500*time.Millisecond, mustParse(t, "node", "prometheus:http://"+addr+"/metrics"))
	src := res.Sources[0]
	total := seriesOf(t, src, "m:node_memory_MemTotal_bytes")
	b, _ := os.ReadFile("/proc/meminfo")
	var kb float64
	fmt.Sscanf(strings.SplitN(string(b), "\n", 2)[0], "MemTotal: %g kB", &kb)
	for _, v := range total {
		if v != kb*1024 {
			t.Errorf("node_memory_MemTotal_bytes = %v, /proc/meminfo says %v", v, kb*1024)
		}
	}
	// CPU seconds are counters: they come back as per-second rates.
	var idle int
	for _, s := range src.Series {
		if strings.HasPrefix(s.Name, "m:node_cpu_seconds_total{") && strings.Contains(s.Name, `mode="idle"`) {
			idle++
			if s.Unit != "/s" {
				t.Errorf("%s has unit %q, want /s", s.Name, s.Unit)
			}
		}
	}
	if idle == 0 {
		t.Errorf("no node_cpu_seconds_total idle series")
	}
	seriesOf(t, src, "m:node_load1")
}

// The demo, run as a separate process, watched by PID and by name: CPU and
// memory agree with /proc read by the test over the same window.
func TestProcessAgreesWithProc(t *testing.T) {
	tag := fmt.Sprintf("demo-%d-%d", os.Getpid(), time.Now().UnixNano())
	c := startChild(t, "demo", tag)
	pid := c.Cmd.Process.Pid
	stop := make(chan struct{})
	wg := load(c.First+"/healthz", 2, stop)
	defer func() { close(stop); wg.Wait() }()

	const n, iv = 4, time.Second
	specs := []Spec{mustParse(t, "bypid", fmt.Sprintf("process:%d", pid)), mustParse(t, "byname", "process:"+tag)}
	for i := range specs {
		specs[i].Interval = iv
	}
	start := time.Now().Add(100 * time.Millisecond)
	m := Start(specs, start)
	time.Sleep(time.Until(start))
	cpu0 := procCPUSeconds(t, pid)
	time.Sleep(time.Until(start.Add(n * iv)))
	cpu1 := procCPUSeconds(t, pid)
	rss := procRSS(t, pid)
	time.Sleep(iv / 2)
	res := m.Stop()
	want := 100 * (cpu1 - cpu0) / (n * iv).Seconds()
	for _, src := range res.Sources {
		cpu := seriesOf(t, src, "cpu")
		if len(cpu) < n {
			t.Fatalf("%s: %d samples, want %d (gaps %+v)", src.Name, len(cpu), n, src.Gaps)
		}
		var sum float64
		for _, v := range cpu[:n] {
			sum += v
		}
		got := sum / n
		if want < 5 {
			t.Fatalf("the demo used only %.1f%% of a core under load; the comparison means nothing", want)
		}
		if math.Abs(got-want) > 0.1*want {
			t.Errorf("%s: cpu mean %.1f%%, /proc says %.1f%%", src.Name, got, want)
		}
		mem := seriesOf(t, src, "memory")
		if last := mem[n-1]; math.Abs(last-rss) > 0.1*rss {
			t.Errorf("%s: memory %.0f bytes, /proc says %.0f", src.Name, last, rss)
		}
		if p := seriesOf(t, src, "processes"); p[0] != 1 {
			t.Errorf("%s matched %v processes, want 1", src.Name, p[0])
		}
		if fds := seriesOf(t, src, "fds"); fds[0] < 3 {
			t.Errorf("%s: %v fds", src.Name, fds[0])
		}
		if est := seriesOf(t, src, "tcp_established"); est[0] < 1 {
			t.Errorf("%s: %v established connections under load", src.Name, est[0])
		}
		if src.CPULimitCores <= 0 || src.MemoryLimitBytes <= 0 {
			t.Errorf("%s: limits %v cores, %v bytes", src.Name, src.CPULimitCores, src.MemoryLimitBytes)
		}
	}
}

// A cgroup v2 child group created by the test, with a busy process in
// it: the cgroup's CPU agrees with the process's own, read from /proc.
func TestCgroup(t *testing.T) {
	root, err := cgroupRoot()
	if err != nil {
		t.Skipf("no cgroup v2 here: %v", err)
	}
	dir := filepath.Join(root, fmt.Sprintf("surge-test-%d", os.Getpid()))
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Skipf("cannot create a cgroup v2 child group under %s: %v", root, err)
	}
	defer os.Remove(dir)
	c := startChild(t, "spin", "spin")
	pid := c.Cmd.Process.Pid
	if err := os.WriteFile(filepath.Join(dir, "cgroup.procs"), []byte(fmt.Sprint(pid)), 0o644); err != nil {
		t.Skipf("cannot move a process into %s: %v", dir, err)
	}
	defer func() {
		c.Stop()
		os.WriteFile(filepath.Join(root, "cgroup.procs"), []byte(fmt.Sprint(pid)), 0o644)
	}()
	spec := mustParse(t, "box", "cgroup:"+filepath.Base(dir))
	spec.Interval = time.Second
	const n = 3
	start := time.Now().Add(100 * time.Millisecond)
	m := Start([]Spec{spec}, start)
	time.Sleep(time.Until(start))
	cpu0 := procCPUSeconds(t, pid)
	time.Sleep(time.Until(start.Add(n * time.Second)))
	cpu1 := procCPUSeconds(t, pid)
	time.Sleep(500 * time.Millisecond)
	src := m.Stop().Sources[0]
	want := 100 * (cpu1 - cpu0) / n
	cpu := seriesOf(t, src, "cpu")
	var sum float64
	for _, v := range cpu[:n] {
		sum += v
	}
	if got := sum / n; math.Abs(got-want) > 0.1*want {
		t.Errorf("cgroup cpu mean %.1f%%, its process used %.1f%% by /proc", got, want)
	}
	if _, err := os.Stat(filepath.Join(dir, "memory.current")); err != nil {
		if len(src.Notes) == 0 {
			t.Errorf("no memory controller, and no note saying so")
		}
		t.Logf("memory part skipped: %s", strings.Join(src.Notes, "; "))
	} else if mem := seriesOf(t, src, "memory"); mem[0] <= 0 {
		t.Errorf("memory %v", mem[0])
	}
}

// Sources that refuse, hang or are gone record gaps with the reason, and
// Stop does not wait for a hung one.
func TestGapsHaveReasons(t *testing.T) {
	refused := fmt.Sprintf("http://127.0.0.1:%d/metrics", servertest.FreePort(t))
	hungAddr, _ := servertest.Hold(t, nil) // accepts, never answers
	c := startChild(t, "spin", "gone")
	gone := mustParse(t, "gone", fmt.Sprintf("process:%d", c.Cmd.Process.Pid))
	c.Stop()
	res, _ := watch(t, 3, 300*time.Millisecond,
		mustParse(t, "refused", "prometheus:"+refused),
		mustParse(t, "hung", "prometheus:http://"+hungAddr+"/metrics"),
		gone,
		mustParse(t, "nobody", "process:no-such-process-"+fmt.Sprint(os.Getpid())))
	want := map[string]string{"refused": "connection refused", "hung": "did not answer within its 300ms interval",
		"gone": "is not running", "nobody": "no process matches"}
	for _, src := range res.Sources {
		if len(src.T) != 0 {
			t.Errorf("%s has %d samples", src.Name, len(src.T))
		}
		if len(src.Gaps) == 0 {
			t.Errorf("%s: no gaps", src.Name)
			continue
		}
		var total float64
		said := false
		for _, g := range src.Gaps {
			total += g.DurationS
			said = said || strings.Contains(g.Reason, want[src.Name])
			if !strings.Contains(g.Reason, want[src.Name]) && g.Reason != "did not answer by the end of the run" && !strings.Contains(g.Reason, "slower than its 300ms interval") {
				t.Errorf("%s: gap reason %q, want it to say %q", src.Name, g.Reason, want[src.Name])
			}
		}
		if !said {
			t.Errorf("%s: no gap says %q: %+v", src.Name, want[src.Name], src.Gaps)
		}
		if total < 0.3 {
			t.Errorf("%s: gaps cover %.1fs of 0.9s", src.Name, total)
		}
	}
}

func TestParse(t *testing.T) {
	for _, tc := range []struct{ name, spec, kind, err string }{
		{"api", "process:nginx", KindProcess, ""},
		{"api", "process:1234 interval=2s", KindProcess, ""},
		{"api", "process:surge demo --addr x", KindProcess, ""},
		{"h", "host", KindHost, ""},
		{"db", "prometheus:http://127.0.0.1:9187/metrics metrics=pg_*,hikari*", KindPrometheus, ""},
		{"x", "prometheus:ftp://a/b", "", "not an http(s) URL"},
		{"x", "process:", "", "give a process id or name"},
		{"x", "process:0", "", "not positive"},
		{"x", "host:foo", "", "takes no argument"},
		{"x", "nosuch:1", "", "unknown source"},
		{"1x", "host", "", "a name is"},
		{"x", "host interval=1ms", "", "interval="},
		{"x", "process:nginx metrics=a", "", "metrics= filters"},
		{"x", "cgroup:/nonexistent/dir", "", "not a cgroup v2 directory"},
	} {
		s, err := Parse(tc.name, tc.spec)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("Parse(%q, %q) = %v, want error with %q", tc.name, tc.spec, err, tc.err)
			}
			continue
		}
		if err != nil || s.Kind != tc.kind {
			t.Errorf("Parse(%q, %q) = %+v, %v", tc.name, tc.spec, s, err)
		}
	}
	s := mustParse(t, "api", "process:surge demo --addr x interval=500ms")
	if s.Match != "surge demo --addr x" || s.Interval != 500*time.Millisecond {
		t.Errorf("%+v", s)
	}
	if _, err := ParseFlag("nonsense"); err == nil {
		t.Error("ParseFlag without = passed")
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"process:nginx", "host", "prometheus:http://a/ metrics=x_*", "process:12 interval=2s", "cgroup:a/b", "container:abc"} {
		f.Add("name", s)
	}
	f.Fuzz(func(t *testing.T, name, spec string) {
		s, err := Parse(name, spec)
		if err == nil && (s.Kind == "" || s.Interval <= 0) {
			t.Errorf("Parse(%q, %q) = %+v without error", name, spec, s)
		}
	})
}

// FuzzDecode feeds any exposition to the scraper's decoding: it never
// panics, and every value it returns has a name.
func FuzzDecode(f *testing.F) {
	f.Add("# TYPE a counter\na 1 1000\n")
	f.Add("# TYPE h histogram\nh_bucket{le=\"0.1\"} 1\nh_bucket{le=\"+Inf\"} 2\nh_sum 0.3\nh_count 2\n")
	f.Add("# TYPE s summary\ns{quantile=\"0.5\"} 1\ns_sum 2\ns_count 3\ng{a=\"x\\\"y\"} NaN\n")
	f.Fuzz(func(t *testing.T, page string) {
		p := newPromSampler(Spec{Name: "x", Kind: KindPrometheus})
		for range 2 {
			rs, err := p.decode(strings.NewReader(page), "text/plain; version=0.0.4", 1000)
			if err != nil {
				return
			}
			for _, r := range rs {
				if !strings.HasPrefix(r.name, "m:") {
					t.Fatalf("reading %+v", r)
				}
			}
		}
	})
}
