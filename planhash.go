package surge

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"maps"
	"time"
)

// Hash identifies the compiled plan: a SHA-256, in hex, of what the plan
// does (its recorded Spec, target, scenarios with their loads in words,
// start offsets and statistics rows, warm-up and thresholds), the same in
// every process that compiled the same plan and never a secret the Spec
// redacts. The Spec's random seed is left out: the segments of a split run
// given no --seed each pick their own, and still run one plan. The segments of a split run record it (Run.PlanHash) so that
// metrics.Merge can refuse parts of different plans.
func (p *Plan) Hash() string {
	type scenario struct {
		Name       string
		Describe   string
		StartAfter time.Duration
		Endpoints  []string
	}
	desc := struct {
		Spec       any
		Target     string
		Scenarios  []scenario
		Warmup     time.Duration
		Thresholds []string
	}{Spec: p.Spec, Target: p.Target, Warmup: p.Warmup}
	if m, ok := p.Spec.(map[string]any); ok {
		if _, seeded := m["seed"]; seeded {
			m = maps.Clone(m)
			delete(m, "seed")
			desc.Spec = m
		}
	}
	for _, s := range p.Scenarios {
		desc.Scenarios = append(desc.Scenarios, scenario{s.Name, s.Describe, s.StartAfter, s.Endpoints})
	}
	for _, t := range p.Thresholds {
		desc.Thresholds = append(desc.Thresholds, t.Expr)
	}
	b, err := json.Marshal(desc)
	if err != nil {
		b = []byte(err.Error()) // a Spec that cannot be encoded is not recorded either
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
