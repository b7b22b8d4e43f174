package k8s

import (
	"bytes"
	"fmt"

	batchv1 "k8s.io/api/batch/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"
)

// YAML returns the objects as one YAML stream, in the order to apply them,
// for kubectl apply -f -.
func (m *Manifests) YAML() ([]byte, error) {
	var buf bytes.Buffer
	for i, obj := range []any{m.Token, m.Plan, m.Service, m.Collector, m.Runners} {
		b, err := yaml.Marshal(obj)
		if err != nil {
			return nil, fmt.Errorf("encode manifest %d: %w", i+1, err)
		}
		if i > 0 {
			buf.WriteString("---\n")
		}
		buf.Write(b)
	}
	return buf.Bytes(), nil
}

// ParseYAML reads back a stream that YAML wrote, or one edited by hand:
// each document is decoded strictly (an unknown field is an error) into the
// object its kind names; the indexed Job is the runners', the other the
// collector's. Every one of the five objects must be there, once.
func ParseYAML(stream []byte) (*Manifests, error) {
	m := &Manifests{}
	seen := map[any]bool{} // the fields of m set so far
	for i, doc := range bytes.Split(stream, []byte("\n---\n")) {
		var tm metav1.TypeMeta
		if err := yaml.Unmarshal(doc, &tm); err != nil {
			return nil, fmt.Errorf("manifest %d: %w", i+1, err)
		}
		var obj any
		switch tm.Kind {
		case "Secret":
			obj = &m.Token
		case "ConfigMap":
			obj = &m.Plan
		case "Service":
			obj = &m.Service
		case "Job":
			var j batchv1.Job
			if err := yaml.UnmarshalStrict(doc, &j); err != nil {
				return nil, fmt.Errorf("manifest %d, a Job: %w", i+1, err)
			}
			if j.Spec.CompletionMode != nil && *j.Spec.CompletionMode == batchv1.IndexedCompletion {
				obj = &m.Runners
			} else {
				obj = &m.Collector
			}
		default:
			return nil, fmt.Errorf("manifest %d: kind %q is not one of a split run's (Secret, ConfigMap, Service, Job)", i+1, tm.Kind)
		}
		if seen[obj] {
			return nil, fmt.Errorf("manifest %d: a second %s", i+1, tm.Kind)
		}
		seen[obj] = true
		if err := yaml.UnmarshalStrict(doc, obj); err != nil {
			return nil, fmt.Errorf("manifest %d, a %s: %w", i+1, tm.Kind, err)
		}
	}
	for _, o := range []struct {
		missing bool
		what    string
	}{{m.Token == nil, "Secret"}, {m.Plan == nil, "ConfigMap"}, {m.Service == nil, "Service"}, {m.Collector == nil, "Job for the collector"}, {m.Runners == nil, "indexed Job for the runners"}} {
		if o.missing {
			return nil, fmt.Errorf("the stream has no %s", o.what)
		}
	}
	return m, nil
}
