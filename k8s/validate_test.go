package k8s_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/surge-load/surge/k8s"
)

// planWithTarget writes a one-step scenario file aimed at target.
func planWithTarget(t *testing.T, target string) string {
	t.Helper()
	name := filepath.Join(t.TempDir(), "plan.yaml")
	src := "target: " + target + "\nscenarios:\n  s:\n    load: {users: 2, duration: 10s}\n    flow:\n      - get: /\n"
	if err := os.WriteFile(name, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return name
}

func TestNamespaceMustBeADNSLabel(t *testing.T) {
	file := planWithTarget(t, "http://api.example.com")
	// Kubernetes takes an RFC 1123 label, which may start with a digit.
	for _, ns := range []string{"1team", "0", "load-tests-2", strings.Repeat("a", 63)} {
		if _, err := k8s.Build(file, k8s.Options{Parallelism: 2, Image: "surge:test", Namespace: ns}); err != nil {
			t.Errorf("namespace %q: %v, want it accepted", ns, err)
		}
	}
	for _, ns := range []string{"Bad_NS", "-x", "x-", "has space", strings.Repeat("a", 64)} {
		_, err := k8s.Build(file, k8s.Options{Parallelism: 2, Image: "surge:test", Namespace: ns})
		if err == nil || !strings.Contains(err.Error(), "namespace") {
			t.Errorf("namespace %q: error %v, want one naming the namespace", ns, err)
		}
	}
	m, err := k8s.Build(file, k8s.Options{Parallelism: 2, Image: "surge:test", Namespace: "load-tests"})
	if err != nil {
		t.Fatal(err)
	}
	if m.Runners.Namespace != "load-tests" || m.Plan.Namespace != "load-tests" {
		t.Errorf("namespaces %q, %q; want load-tests", m.Runners.Namespace, m.Plan.Namespace)
	}
}

func TestLoopbackTargetIsWarned(t *testing.T) {
	for target, want := range map[string]bool{
		"http://127.0.0.1:8080":       true,
		"http://localhost:8080":       true,
		"http://[::1]:8080":           true,
		"http://127.3.2.1":            true,
		"http://api.default.svc:8080": false,
		"https://api.example.com":     false,
		"http://10.0.0.7:8080":        false,
		"http://notlocalhost.example": false,
	} {
		m, err := k8s.Build(planWithTarget(t, target), k8s.Options{Parallelism: 1, Image: "surge:test"})
		if err != nil {
			t.Fatalf("%s: %v", target, err)
		}
		got := len(m.Warnings) > 0 && strings.Contains(m.Warnings[0], "loopback")
		if got != want {
			t.Errorf("%s: warnings %q, want a loopback warning: %v", target, m.Warnings, want)
		}
	}
}

// A plan without a target whose steps name loopback in absolute URLs is
// warned about as a loopback target is, once for each host (a template in
// the path does not hide it); a step URL on another host, or one whose host
// is a template, is not.
func TestLoopbackStepURLIsWarned(t *testing.T) {
	name := filepath.Join(t.TempDir(), "plan.yaml")
	src := `scenarios:
  s:
    load: {users: 2, duration: 10s}
    flow:
      - get: http://127.0.0.1:8080/a
      - get: http://127.0.0.1:8080/b
      - get: https://api.example.com/c
      - get: "http://{{ env('HOST', '127.0.0.1') }}/d"
      - steps:
          - get: http://localhost:9090/e/{{ user }}
`
	if err := os.WriteFile(name, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := k8s.Build(name, k8s.Options{Parallelism: 1, Image: "surge:test"})
	if err != nil {
		t.Fatal(err)
	}
	var hosts []string
	for _, w := range m.Warnings {
		if strings.Contains(w, "loopback") {
			switch {
			case strings.Contains(w, "127.0.0.1:8080"):
				hosts = append(hosts, "127.0.0.1:8080")
			case strings.Contains(w, "localhost:9090"):
				hosts = append(hosts, "localhost:9090")
			default:
				t.Errorf("unexpected warning %q", w)
			}
		}
	}
	if strings.Join(hosts, " ") != "127.0.0.1:8080 localhost:9090" {
		t.Errorf("loopback warnings for %q, want one for 127.0.0.1:8080 and one for localhost:9090: %q", hosts, m.Warnings)
	}
}
