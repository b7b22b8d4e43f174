package scenario

import (
	"github.com/surge-load/surge/sanitize"
)

// describe returns what the result document records as the plan: the
// scenarios, their loads and statistics rows, without secrets.
func describe(spec *Spec, target string, p *program) map[string]any {
	headers := map[string]string{}
	for k, v := range spec.Defaults.Headers {
		headers[k] = sanitize.Header(k, v)
	}
	var scenarios []map[string]any
	for _, cs := range p.scenarios {
		var rows []string
		for _, i := range cs.endpoints {
			rows = append(rows, p.endpoints[i])
		}
		d := map[string]any{
			"name":        cs.name,
			"load":        cs.load.String(),
			"start_after": cs.startAfter.String(),
			"endpoints":   rows,
		}
		if s, ok := cs.load.(interface{ String() string }); ok {
			d["load"] = s.String()
		}
		if len(cs.tasks) > 0 {
			var tasks []map[string]any
			prev := 0
			for i, t := range cs.tasks {
				tasks = append(tasks, map[string]any{"step": t.path, "weight": cs.cumWeights[i] - prev})
				prev = cs.cumWeights[i]
			}
			d["tasks"] = tasks
		} else {
			d["flow_steps"] = len(cs.flow)
		}
		scenarios = append(scenarios, d)
	}
	return map[string]any{
		"kind":       "scenario",
		"target":     target,
		"headers":    headers,
		"warmup":     spec.Warmup.String(),
		"scenarios":  scenarios,
		"thresholds": spec.Thresholds,
		"seed":       p.seed,
		"monitor":    spec.Monitor,
	}
}
