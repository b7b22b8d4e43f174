package k8s

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/surge-load/surge/collect"
	"github.com/surge-load/surge/scenario"
	"github.com/surge-load/surge/scenario/yamlfile"
)

// Where the pods find things.
const (
	// PlanDir is where the ConfigMap is mounted in the runners.
	PlanDir = "/plan"
	// ResultsDir is where the collector writes the merged result and
	// report.
	ResultsDir = "/results"
	// IndexEnv is the environment variable in which an Indexed Job tells
	// each pod its index.
	IndexEnv = "JOB_COMPLETION_INDEX"
	// DefaultPort is the collector's port.
	DefaultPort = 7070
	// DefaultUIPort is the port of the collector's live page.
	DefaultUIPort = 8089
	// defaultJoinWait is the collector's barrier in a cluster, where pods
	// may wait for a node and pull the image first.
	defaultJoinWait = 5 * time.Minute
	// linger is how long the collector serves the merged result after the
	// run, for fetching it.
	linger = "1h"
	// uiTokenEnv holds the live page's token: the Secret's, as for the
	// runners.
	uiTokenEnv = "SURGE_UI_TOKEN"
	// nonRoot is the user the containers run as (the image's "nonroot").
	nonRoot = 65532
)

// Options say how to run a scenario file on Kubernetes.
type Options struct {
	// Parallelism is the number of runner pods, each one segment.
	Parallelism int
	// Image is the container image holding the surge binary on its PATH.
	Image string
	// Namespace, if not empty, is the namespace of every object; empty
	// means kubectl's current namespace.
	Namespace string
	// CollectorService names the collector's Service (and Job); empty
	// means NAME-collector, NAME from the scenario file's name.
	CollectorService string
	// Port is the collector's port, UIPort its live page's; zero means
	// DefaultPort and DefaultUIPort.
	Port, UIPort int
	// Token is the shared token put in the Secret; empty means a new
	// random one.
	Token string
	// JoinWait and PartWait are the collector's bounded waits (surge
	// collect --join-wait, --part-wait); zero means five minutes for the
	// pods to be scheduled and pull the image, and the collector's default
	// part wait.
	JoinWait, PartWait time.Duration
}

// Manifests are the objects to apply, in the order to apply them.
type Manifests struct {
	Token     *corev1.Secret
	Plan      *corev1.ConfigMap
	Service   *corev1.Service
	Collector *batchv1.Job
	Runners   *batchv1.Job
	// Warnings are things about the plan that run but are likely
	// mistakes in a cluster, such as a target on the pod's own loopback;
	// the CLI prints them on standard error.
	Warnings []string
}

// Build reads the scenario file at file, checks it, and returns the
// objects that run it split over o.Parallelism pods.
func Build(file string, o Options) (*Manifests, error) {
	if o.Parallelism < 1 {
		return nil, fmt.Errorf("parallelism %d: want at least 1 runner", o.Parallelism)
	}
	if strings.TrimSpace(o.Image) == "" {
		return nil, fmt.Errorf("an image is required: one holding the surge binary (see the Dockerfile)")
	}
	if o.Namespace != "" && !namespaceLabel.MatchString(o.Namespace) {
		return nil, fmt.Errorf("namespace %q: want a DNS label (lower-case letters, digits and '-', starting and ending with a letter or digit, at most 63), as kubectl get namespaces lists them", o.Namespace)
	}
	if o.Port == 0 {
		o.Port = DefaultPort
	}
	if o.UIPort == 0 {
		o.UIPort = DefaultUIPort
	}
	if o.Port < 1 || o.Port > 65535 || o.UIPort < 1 || o.UIPort > 65535 || o.Port == o.UIPort {
		return nil, fmt.Errorf("ports %d and %d: want two different TCP ports", o.Port, o.UIPort)
	}
	f, err := yamlfile.Open(file, scenario.Options{})
	if err != nil {
		return nil, err
	}
	plan, err := f.Compile(scenario.Options{})
	if err != nil {
		return nil, err
	}
	files, err := planFiles(f)
	if err != nil {
		return nil, err
	}
	name := objectName(strings.TrimSuffix(filepath.Base(file), filepath.Ext(file)))
	svc := o.CollectorService
	if svc == "" {
		svc = name + "-collector"
	}
	if !dnsLabel.MatchString(svc) {
		return nil, fmt.Errorf("collector service %q: want a DNS label (lower-case letters, digits and '-', at most 63)", svc)
	}
	if o.JoinWait < 0 || o.PartWait < 0 {
		return nil, fmt.Errorf("the collector's waits must not be negative")
	}
	if o.JoinWait == 0 {
		o.JoinWait = defaultJoinWait
	}
	if o.Token == "" {
		b := make([]byte, 16)
		_, _ = rand.Read(b)
		o.Token = hex.EncodeToString(b)
	}
	conns := 0
	for _, s := range plan.Scenarios {
		conns += s.Conns
	}
	perPod := (conns + o.Parallelism - 1) / o.Parallelism
	res, sysctls, err := runnerResources(perPod)
	if err != nil {
		return nil, fmt.Errorf("%w: raise --parallelism to at least %d", err, (conns+maxPortsPerPod-1)/maxPortsPerPod)
	}

	b := builder{o: o, name: name, svc: svc}
	m := &Manifests{
		Token:   b.secret(),
		Plan:    b.configMap(files),
		Service: b.service(),
	}
	m.Collector = b.collector()
	m.Runners = b.runners(files[0].Path, files, res, sysctls)
	m.Warnings = append(m.Warnings, loopbackWarnings(plan.Target, f.Spec)...)
	return m, nil
}

// dnsLabel is what Kubernetes accepts as the name of a Service (an RFC 1035
// label), and namespaceLabel as the name of a namespace (an RFC 1123 label,
// which may start with a digit).
var (
	dnsLabel       = regexp.MustCompile(`^[a-z]([-a-z0-9]{0,61}[a-z0-9])?$`)
	namespaceLabel = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$`)
)

// objectName turns a file's name into the start of the objects' names.
func objectName(stem string) string {
	var b strings.Builder
	b.WriteString("surge-")
	for _, r := range strings.ToLower(stem) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
		case b.Len() > 0 && !strings.HasSuffix(b.String(), "-"):
			b.WriteByte('-')
		}
	}
	// Leave room for "-collector" in a 63-character label.
	return strings.TrimRight(b.String()[:min(b.Len(), 40)], "-")
}

// builder makes the objects of one split run.
type builder struct {
	o         Options
	name, svc string
}

func (b *builder) meta(name, component string) metav1.ObjectMeta {
	return metav1.ObjectMeta{Name: name, Namespace: b.o.Namespace, Labels: b.labels(component)}
}

// labels mark the objects and pods of the run, by component.
func (b *builder) labels(component string) map[string]string {
	return map[string]string{
		"app.kubernetes.io/name":      "surge",
		"app.kubernetes.io/instance":  b.name,
		"app.kubernetes.io/component": component,
	}
}

func (b *builder) secretName() string { return b.name + "-token" }

func (b *builder) secret() *corev1.Secret {
	return &corev1.Secret{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "Secret"},
		ObjectMeta: b.meta(b.secretName(), "token"),
		Type:       corev1.SecretTypeOpaque,
		StringData: map[string]string{"token": b.o.Token},
	}
}

func (b *builder) configMap(files []File) *corev1.ConfigMap {
	cm := &corev1.ConfigMap{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
		ObjectMeta: b.meta(b.name+"-plan", "plan"),
	}
	for _, f := range files {
		if utf8.Valid(f.Data) {
			if cm.Data == nil {
				cm.Data = map[string]string{}
			}
			cm.Data[configMapKey(f.Path)] = string(f.Data)
			continue
		}
		if cm.BinaryData == nil {
			cm.BinaryData = map[string][]byte{}
		}
		cm.BinaryData[configMapKey(f.Path)] = f.Data
	}
	return cm
}

func (b *builder) service() *corev1.Service {
	return &corev1.Service{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "Service"},
		ObjectMeta: b.meta(b.svc, "collector"),
		Spec: corev1.ServiceSpec{
			Selector: b.labels("collector"),
			Ports: []corev1.ServicePort{
				{Name: "collect", Port: int32(b.o.Port), TargetPort: intstr.FromInt32(int32(b.o.Port)), Protocol: corev1.ProtocolTCP},
				{Name: "ui", Port: int32(b.o.UIPort), TargetPort: intstr.FromInt32(int32(b.o.UIPort)), Protocol: corev1.ProtocolTCP},
			},
		},
	}
}

// tokenEnv hands the Secret's token to a container in the variable name.
func (b *builder) tokenEnv(name string) corev1.EnvVar {
	return corev1.EnvVar{Name: name, ValueFrom: &corev1.EnvVarSource{
		SecretKeyRef: &corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: b.secretName()}, Key: "token"},
	}}
}

// CollectorURL is where the runners reach the collector: its Service.
func (m *Manifests) CollectorURL() string {
	return fmt.Sprintf("http://%s:%d", m.Service.Name, m.Service.Spec.Ports[0].Port)
}

func (b *builder) collector() *batchv1.Job {
	parts := strconv.Itoa(b.o.Parallelism)
	o := b.o
	c := corev1.Container{
		Name:  "collector",
		Image: b.o.Image,
		Command: []string{"surge", "collect",
			"--listen", fmt.Sprintf(":%d", b.o.Port),
			"--parts", parts,
			"--out", path.Join(ResultsDir, "merged.json"),
			"--report", path.Join(ResultsDir, "report.html"),
			"--join-wait", o.JoinWait.String(),
			"--ui", fmt.Sprintf(":%d", o.UIPort),
			"--linger", linger,
		},
		Env: []corev1.EnvVar{b.tokenEnv(collect.TokenEnv), b.tokenEnv(uiTokenEnv)},
		Ports: []corev1.ContainerPort{
			{Name: "collect", ContainerPort: int32(b.o.Port), Protocol: corev1.ProtocolTCP},
			{Name: "ui", ContainerPort: int32(o.UIPort), Protocol: corev1.ProtocolTCP},
		},
		VolumeMounts: []corev1.VolumeMount{{Name: "results", MountPath: ResultsDir}},
		Resources:    collectorResources(b.o.Parallelism),
	}
	if o.PartWait > 0 {
		c.Command = append(c.Command, "--part-wait", o.PartWait.String())
	}
	pod := corev1.PodSpec{
		RestartPolicy:   corev1.RestartPolicyNever,
		SecurityContext: nonRootContext(nil),
		Containers:      []corev1.Container{c},
		Volumes:         []corev1.Volume{{Name: "results", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}}},
	}
	return b.job(b.svc, "collector", pod, nil)
}

func (b *builder) runners(scenarioFile string, files []File, res corev1.ResourceRequirements, sysctls []corev1.Sysctl) *batchv1.Job {
	n := strconv.Itoa(b.o.Parallelism)
	var items []corev1.KeyToPath
	for _, f := range files {
		items = append(items, corev1.KeyToPath{Key: configMapKey(f.Path), Path: f.Path})
	}
	labels := b.labels("runner")
	c := corev1.Container{
		Name:  "runner",
		Image: b.o.Image,
		Command: []string{"surge", "run", path.Join(PlanDir, scenarioFile),
			"--segment", "$(" + IndexEnv + ")/" + n,
			"--collector", fmt.Sprintf("http://%s:%d", b.svc, b.o.Port),
		},
		Env: []corev1.EnvVar{
			{Name: IndexEnv, ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{
				FieldPath: "metadata.annotations['batch.kubernetes.io/job-completion-index']",
			}}},
			b.tokenEnv(collect.TokenEnv),
		},
		VolumeMounts: []corev1.VolumeMount{{Name: "plan", MountPath: PlanDir, ReadOnly: true}},
		Resources:    res,
	}
	pod := corev1.PodSpec{
		RestartPolicy:   corev1.RestartPolicyNever,
		SecurityContext: nonRootContext(sysctls),
		// One runner per node: runners sharing a machine distort each
		// other's results.
		Affinity: &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{
			RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{{
				LabelSelector: &metav1.LabelSelector{MatchLabels: labels},
				TopologyKey:   "kubernetes.io/hostname",
			}},
		}},
		Containers: []corev1.Container{c},
		Volumes: []corev1.Volume{{Name: "plan", VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{
			LocalObjectReference: corev1.LocalObjectReference{Name: b.name + "-plan"},
			Items:                items,
		}}}},
	}
	indexed := batchv1.IndexedCompletion
	return b.job(b.name+"-runner", "runner", pod, &indexed)
}

// job wraps pod in a Job that runs it once, with parallelism pods at once
// when mode is Indexed.
func (b *builder) job(name, component string, pod corev1.PodSpec, mode *batchv1.CompletionMode) *batchv1.Job {
	one, none := int32(1), int32(0)
	j := &batchv1.Job{
		TypeMeta:   metav1.TypeMeta{APIVersion: "batch/v1", Kind: "Job"},
		ObjectMeta: b.meta(name, component),
		Spec: batchv1.JobSpec{
			// A pod that fails is not started again: the collector names
			// its segment missing rather than take a second attempt that
			// joins too late.
			BackoffLimit: &none,
			Completions:  &one,
			Parallelism:  &one,
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: b.labels(component)},
				Spec:       pod,
			},
		},
	}
	if mode != nil {
		n := int32(b.o.Parallelism)
		j.Spec.CompletionMode = mode
		j.Spec.Completions, j.Spec.Parallelism = &n, &n
	}
	return j
}

func nonRootContext(sysctls []corev1.Sysctl) *corev1.PodSecurityContext {
	yes, user := true, int64(nonRoot)
	return &corev1.PodSecurityContext{RunAsNonRoot: &yes, RunAsUser: &user, RunAsGroup: &user, Sysctls: sysctls}
}
