package k8s

import (
	"fmt"
	"net"
	"net/url"
	"strings"

	"github.com/surge-load/surge/scenario"
)

// loopbackWarnings says why the plan's target and the absolute URLs of
// its steps, where they name a loopback host, are unlikely to be what the
// user meant: inside a pod, loopback is the pod itself. It says it once for
// each host; a URL whose host is a template is not judged.
func loopbackWarnings(target string, spec *scenario.Spec) []string {
	var out []string
	seen := map[string]bool{}
	if host, ok := loopbackHost(target); ok {
		seen[host] = true
		out = append(out, fmt.Sprintf("target %s is on loopback: inside a pod that is the runner pod itself, not your service; name the service as the pods see it, such as http://api.default.svc.cluster.local:8080 in the scenario file's target:", target))
	}
	if spec == nil {
		return out
	}
	var walk func(steps []scenario.Step)
	walk = func(steps []scenario.Step) {
		for i := range steps {
			st := &steps[i]
			for _, u := range stepURLs(st) {
				if host, ok := loopbackHost(u); ok && !seen[host] {
					seen[host] = true
					out = append(out, fmt.Sprintf("URL %s is on loopback: inside a pod that is the runner pod itself, not your service; name the service as the pods see it, such as http://api.default.svc.cluster.local:8080", u))
				}
			}
			walk(st.Steps)
		}
	}
	walk(spec.Setup)
	for i := range spec.Scenarios {
		sc := &spec.Scenarios[i]
		walk(sc.OnStart)
		walk(sc.Flow)
		for j := range sc.Tasks {
			walk([]scenario.Step{sc.Tasks[j].Step})
		}
	}
	return out
}

// stepURLs are the URLs a step names itself: its request's, stream's or
// gRPC call's target.
func stepURLs(st *scenario.Step) []string {
	var out []string
	if st.Request != nil {
		out = append(out, st.Request.URL)
	}
	if st.SSE != nil {
		out = append(out, st.SSE.URL)
	}
	if st.WebSocket != nil {
		out = append(out, st.WebSocket.URL)
	}
	if st.GRPC != nil {
		out = append(out, st.GRPC.Target)
	}
	return out
}

// loopbackHost returns the host and port of rawURL if its host is a
// loopback address or a localhost name. A URL is judged by what comes
// before its first template, so a template in the host hides it.
func loopbackHost(rawURL string) (string, bool) {
	if i := strings.Index(rawURL, "{{"); i >= 0 {
		rawURL = rawURL[:i]
	}
	u, err := url.Parse(rawURL)
	if err != nil || u.Host == "" {
		return "", false
	}
	host := strings.ToLower(u.Hostname())
	ip := net.ParseIP(host)
	if host != "localhost" && !strings.HasSuffix(host, ".localhost") && (ip == nil || !ip.IsLoopback()) {
		return "", false
	}
	return u.Host, true
}
