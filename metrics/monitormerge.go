package metrics

import "github.com/surge-load/surge/result"

// mergeMonitor keeps one copy of each source: the one of the part with
// the lowest segment index that has it.
func mergeMonitor(parts []*result.Result) *result.Monitor {
	var out *result.Monitor
	seen := map[string]bool{}
	best := -1
	for _, p := range parts {
		if p.Monitor == nil {
			continue
		}
		if best < 0 || p.Run.Segment.Index < best {
			best = p.Run.Segment.Index
		}
	}
	if best < 0 {
		return nil
	}
	out = &result.Monitor{Segment: best}
	add := func(p *result.Result) {
		for _, s := range p.Monitor.Sources {
			if !seen[s.Name] {
				seen[s.Name] = true
				out.Sources = append(out.Sources, s)
			}
		}
	}
	for _, p := range parts {
		if p.Monitor != nil && p.Run.Segment.Index == best {
			add(p)
		}
	}
	for _, p := range parts {
		if p.Monitor != nil && p.Run.Segment.Index != best {
			add(p)
		}
	}
	return out
}
