package monitor

import (
	"slices"

	"github.com/surge-load/surge/result"
)

// Snapshot returns what has been measured so far, while the sampling goes
// on (for the live page): a copy that later samples do not change.
func (m *Sampling) Snapshot() *result.Monitor {
	out := &result.Monitor{Sources: []result.MonitorSource{}}
	for _, t := range m.tracks {
		t.mu.Lock()
		src := t.src
		src.T = slices.Clone(src.T)
		src.Gaps = slices.Clone(src.Gaps)
		src.Notes = slices.Clone(src.Notes)
		src.Series = slices.Clone(src.Series)
		for i := range src.Series {
			src.Series[i].Values = slices.Clone(src.Series[i].Values)
		}
		t.mu.Unlock()
		out.Sources = append(out.Sources, src)
	}
	return out
}
