package k8s

import (
	"bytes"
	"fmt"

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
