package k8s_test

import (
	"bytes"
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
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

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

// decoded is the YAML stream decoded strictly into the k8s.io/api types.
type decoded struct {
	secret    corev1.Secret
	configMap corev1.ConfigMap
	service   corev1.Service
	jobs      map[string]batchv1.Job // by component
}

// decodeStrict splits the stream and decodes each document into the type
// its kind names, rejecting unknown fields.
func decodeStrict(t *testing.T, stream []byte) decoded {
	t.Helper()
	d := decoded{jobs: map[string]batchv1.Job{}}
	docs := bytes.Split(stream, []byte("\n---\n"))
	if len(docs) != 5 {
		t.Fatalf("%d documents, want 5:\n%s", len(docs), stream)
	}
	for _, doc := range docs {
		var tm metav1.TypeMeta
		if err := yaml.Unmarshal(doc, &tm); err != nil {
			t.Fatal(err)
		}
		var err error
		switch tm.Kind {
		case "Secret":
			err = yaml.UnmarshalStrict(doc, &d.secret)
		case "ConfigMap":
			err = yaml.UnmarshalStrict(doc, &d.configMap)
		case "Service":
			err = yaml.UnmarshalStrict(doc, &d.service)
		case "Job":
			var j batchv1.Job
			err = yaml.UnmarshalStrict(doc, &j)
			d.jobs[j.Labels["app.kubernetes.io/component"]] = j
		default:
			t.Fatalf("unexpected kind %q", tm.Kind)
		}
		if err != nil {
			t.Fatalf("%s does not decode strictly: %v\n%s", tm.Kind, err, doc)
		}
	}
	return d
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
	d := decodeStrict(t, stream)

	runners, collector := d.jobs["runner"], d.jobs["collector"]
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
	if e := env["SURGE_TOKEN"]; e.ValueFrom == nil || e.ValueFrom.SecretKeyRef.Name != d.secret.Name || d.secret.StringData[e.ValueFrom.SecretKeyRef.Key] == "" {
		t.Errorf("SURGE_TOKEN = %+v, want the Secret's token", e)
	}
	if c := collector.Spec.Template.Spec.Containers[0]; !slices.Equal(c.Command[:6], []string{"surge", "collect", "--listen", ":7070", "--parts", "3"}) || c.Env[0].ValueFrom.SecretKeyRef.Name != d.secret.Name {
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
	if vol.Name != d.configMap.Name || pod.Volumes[0].Name != runner.VolumeMounts[0].Name || runner.VolumeMounts[0].MountPath != "/plan" {
		t.Errorf("runners mount %+v from %+v; want the ConfigMap %s at /plan", runner.VolumeMounts, pod.Volumes, d.configMap.Name)
	}
	got := map[string]string{}
	for _, it := range vol.Items {
		got[it.Path] = d.configMap.Data[it.Key]
	}
	if !reflect.DeepEqual(got, want) || len(d.configMap.Data) != len(want) {
		t.Errorf("mounted files %q, want %q", got, want)
	}

	// The Service selects the collector's pod, on its port.
	labels := collector.Spec.Template.Labels
	for k, v := range d.service.Spec.Selector {
		if labels[k] != v {
			t.Errorf("service selector %v does not match the collector pod's labels %v", d.service.Spec.Selector, labels)
		}
	}
	for k, v := range d.service.Spec.Selector {
		if runners.Spec.Template.Labels[k] != v {
			continue
		}
		if k == "app.kubernetes.io/component" {
			t.Errorf("service selector %v matches the runners too", d.service.Spec.Selector)
		}
	}
	cc := collector.Spec.Template.Spec.Containers[0]
	if len(d.service.Spec.Ports) != 2 || d.service.Spec.Ports[1].Name != "ui" || d.service.Spec.Ports[1].TargetPort.IntValue() != int(cc.Ports[1].ContainerPort) || !slices.Contains(cc.Command, "--ui") {
		t.Errorf("the live page: service ports %+v, container ports %+v, command %q", d.service.Spec.Ports, cc.Ports, cc.Command)
	}
	if len(cc.Env) != 2 || cc.Env[1].Name != "SURGE_UI_TOKEN" || cc.Env[1].ValueFrom.SecretKeyRef.Name != d.secret.Name {
		t.Errorf("collector env %+v, want SURGE_TOKEN and SURGE_UI_TOKEN from the Secret", cc.Env)
	}
	port := d.service.Spec.Ports[0]
	if cp := collector.Spec.Template.Spec.Containers[0].Ports[0]; port.TargetPort.IntValue() != int(cp.ContainerPort) || port.Port != 7070 || d.service.Name != "surge-load-test-collector" {
		t.Errorf("service %s port %+v, collector container port %+v", d.service.Name, port, cp)
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
