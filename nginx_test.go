package surge_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/surge-load/surge"
	"github.com/surge-load/surge/executor"
	"github.com/surge-load/surge/internal/servertest"
	"github.com/surge-load/surge/protocol/httpc"
)

// nginx is a real nginx from Debian's packages, on a loopback port, whose
// access log records the status of every request it saw.
type nginx struct {
	url string
	log string
}

const nginxConf = `
worker_processes 2;
daemon off;
%s
pid %[2]s/nginx.pid;
error_log %[2]s/error.log warn;
events { worker_connections 4096; }
http {
    log_format counting '$status $request_method $uri';
    access_log %[2]s/access.log counting;
    client_body_temp_path %[2]s/body;
    proxy_temp_path %[2]s/proxy;
    fastcgi_temp_path %[2]s/fastcgi;
    uwsgi_temp_path %[2]s/uwsgi;
    scgi_temp_path %[2]s/scgi;
    keepalive_requests 100000;
    server {
        listen 127.0.0.1:%[3]d;
        location = /ok      { return 200 "ok\n"; }
        location = /missing { return 404; }
        location = /broken  { return 503; }
        location = /post    { client_body_buffer_size 64k; return 201; }
    }
}
`

// startNginx starts nginx, or skips the test where nginx is not installed
// (unless SURGE_REQUIRE_NGINX is set, as CI sets it).
func startNginx(t *testing.T) *nginx {
	t.Helper()
	bin := servertest.Require(t, "/usr/sbin/nginx", "nginx", "SURGE_REQUIRE_NGINX")
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	port := servertest.FreePort(t)
	user := ""
	if os.Geteuid() == 0 {
		user = "user root;"
	}
	conf := filepath.Join(dir, "nginx.conf")
	if err := os.WriteFile(conf, []byte(fmt.Sprintf(nginxConf, user, dir, port)), 0o644); err != nil {
		t.Fatal(err)
	}
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	servertest.Start(t, exec.Command(bin, "-p", dir, "-c", conf, "-e", filepath.Join(dir, "error.log")), servertest.Listening(addr))
	return &nginx{url: "http://" + addr, log: filepath.Join(dir, "access.log")}
}

// counts reads the access log: requests by "status method uri".
func (n *nginx) counts(t *testing.T) map[string]int64 {
	t.Helper()
	f, err := os.Open(n.log)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m := map[string]int64{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		m[strings.TrimSpace(sc.Text())]++
	}
	return m
}

// TestCountsMatchNginxAccessLog runs surge against nginx under both load
// models and checks that the requests and statuses surge reports are
// exactly what nginx logged. What a busy machine changes is left out of
// it: the open model's arrivals are all accounted for (sent, or dropped
// for want of a free user), and the timeouts and grace are long enough that
// no request is cut short, which nginx would log as 499.
func TestCountsMatchNginxAccessLog(t *testing.T) {
	ng := startNginx(t)
	const patience = time.Minute
	runs := []struct {
		path   string
		method string
		load   executor.Load
		status string
	}{
		{"/ok", "GET", executor.Open{StartRate: 200, Stages: []executor.Stage{{Duration: 2 * time.Second, Target: 200}}, MaxUsers: 100, Grace: patience}, "200"},
		{"/missing", "GET", executor.Closed{Start: 8, Stages: []executor.Stage{{Duration: time.Second, Target: 8}}, Grace: patience}, "404"},
		{"/broken", "GET", executor.Open{StartRate: 150, Stages: []executor.Stage{{Duration: time.Second, Target: 150}}, MaxUsers: 50, Grace: patience}, "503"},
		{"/post", "POST", executor.Closed{Start: 0, Stages: []executor.Stage{{Duration: 500 * time.Millisecond, Target: 6}, {Duration: 500 * time.Millisecond, Target: 0}}, Grace: patience}, "201"},
	}
	want := map[string]int64{}
	for _, r := range runs {
		plan, err := surge.SingleURL(surge.Request{
			Method: r.method, URL: ng.url + r.path, Body: []byte(strings.Repeat("x", 300)),
			HTTP: httpc.Options{Timeout: patience},
		}, r.load, nil)
		if err != nil {
			t.Fatal(err)
		}
		res, err := surge.Run(context.Background(), plan, surge.Options{})
		if err != nil {
			t.Fatal(err)
		}
		ep := res.Endpoints[0]
		if ep.Requests == 0 {
			t.Fatalf("%s: no requests", r.path)
		}
		if got := ep.Statuses[r.status]; got != ep.Requests {
			t.Errorf("%s: %d of %d requests had status %s: %+v, errors %+v", r.path, got, ep.Requests, r.status, ep.Statuses, res.Errors)
		}
		if o, ok := r.load.(executor.Open); ok {
			if wantN := int64(o.StartRate * o.Stages[0].Duration.Seconds()); ep.Requests+res.Totals.Dropped != wantN {
				t.Errorf("%s: open model sent %d requests and dropped %d, schedule has %d", r.path, ep.Requests, res.Totals.Dropped, wantN)
			}
		}
		for code, n := range ep.Statuses {
			want[code+" "+r.method+" "+r.path] += n
		}
	}
	// nginx writes each log line when the request completes; give the last
	// ones a moment.
	var got map[string]int64
	for i := 0; i < 50; i++ {
		got = ng.counts(t)
		if fmt.Sprint(got) == fmt.Sprint(want) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("nginx logged %v\nsurge reported %v", got, want)
	}
	var total int64
	for _, n := range got {
		total += n
	}
	t.Logf("nginx and surge agree on %d requests: %v", total, got)
}
