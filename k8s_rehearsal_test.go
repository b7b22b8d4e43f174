package surge_test

import (
	"bytes"
	"debug/elf"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"

	"github.com/surge-load/surge/internal/servertest"
	"github.com/surge-load/surge/k8s"
	"github.com/surge-load/surge/result"
)

// rehearsalPlan is the scenario of the rehearsal: a setup whose capture
// every user needs (a segment that did not adopt it sends nothing), a data
// file, an open model, and a threshold that every segment alone fails
// (each sends a third of 60/s) and the whole passes.
const rehearsalPlan = `target: TARGET
data:
  accounts: {csv: data/accounts.csv}
setup:
  - post: /post
    name: create account
    expect: {status: 201}
    capture: {seed: status}
scenarios:
  api:
    load: {rate: 60, duration: 4s, max_users: 100, grace: 5s}
    flow:
      - get: "/ok?account={{ pick(accounts).name }}"
        name: ok
        when: seed == 201
        expect: {status: 200}
thresholds: ["rps>40", "errors<1%"]
`

// A cluster rehearses, on this machine, what Kubernetes does with the
// generated manifests: every container runs as a process with exactly its
// command and environment, after what kubelet and DNS would do — $(VAR)
// expanded from the container's env (JOB_COMPLETION_INDEX from the pod's
// index, SURGE_TOKEN from the Secret), ConfigMap and emptyDir volumes as
// directories at their mount paths, the image's PATH holding surge, and the
// Service's name resolving to loopback.
type cluster struct {
	t    *testing.T
	bin  string // the surge binary, built static as the Dockerfile builds it
	m    *k8s.Manifests
	root string // where the volumes are
}

func mustParseYAML(t *testing.T, stream []byte) *k8s.Manifests {
	t.Helper()
	m, err := k8s.ParseYAML(stream)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// A proc is one container running as a process.
type proc struct {
	cmd            *exec.Cmd
	stdout, stderr bytes.Buffer
	done           chan struct{}
	code           int
}

var varRef = regexp.MustCompile(`\$\(([A-Za-z_][A-Za-z0-9_]*)\)`)

// start runs pod index of job.
func (c *cluster) start(job *batchv1.Job, index int) *proc {
	t := c.t
	t.Helper()
	spec := job.Spec.Template.Spec
	ctr := spec.Containers[0]
	env := map[string]string{}
	var envList []string
	for _, e := range ctr.Env {
		v := e.Value
		switch {
		case e.ValueFrom == nil:
		case e.ValueFrom.FieldRef != nil && e.ValueFrom.FieldRef.FieldPath == "metadata.annotations['batch.kubernetes.io/job-completion-index']":
			v = strconv.Itoa(index)
		case e.ValueFrom.SecretKeyRef != nil && e.ValueFrom.SecretKeyRef.Name == c.m.Token.Name:
			v = c.m.Token.StringData[e.ValueFrom.SecretKeyRef.Key]
		default:
			t.Fatalf("env %s: a source the rehearsal does not know: %+v", e.Name, e.ValueFrom)
		}
		env[e.Name] = v
		envList = append(envList, e.Name+"="+v)
	}
	mounts := map[string]string{}
	for _, vm := range ctr.VolumeMounts {
		dir := filepath.Join(c.root, fmt.Sprintf("%s-%d", job.Name, index), vm.Name)
		for _, v := range spec.Volumes {
			if v.Name != vm.Name {
				continue
			}
			switch {
			case v.ConfigMap != nil && v.ConfigMap.Name == c.m.Plan.Name:
				for _, it := range v.ConfigMap.Items {
					p := filepath.Join(dir, filepath.FromSlash(it.Path))
					if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(p, []byte(c.m.Plan.Data[it.Key]), 0o644); err != nil {
						t.Fatal(err)
					}
				}
			case v.EmptyDir != nil:
				if err := os.MkdirAll(dir, 0o755); err != nil {
					t.Fatal(err)
				}
			default:
				t.Fatalf("volume %s: a kind the rehearsal does not know", v.Name)
			}
		}
		mounts[vm.MountPath] = dir
	}
	svc := fmt.Sprintf("http://%s:", c.m.Service.Name)
	var args []string
	for _, a := range ctr.Command {
		a = varRef.ReplaceAllStringFunc(a, func(ref string) string {
			if v, ok := env[ref[2:len(ref)-1]]; ok {
				return v
			}
			return ref
		})
		for mp, dir := range mounts {
			if a == mp || strings.HasPrefix(a, mp+"/") {
				a = dir + a[len(mp):]
			}
		}
		args = append(args, strings.Replace(a, svc, "http://127.0.0.1:", 1))
	}
	if args[0] != "surge" {
		t.Fatalf("container command %q does not start with surge", ctr.Command)
	}
	p := &proc{done: make(chan struct{})}
	p.cmd = exec.Command(c.bin, args[1:]...)
	p.cmd.Env = append([]string{"PATH=" + filepath.Dir(c.bin)}, envList...)
	p.cmd.Dir = c.root
	p.cmd.Stdout, p.cmd.Stderr = &p.stdout, &p.stderr
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		defer close(p.done)
		err := p.cmd.Wait()
		p.code = 0
		if ee, ok := err.(*exec.ExitError); ok {
			p.code = ee.ExitCode()
		} else if err != nil {
			p.code = -1
		}
	}()
	t.Cleanup(func() {
		select {
		case <-p.done:
		default:
			_ = p.cmd.Process.Kill()
			<-p.done
		}
	})
	return p
}

// wait waits at most d for p to exit and returns its exit code.
func (p *proc) wait(t *testing.T, what string, d time.Duration) int {
	t.Helper()
	select {
	case <-p.done:
		return p.code
	case <-time.After(d):
		t.Fatalf("%s did not exit within %v\nstdout:\n%s\nstderr:\n%s", what, d, &p.stdout, &p.stderr)
		return -1
	}
}

// buildStatic builds surge as the Dockerfile does, and checks that the
// binary is static: it has no program interpreter.
func buildStatic(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "surge")
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", bin, "./cmd/surge")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build surge: %v\n%s", err, out)
	}
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			t.Fatal("the surge binary is dynamically linked; the image has no libc")
		}
	}
	return bin
}

// newCluster writes the rehearsal's scenario against target, generates the
// manifests for parts runners and decodes them.
func newCluster(t *testing.T, bin, target string, parts int, o k8s.Options) *cluster {
	t.Helper()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "data"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "data", "accounts.csv"), []byte("name\nann\nbob\ncyd\n"), 0o644)
	file := filepath.Join(dir, "rehearsal.yaml")
	os.WriteFile(file, []byte(strings.Replace(rehearsalPlan, "TARGET", target, 1)), 0o644)
	o.Parallelism, o.Image, o.Port, o.UIPort = parts, "surge:rehearsal", servertest.FreePort(t), servertest.FreePort(t)
	built, err := k8s.Build(file, o)
	if err != nil {
		t.Fatal(err)
	}
	stream, err := built.YAML()
	if err != nil {
		t.Fatal(err)
	}
	return &cluster{t: t, bin: bin, m: mustParseYAML(t, stream), root: t.TempDir()}
}

// page fetches path from the collector's live page (--ui) with the token,
// and returns the body, or nil while the page is not up.
func (c *cluster) page(path string) []byte {
	req, _ := http.NewRequest("GET", fmt.Sprintf("http://127.0.0.1:%d%s", c.m.Service.Spec.Ports[1].Port, path), nil)
	req.Header.Set("Authorization", "Bearer "+c.m.Token.StringData["token"])
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return nil
	}
	return b
}

// pageRequests returns what the collector's live page counts so far: the
// requests of its status, and the sum of surge_requests_total in /metrics.
func (c *cluster) pageRequests() (status, counted int64, done bool) {
	var st struct {
		State    string
		Requests int64
	}
	if b := c.page("/api/status"); b != nil {
		_ = json.Unmarshal(b, &st)
	}
	for _, line := range strings.Split(string(c.page("/metrics")), "\n") {
		if strings.HasPrefix(line, "surge_requests_total{") {
			f := strings.Fields(line)
			n, _ := strconv.ParseFloat(f[len(f)-1], 64)
			counted += int64(n)
		}
	}
	return st.Requests, counted, st.State == "done"
}

// live fetches the collector's summed live points.
func (c *cluster) live() []result.Point {
	req, _ := http.NewRequest("GET", fmt.Sprintf("http://127.0.0.1:%d/v1/live", c.m.Service.Spec.Ports[0].Port), nil)
	req.Header.Set("Authorization", "Bearer "+c.m.Token.StringData["token"])
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil
	}
	defer resp.Body.Close()
	var ps []result.Point
	_ = json.NewDecoder(resp.Body).Decode(&ps)
	return ps
}

// merged fetches the merged result from the collector, as
// docs/kubernetes.md does (GET /v1/result with the token), which lets the
// lingering collector exit.
func (c *cluster) merged(t *testing.T, collector *proc) *result.Result {
	t.Helper()
	url := fmt.Sprintf("http://127.0.0.1:%d/v1/result", c.m.Service.Spec.Ports[0].Port)
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(200 * time.Millisecond) {
		req, _ := http.NewRequest("GET", url, nil)
		req.Header.Set("Authorization", "Bearer "+c.m.Token.StringData["token"])
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			var res result.Result
			err = json.NewDecoder(resp.Body).Decode(&res)
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK && err == nil {
				return &res
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no merged result at %s: %v\nstdout:\n%s\nstderr:\n%s", url, err, &collector.stdout, &collector.stderr)
		}
	}
}

func endpointStats(r *result.Result, name string) result.Stats {
	for _, e := range r.Endpoints {
		if e.Name == name {
			return e.Stats
		}
	}
	return result.Stats{}
}

// TestKubernetesRehearsal runs the generated manifests' containers on this
// machine against nginx: the merged result counts exactly what nginx logged
// and what one process running the whole plan counts; the setup ran once;
// thresholds are judged once, on the whole; the collector's live points are
// the sum of the runners'. Then a runner killed mid-run and one that never
// joins: the collector finishes within its bounded waits and names both.
func TestKubernetesRehearsal(t *testing.T) {
	if testing.Short() {
		t.Skip("builds surge and runs several processes")
	}
	ng := startNginx(t)
	bin := buildStatic(t)

	t.Run("split", func(t *testing.T) {
		const parts = 3
		c := newCluster(t, bin, ng.url, parts, k8s.Options{JoinWait: time.Minute, PartWait: 30 * time.Second})
		before := ng.counts(t)
		collector := c.start(c.m.Collector, 0)
		var runners []*proc
		for i := range parts {
			runners = append(runners, c.start(c.m.Runners, i))
		}
		// While the run goes on, the live points are the sum of all
		// runners: keep what the collector shows mid-run.
		var mid []result.Point
		var midStatus, midCounted int64
		for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
			if midStatus <= 81 || midCounted <= 81 {
				midStatus, midCounted, _ = c.pageRequests()
			}
			if ps := c.live(); len(ps) >= 4 && midStatus > 81 && midCounted > 81 {
				mid = ps
				break
			}
		}
		// One runner sends at most 81 (its 80 arrivals and the setup):
		// more, while they run, is the page counting them all.
		if midStatus <= 81 || midCounted <= 81 {
			t.Errorf("during the run the live page counted %d requests and /metrics %d: not more than one runner's", midStatus, midCounted)
		}
		for i, r := range runners {
			if code := r.wait(t, fmt.Sprintf("runner %d", i), 2*time.Minute); code != 0 {
				t.Errorf("runner %d exited %d, want 0 (thresholds are the collector's)\n%s\n%s", i, code, &r.stdout, &r.stderr)
			}
		}
		// Once the run is over, the page and /metrics count the whole.
		var status, counted int64
		for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
			var done bool
			if status, counted, done = c.pageRequests(); done {
				break
			}
		}
		res := c.merged(t, collector)
		if status != res.Totals.Requests || counted != res.Totals.Requests {
			t.Errorf("after the run the live page counts %d requests, /metrics %d; the merged result %d", status, counted, res.Totals.Requests)
		}
		if code := collector.wait(t, "collector", time.Minute); code != 0 {
			t.Fatalf("collector exited %d\nstdout:\n%s\nstderr:\n%s", code, &collector.stdout, &collector.stderr)
		}
		seen := diff(ng.counts(t), before)

		if len(res.Run.Missing) != 0 || res.Run.Segment.Count != parts {
			t.Errorf("merged run %+v, want all %d segments", res.Run, parts)
		}
		// Every arrival is sent or, on a machine too busy to keep a user
		// free, dropped and counted: 60/s × 4 s = 240 in all.
		if got, want := endpointStats(res, "ok").Requests, seen["200 GET /ok"]; got != want || got+res.Totals.Dropped != 240 {
			t.Errorf("merged ok requests %d (and %d dropped), nginx logged %d; want the same, and 60/s × 4s = 240 with the drops", got, res.Totals.Dropped, want)
		}
		if got, want := endpointStats(res, "create account").Requests, seen["201 POST /post"]; got != 1 || want != 1 {
			t.Errorf("the setup: merged %d, nginx logged %d; want it once for the whole split run", got, want)
		}
		if total := int64(len(seen)); res.Totals.Requests != sum(seen) || total != 2 {
			t.Errorf("merged %d requests, nginx logged %v", res.Totals.Requests, seen)
		}

		// Thresholds judged once, on the whole: rps>40 passes, though every
		// runner alone (20/s) judged it failed.
		if len(res.Thresholds) != 2 || !res.Thresholds[0].OK || res.Thresholds[0].Expr != "rps>40" || !res.Thresholds[1].OK {
			t.Errorf("merged thresholds %+v, want rps>40 and errors<1%% once each, passed", res.Thresholds)
		}
		for i, r := range runners {
			if !strings.Contains(r.stdout.String(), "FAIL  rps>40") || !strings.Contains(r.stdout.String(), "the collector judges the thresholds") {
				t.Errorf("runner %d's summary does not show its part failing rps>40 alone:\n%s", i, &r.stdout)
			}
		}

		// Mid-run, every second of the live view but the newest two (which
		// some runner may not have sent yet) was the sum of the runners'
		// seconds, as the merged series has it.
		if len(mid) < 4 {
			t.Fatalf("the collector showed %d live points during the run", len(mid))
		}
		for k, p := range mid[:len(mid)-2] {
			if want := res.Series[k].Requests; p.Requests != want {
				t.Errorf("live second %d showed %d requests mid-run; the runners' parts hold %d", k, p.Requests, want)
			}
		}
		// (The merged series sums the three parts, so the live seconds equal
		// to it are the sum of the three runners, however many requests a
		// busy machine let each send in a second.)

		// A single process running the same plan counts the same.
		before = ng.counts(t)
		single := filepath.Join(t.TempDir(), "single.json")
		out, err := exec.Command(bin, "run", filepath.Join(c.root, c.m.Runners.Name+"-0", "plan", "rehearsal.yaml"), "--quiet", "--out", single).CombinedOutput()
		if err != nil {
			t.Fatalf("single run: %v\n%s", err, out)
		}
		one, err := result.ReadFile(single)
		if err != nil {
			t.Fatal(err)
		}
		if endpointStats(one, "ok").Requests+one.Totals.Dropped != endpointStats(res, "ok").Requests+res.Totals.Dropped || sum(diff(ng.counts(t), before)) != one.Totals.Requests {
			t.Errorf("single process: %d requests (ok %d, %d dropped), nginx logged %d; split: %d (ok %d, %d dropped)",
				one.Totals.Requests, endpointStats(one, "ok").Requests, one.Totals.Dropped, sum(diff(ng.counts(t), before)), res.Totals.Requests, endpointStats(res, "ok").Requests, res.Totals.Dropped)
		}
	})

	t.Run("killed and never joined", func(t *testing.T) {
		const parts = 3
		joinWait, partWait := 8*time.Second, 4*time.Second
		c := newCluster(t, bin, ng.url, parts, k8s.Options{JoinWait: joinWait, PartWait: partWait})
		collector := c.start(c.m.Collector, 0)
		r0 := c.start(c.m.Runners, 0)
		r1 := c.start(c.m.Runners, 1)
		// Segment 2 never starts. Segment 1 is killed once the run is
		// under way.
		for deadline := time.Now().Add(joinWait + time.Minute); ; time.Sleep(100 * time.Millisecond) {
			if ps := c.live(); len(ps) >= 2 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("the run did not get going\n%s", &collector.stderr)
			}
		}
		if err := r1.cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		if code := r0.wait(t, "runner 0", time.Minute); code != 0 {
			t.Errorf("runner 0 exited %d\n%s", code, &r0.stderr)
		}
		// Bounded: the join wait, the plan (4s), its grace, the part wait,
		// with room for a busy machine.
		began := time.Now()
		res := c.merged(t, collector)
		if limit := joinWait + 4*time.Second + 5*time.Second + partWait + time.Minute; time.Since(began) > limit {
			t.Errorf("the merged result came after %v, past the collector's bounded waits", time.Since(began))
		}
		if code := collector.wait(t, "collector", time.Minute); code != 1 {
			t.Errorf("collector exited %d, want 1 for an incomplete result\n%s", code, &collector.stderr)
		}
		reasons := map[int]string{}
		for _, m := range res.Run.Missing {
			reasons[m.Index] = m.Reason
		}
		if len(reasons) != 2 || !strings.Contains(reasons[1], "stopped reporting") || !strings.Contains(reasons[2], "never joined") {
			t.Errorf("missing %+v, want segment 1 stopped reporting and segment 2 never joined", res.Run.Missing)
		}
		if got := endpointStats(res, "ok").Requests + res.Totals.Dropped; got != 80 {
			t.Errorf("merged ok requests and drops %d, want segment 0's 80 arrivals alone\n%s", got, &collector.stdout)
		}
		for _, want := range []string{"INCOMPLETE: segment 1 of 3", "INCOMPLETE: segment 2 of 3"} {
			if !strings.Contains(collector.stdout.String(), want) {
				t.Errorf("the collector's summary lacks %q:\n%s", want, &collector.stdout)
			}
		}
	})
}

func diff(after, before map[string]int64) map[string]int64 {
	d := map[string]int64{}
	for k, v := range after {
		if n := v - before[k]; n != 0 {
			d[k] = n
		}
	}
	return d
}

func sum(m map[string]int64) int64 {
	var n int64
	for _, v := range m {
		n += v
	}
	return n
}
