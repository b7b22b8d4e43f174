package k8s_test

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/surge-load/surge/k8s"
)

// plan writes a scenario file naming a CSV file in a subdirectory and a
// JSONL file beside it, with users users, and returns its path.
func plan(t *testing.T, users int) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "data"), 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"data/accounts.csv": "email,password\na@example.com,x\nb@example.com,y\n",
		"events.jsonl":      "{\"kind\": \"a\"}\n{\"kind\": \"b\"}\n",
		"Load Test.yaml": `target: http://api.example.com
data:
  accounts: {csv: data/accounts.csv}
  events: {jsonl: events.jsonl}
scenarios:
  browse:
    load: {users: ` + strconv.Itoa(users) + `, duration: 1m}
    flow:
      - get: /users/{{ pick(accounts).email }}
`,
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, "Load Test.yaml")
}

func TestManifests(t *testing.T) {
	file := plan(t, 300)
	m, err := k8s.Build(file, k8s.Options{Parallelism: 3, Image: "registry.example.com/surge:0.1", Namespace: "load"})
	if err != nil {
		t.Fatal(err)
	}
	stream, err := m.YAML()
	if err != nil {
		t.Fatal(err)
	}
	d, err := k8s.ParseYAML(stream)
	if err != nil {
		t.Fatalf("the stream does not read back strictly: %v\n%s", err, stream)
	}
	runners, collector := *d.Runners, *d.Collector
	if runners.Labels["app.kubernetes.io/component"] != "runner" || collector.Labels["app.kubernetes.io/component"] != "collector" {
		t.Errorf("components: runners %q, collector %q", runners.Labels["app.kubernetes.io/component"], collector.Labels["app.kubernetes.io/component"])
	}
	spec := runners.Spec
	if spec.CompletionMode == nil || *spec.CompletionMode != batchv1.IndexedCompletion {
		t.Errorf("runners' completion mode %v, want Indexed", spec.CompletionMode)
	}
	if *spec.Completions != 3 || *spec.Parallelism != 3 {
		t.Errorf("completions %d, parallelism %d; want 3 and 3", *spec.Completions, *spec.Parallelism)
	}
	pod := spec.Template.Spec
	runner := pod.Containers[0]
	wantCmd := []string{"surge", "run", "/plan/Load Test.yaml", "--segment", "$(JOB_COMPLETION_INDEX)/3", "--collector", "http://surge-load-test-collector:7070"}
	if !slices.Equal(runner.Command, wantCmd) {
		t.Errorf("runner command %q, want %q", runner.Command, wantCmd)
	}
	env := map[string]corev1.EnvVar{}
	for _, e := range runner.Env {
		env[e.Name] = e
	}
	if e := env["JOB_COMPLETION_INDEX"]; e.ValueFrom == nil || e.ValueFrom.FieldRef.FieldPath != "metadata.annotations['batch.kubernetes.io/job-completion-index']" {
		t.Errorf("JOB_COMPLETION_INDEX = %+v, want the pod's completion index", e)
	}
	if e := env["SURGE_TOKEN"]; e.ValueFrom == nil || e.ValueFrom.SecretKeyRef.Name != d.Token.Name || d.Token.StringData[e.ValueFrom.SecretKeyRef.Key] == "" {
		t.Errorf("SURGE_TOKEN = %+v, want the Secret's token", e)
	}
	if c := collector.Spec.Template.Spec.Containers[0]; !slices.Equal(c.Command[:6], []string{"surge", "collect", "--listen", ":7070", "--parts", "3"}) || c.Env[0].ValueFrom.SecretKeyRef.Name != d.Token.Name {
		t.Errorf("collector command %q, env %+v", c.Command, c.Env)
	}
	if *collector.Spec.Completions != 1 || collector.Spec.CompletionMode != nil {
		t.Errorf("collector job %+v, want one pod", collector.Spec)
	}

	// The ConfigMap holds every file the scenario names, mounted at its
	// path beside the scenario.
	src, _ := os.ReadFile(file)
	want := map[string]string{
		"Load Test.yaml":    string(src),
		"data/accounts.csv": "email,password\na@example.com,x\nb@example.com,y\n",
		"events.jsonl":      "{\"kind\": \"a\"}\n{\"kind\": \"b\"}\n",
	}
	vol := pod.Volumes[0].ConfigMap
	if vol.Name != d.Plan.Name || pod.Volumes[0].Name != runner.VolumeMounts[0].Name || runner.VolumeMounts[0].MountPath != "/plan" {
		t.Errorf("runners mount %+v from %+v; want the ConfigMap %s at /plan", runner.VolumeMounts, pod.Volumes, d.Plan.Name)
	}
	got := map[string]string{}
	for _, it := range vol.Items {
		got[it.Path] = d.Plan.Data[it.Key]
	}
	if !reflect.DeepEqual(got, want) || len(d.Plan.Data) != len(want) {
		t.Errorf("mounted files %q, want %q", got, want)
	}

	// The Service selects the collector's pod, on its port.
	labels := collector.Spec.Template.Labels
	for k, v := range d.Service.Spec.Selector {
		if labels[k] != v {
			t.Errorf("service selector %v does not match the collector pod's labels %v", d.Service.Spec.Selector, labels)
		}
	}
	for k, v := range d.Service.Spec.Selector {
		if runners.Spec.Template.Labels[k] != v {
			continue
		}
		if k == "app.kubernetes.io/component" {
			t.Errorf("service selector %v matches the runners too", d.Service.Spec.Selector)
		}
	}
	cc := collector.Spec.Template.Spec.Containers[0]
	if len(d.Service.Spec.Ports) != 2 || d.Service.Spec.Ports[1].Name != "ui" || d.Service.Spec.Ports[1].TargetPort.IntValue() != int(cc.Ports[1].ContainerPort) || !slices.Contains(cc.Command, "--ui") {
		t.Errorf("the live page: service ports %+v, container ports %+v, command %q", d.Service.Spec.Ports, cc.Ports, cc.Command)
	}
	if len(cc.Env) != 2 || cc.Env[1].Name != "SURGE_UI_TOKEN" || cc.Env[1].ValueFrom.SecretKeyRef.Name != d.Token.Name {
		t.Errorf("collector env %+v, want SURGE_TOKEN and SURGE_UI_TOKEN from the Secret", cc.Env)
	}
	port := d.Service.Spec.Ports[0]
	if cp := collector.Spec.Template.Spec.Containers[0].Ports[0]; port.TargetPort.IntValue() != int(cp.ContainerPort) || port.Port != 7070 || d.Service.Name != "surge-load-test-collector" {
		t.Errorf("service %s port %+v, collector container port %+v", d.Service.Name, port, cp)
	}

	// One runner per node, memory for its 100 users' connections.
	aa := pod.Affinity.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution
	if len(aa) != 1 || aa[0].TopologyKey != "kubernetes.io/hostname" || !reflect.DeepEqual(aa[0].LabelSelector.MatchLabels, runners.Spec.Template.Labels) {
		t.Errorf("anti-affinity %+v, want the runners on different nodes", aa)
	}
	if mem := runner.Resources.Requests[corev1.ResourceMemory]; mem.Cmp(resource.MustParse("134272Ki")) != 0 {
		t.Errorf("memory request %s, want 128 MiB + 100 connections × 32 KiB", mem.String())
	}
	if _, ok := runner.Resources.Limits[corev1.ResourceCPU]; ok {
		t.Error("the runner has a CPU limit; throttling would be measured as the server's latency")
	}
	if pod.SecurityContext.Sysctls != nil {
		t.Errorf("sysctls %v for 100 connections a pod", pod.SecurityContext.Sysctls)
	}
	for _, j := range []batchv1.Job{runners, collector} {
		if j.Namespace != "load" || *j.Spec.BackoffLimit != 0 || j.Spec.Template.Spec.RestartPolicy != corev1.RestartPolicyNever {
			t.Errorf("job %s: namespace %q, backoff %d, restart %s", j.Name, j.Namespace, *j.Spec.BackoffLimit, j.Spec.Template.Spec.RestartPolicy)
		}
	}
}

// Past the default ephemeral port range a runner pod widens it, as the
// preflight advises; past the widest range more runners are needed.
func TestManifestsForManyConnections(t *testing.T) {
	m, err := k8s.Build(plan(t, 90000), k8s.Options{Parallelism: 2, Image: "surge", CollectorService: "coll"})
	if err != nil {
		t.Fatal(err)
	}
	pod := m.Runners.Spec.Template.Spec
	if s := pod.SecurityContext.Sysctls; len(s) != 1 || s[0].Name != "net.ipv4.ip_local_port_range" || s[0].Value != "1024 65535" {
		t.Errorf("sysctls %v for 45,000 connections a pod, want the widest port range", s)
	}
	if m.Service.Name != "coll" || m.Collector.Name != "coll" || !strings.HasSuffix(pod.Containers[0].Command[6], "//coll:7070") {
		t.Errorf("--collector-service: service %s, job %s, runner command %q", m.Service.Name, m.Collector.Name, pod.Containers[0].Command)
	}
	_, err = k8s.Build(plan(t, 200000), k8s.Options{Parallelism: 2, Image: "surge"})
	if err == nil || !strings.Contains(err.Error(), "--parallelism to at least 4") {
		t.Errorf("200,000 connections over 2 pods: %v, want to raise --parallelism to 4", err)
	}
}

func TestManifestsRefuse(t *testing.T) {
	dir := t.TempDir()
	outside := filepath.Join(dir, "plan.yaml")
	os.WriteFile(outside, []byte("target: http://x\ndata:\n  a: {csv: ../a.csv}\nscenarios:\n  s:\n    load: {users: 1, duration: 1s}\n    flow: [{get: /}]\n"), 0o644)
	os.WriteFile(filepath.Join(filepath.Dir(dir), "a.csv"), []byte("x\n1\n"), 0o644)
	cases := []struct {
		file string
		o    k8s.Options
		want string
	}{
		{plan(t, 1), k8s.Options{Image: "surge"}, "parallelism 0"},
		{plan(t, 1), k8s.Options{Parallelism: 1}, "image is required"},
		{plan(t, 1), k8s.Options{Parallelism: 1, Image: "surge", CollectorService: "Bad_Name"}, "DNS label"},
		{outside, k8s.Options{Parallelism: 1, Image: "surge"}, "is outside the directories"},
	}
	for _, c := range cases {
		if _, err := k8s.Build(c.file, c.o); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.o, err, c.want)
		}
	}
}

// TestParseYAMLRefuses: a stream with a field the API does not have, an
// object twice or one missing does not read back.
func TestParseYAMLRefuses(t *testing.T) {
	m, err := k8s.Build(plan(t, 300), k8s.Options{Parallelism: 2, Image: "surge:test"})
	if err != nil {
		t.Fatal(err)
	}
	stream, err := m.YAML()
	if err != nil {
		t.Fatal(err)
	}
	docs := strings.Split(string(stream), "\n---\n")
	for _, c := range []struct {
		name, stream, says string
	}{
		{"unknown field", strings.Replace(string(stream), "kind: Service", "kind: Service\nreplicas: 3", 1), "unknown field"},
		{"twice", string(stream) + "\n---\n" + docs[0], "a second Secret"},
		{"missing", strings.Join(docs[1:], "\n---\n"), "the stream has no Secret"},
		{"other kind", string(stream) + "\n---\nkind: Pod\n", `kind "Pod"`},
	} {
		if _, err := k8s.ParseYAML([]byte(c.stream)); err == nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s: %v, want an error saying %q", c.name, err, c.says)
		}
	}
}
