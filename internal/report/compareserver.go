package report

import (
	"math"
	"slices"

	"github.com/surge-load/surge/result"
)

// serverRows are the rows compare shows for a monitored source of each
// kind: a series reduced over the measured period. Lower is better for
// all of them.
var serverRows = map[string][]struct{ series, agg string }{
	"process": {{"cpu", "mean"}, {"cpu", "max"}, {"memory", "max"}, {"fds", "max"}, {"threads", "max"}},
	"cgroup":  {{"cpu", "mean"}, {"cpu", "max"}, {"memory", "max"}, {"throttled_ms", "mean"}},
	"host":    {{"cpu", "mean"}, {"cpu", "max"}, {"memory", "max"}, {"listen_overflows", "max"}, {"syn_drops", "max"}, {"tcp_retransmits", "mean"}},
}

// serverSections compares the monitored sources that the runs share by
// name and kind: one section per source ("Server · api"), rows such as
// cpu.mean and memory.max, with the noise of a mean from its per-interval
// variation (as the load's rows). A prometheus source's rows are the
// scraped series every run has that thresholds name.
func serverSections(runs []ComparedRun) []Section {
	first := runs[0].Result.Monitor
	if first == nil {
		return nil
	}
	var out []Section
	for _, src := range first.Sources {
		sources := make([]*result.MonitorSource, len(runs))
		for i, r := range runs {
			if s := r.Result.Monitor.Source(src.Name); s != nil && s.Kind == src.Kind {
				sources[i] = s
			}
		}
		rows := serverRows[src.Kind]
		if src.Kind == "prometheus" {
			for _, name := range pickedSeries(runs[0].Result) {
				if s, ok := cutSource(name, src.Name); ok && src.Find(s) != nil {
					rows = append(rows, struct{ series, agg string }{s, "mean"}, struct{ series, agg string }{s, "max"})
				}
			}
		}
		sec := Section{Name: "Server · " + src.Name}
		for _, row := range rows {
			if src.Find(row.series) == nil {
				continue
			}
			m := Metric{Key: src.Name + "." + row.series + "." + row.agg,
				format: func(v float64) string { return formatServer(v, src.Find(row.series).Unit) }}
			r := Row{Metric: m.Key}
			se := make([]float64, len(runs))
			for i, s := range sources {
				v, e := math.NaN(), math.NaN()
				if s != nil {
					if ser := s.Find(row.series); ser != nil {
						if xs := s.Within(runs[i].Result, ser.Values); len(xs) > 0 {
							v = reduce(xs, row.agg)
							if sigma, _ := successiveSigma(xs); !math.IsNaN(sigma) {
								e = sigma / math.Sqrt(float64(len(xs)))
								if row.agg == "max" {
									e = sigma
								}
							}
						}
					}
				}
				r.add(v, m.format)
				se[i] = e
			}
			for i := 1; i < len(runs); i++ {
				old, nw := se[i-1], se[i]
				if math.IsNaN(old) || math.IsNaN(nw) {
					// Too few intervals to know the noise: never a verdict
					// of worse or better.
					old, nw = math.Inf(1), 0
				}
				r.Changes = append(r.Changes, change(m, r.Values[i-1], r.Values[i], old, nw, math.NaN()))
			}
			sec.Rows = append(sec.Rows, r)
		}
		if len(sec.Rows) > 0 {
			out = append(out, sec)
		}
	}
	return out
}

// cutSource returns the series of name (SOURCE.SERIES) if its source is src.
func cutSource(name, src string) (string, bool) {
	if len(name) > len(src)+1 && name[:len(src)] == src && name[len(src)] == '.' {
		s := name[len(src)+1:]
		return s, !slices.Contains([]string{""}, s)
	}
	return "", false
}
