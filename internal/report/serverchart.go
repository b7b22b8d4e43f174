package report

import (
	"math"
	"slices"
	"strings"

	"github.com/surge-load/surge/result"
)

// maxPickable bounds the scraped series of one source the report's picker
// offers: those that varied most.
const maxPickable = 200

// A ServerChart is one chart of a monitored source, drawn under the load's
// charts on the same time axis. A chart with Options lets the reader pick
// which of them to draw; Series are those drawn first.
type ServerChart struct {
	Key     string       `json:"key"`
	Title   string       `json:"title"`
	YLabel  string       `json:"y_label"`
	Unit    string       `json:"unit"`
	Series  []NamedValue `json:"series"`
	Options []NamedValue `json:"options,omitempty"`
	// Left says how many scraped series the picker leaves out.
	Left int `json:"left,omitempty"`
}

// A NamedValue is one series of a server chart, one value per point of the
// timeline.
type NamedValue struct {
	Label  string `json:"label"`
	Values Values `json:"values"`
}

// serverCharts builds the charts of r's monitored sources on the points of
// tl; picked names scraped series to draw first (a threshold's, or those
// that moved).
func serverCharts(r *result.Result, tl *Timeline, picked []string) []ServerChart {
	if r.Monitor == nil {
		return nil
	}
	var out []ServerChart
	for i := range r.Monitor.Sources {
		s := &r.Monitor.Sources[i]
		on := func(name string) (NamedValue, bool) {
			ser := s.Find(name)
			if ser == nil {
				return NamedValue{}, false
			}
			v := resample(s, ser.Values, tl)
			if ser.Unit == "bytes" {
				for j := range v {
					v[j] /= 1 << 20
				}
			}
			return NamedValue{Label: strings.ReplaceAll(name, "_", " "), Values: v}, true
		}
		chart := func(key, title, ylabel, unit string, names ...string) {
			c := ServerChart{Key: s.Name + "." + key, Title: s.Name + ": " + title, YLabel: ylabel, Unit: unit}
			for _, n := range names {
				if v, ok := on(n); ok {
					c.Series = append(c.Series, v)
				}
			}
			if len(c.Series) > 0 {
				out = append(out, c)
			}
		}
		switch s.Kind {
		case "process", "cgroup", "host":
			chart("cpu", "CPU ("+s.Spec+")", "% of one core", "%", "cpu")
			chart("memory", "memory", "MiB", "MiB", "memory")
		}
		switch s.Kind {
		case "process":
			chart("fds", "file descriptors, threads, connections", "count", "", "fds", "threads", "tcp_established", "tcp_close_wait")
		case "cgroup":
			chart("pids", "processes and throttling", "count, ms/s", "", "pids", "throttled_ms")
		case "host":
			chart("kernel", "listen queue, SYN drops, retransmits", "per second", "/s", "listen_overflows", "listen_drops", "syn_drops", "tcp_retransmits")
		case "prometheus":
			out = append(out, pickerChart(s, tl, picked))
		}
	}
	return out
}

// pickerChart offers the scraped series of s that varied most, drawing
// those picked (or the three that varied most).
func pickerChart(s *result.MonitorSource, tl *Timeline, picked []string) ServerChart {
	c := ServerChart{Key: s.Name + ".scraped", Title: s.Name + ": scraped series (" + s.Spec + ")", YLabel: "value", Unit: ""}
	type scored struct {
		nv    NamedValue
		score float64
	}
	var all []scored
	for _, ser := range s.Series {
		v := resample(s, ser.Values, tl)
		all = append(all, scored{NamedValue{Label: ser.Name, Values: v}, variation(v)})
	}
	slices.SortStableFunc(all, func(a, b scored) int {
		ap, bp := slices.Contains(picked, s.Name+"."+a.nv.Label), slices.Contains(picked, s.Name+"."+b.nv.Label)
		switch {
		case ap != bp && ap:
			return -1
		case ap != bp:
			return 1
		case a.score > b.score:
			return -1
		case a.score < b.score:
			return 1
		}
		return 0
	})
	if len(all) > maxPickable {
		c.Left = len(all) - maxPickable
		all = all[:maxPickable]
	}
	for i, a := range all {
		c.Options = append(c.Options, a.nv)
		if i < 3 && (a.score > 0 || slices.Contains(picked, s.Name+"."+a.nv.Label)) {
			c.Series = append(c.Series, a.nv)
		}
	}
	return c
}

// variation is the spread of v relative to its mean (0 for a flat line).
func variation(v Values) float64 {
	var n, sum, sq float64
	for _, x := range v {
		if !math.IsNaN(x) {
			n++
			sum += x
			sq += x * x
		}
	}
	if n < 2 {
		return 0
	}
	mean := sum / n
	sd := math.Sqrt(math.Max(0, sq/n-mean*mean))
	return sd / math.Max(math.Abs(mean), 1e-9)
}

// resample puts the values of a series of s on the points of tl: each
// point's value is the mean of the samples in it, NaN if none.
func resample(s *result.MonitorSource, vals result.MonitorValues, tl *Timeline) Values {
	out := make(Values, len(tl.T))
	step := tl.StepS
	if step <= 0 {
		step = 1
	}
	j := 0
	for i, t := range tl.T {
		end := t + step
		if i+1 < len(tl.T) {
			end = tl.T[i+1]
		}
		var sum, n float64
		for j < len(s.T) && s.T[j] < t-1e-9 {
			j++
		}
		for k := j; k < len(s.T) && s.T[k] < end-1e-9; k++ {
			if k < len(vals) && !math.IsNaN(vals[k]) {
				sum += vals[k]
				n++
			}
		}
		out[i] = math.NaN()
		if n > 0 {
			out[i] = sum / n
		}
	}
	return out
}
