package analysis

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/surge-load/surge/result"
)

// The rules of "what moved".
const (
	// movedLeadS is how long before an event a series may move and still
	// count as moving with it.
	movedLeadS = 3
	// movedStrength is the smallest move that counts, in units of the
	// series' usual variation (see strength).
	movedStrength = 4
	// movedOrdinary: a move that the series makes, by half as much, in
	// this share of its seconds away from the events is ordinary (a
	// counter that ticks every few seconds), not a move with them.
	movedOrdinary = 0.15
	// movedTop is how many series a finding names.
	movedTop = 3
	// wholeRunShift: the run as a whole is judged only if throughput or
	// latency moved over it: the median of its last third is this many
	// times that of its first third, or this share of it. wholeRunR is the
	// smallest correlation that counts.
	wholeRunShift = 2.0
	wholeRunR     = 0.8
)

// WhatMoved ranks, for each group of r's events (a periodic group, or one
// event), for its collapse and for the run as a whole, the monitored series
// by how strongly and how early they moved with it. It needs r.Excursions,
// r.Periodic and r.Collapse set, and returns nil without monitored series.
//
// A series moved with an event if, in the window from movedLeadS seconds
// before the event to a second after its end, it went further from its
// level in the last five samples before that window outside events (for
// an event at the start, the first five after it) than movedStrength times
// its usual variation there (the median absolute deviation or half the
// range, whichever is larger, plus a tenth of the level and a hundredth of
// the series' largest value, so a flat series needs a real move), and if
// it does not move half as much in 15% or more of its seconds away from
// the events' windows (a counter that ticks every few seconds). In a group
// it must move in two thirds of the events. Series are ranked by that
// share times their strength; how early is the median lead over the
// events.
func WhatMoved(r *result.Result) []result.Moved {
	if r.Monitor == nil || len(r.Monitor.Sources) == 0 {
		return nil
	}
	var out []result.Moved
	inGroup := map[int]bool{}
	for _, p := range r.Periodic {
		var evs []result.Excursion
		for i, e := range r.Excursions {
			if e.Series == p.Series && e.Kind == p.Kind {
				evs = append(evs, e)
				inGroup[i] = true
			}
		}
		head := fmt.Sprintf("%s %s %d times, every %s s", p.Series, verb(p.Kind), p.Count, trimFloat(p.EveryS))
		out = append(out, movedWith(r, p.Series+" "+p.Kind+"s", head, "with each "+p.Kind, evs))
	}
	singles := 0
	for i, e := range r.Excursions {
		if inGroup[i] || singles == 5 {
			continue
		}
		singles++
		head := fmt.Sprintf("%s %s at %s for %s s", e.Series, verb(e.Kind), clock(e.AtS), trimFloat(e.LastedS))
		out = append(out, movedWith(r, fmt.Sprintf("%s %s at %ss", e.Series, e.Kind, trimFloat(e.AtS)), head, "with it", []result.Excursion{e}))
	}
	if c := r.Collapse; c != nil {
		e := result.Excursion{Series: result.Throughput, Kind: result.Dip, AtS: c.AtS, LastedS: c.LastedS}
		out = append(out, movedWith(r, "collapse", fmt.Sprintf("the service collapsed at %s", clock(c.AtS)), "with it", []result.Excursion{e}))
	}
	if m, ok := wholeRun(r); ok {
		out = append(out, m)
	}
	return slices.DeleteFunc(out, func(m result.Moved) bool { return len(m.Series) == 0 })
}

func verb(kind string) string {
	if kind == result.Dip {
		return "dipped"
	}
	return "spiked"
}

// movedWith ranks the monitored series that moved with evs.
func movedWith(r *result.Result, finding, head, with string, evs []result.Excursion) result.Moved {
	m := result.Moved{Finding: finding, Events: len(evs)}
	first := 0.0
	if len(r.Series) > 0 {
		first = r.Series[0].T
	}
	need := int(math.Ceil(2 * float64(len(evs)) / 3))
	type ranked struct {
		s     result.MovedSeries
		score float64
	}
	var all []ranked
	for si := range r.Monitor.Sources {
		src := &r.Monitor.Sources[si]
		for _, ser := range src.Series {
			pts := samples(src, ser.Values, r.Run.DurationS)
			if len(pts) < 2*eventWindow {
				continue
			}
			scale := 0.0
			var quiet []float64 // the values outside every event's window
			for _, p := range pts {
				scale = math.Max(scale, math.Abs(p.v))
				if !nearEvent(p.t, r.Excursions) {
					quiet = append(quiet, p.v)
				}
			}
			ordinary := ordinaryShare(quiet)
			var froms, tos, leads, strengths []float64
			up := 0
			for _, e := range evs {
				from, to, lead, st, ok := moveIn(pts, e, r.Excursions, e.AtS <= first, scale)
				if ok && ordinary(math.Abs(to-from)/2) >= movedOrdinary {
					ok = false // it moves that much as often away from the events
				}
				if !ok {
					continue
				}
				froms, tos, leads, strengths = append(froms, from), append(tos, to), append(leads, lead), append(strengths, st)
				if to > from {
					up++
				}
			}
			n := len(froms)
			if n < need || n == 0 || (up != 0 && up != n && max(up, n-up) < need) {
				continue
			}
			s := result.MovedSeries{Source: src.Name, Series: ser.Name, Unit: ser.Unit, From: median(froms), To: median(tos),
				LeadS: median(leads), Moved: n, Strength: median(strengths)}
			all = append(all, ranked{s, float64(n) / float64(len(evs)) * math.Min(s.Strength, 1000)})
		}
	}
	slices.SortStableFunc(all, func(a, b ranked) int {
		if a.score != b.score {
			return cmpFloat(b.score, a.score)
		}
		return cmpFloat(b.s.LeadS, a.s.LeadS)
	})
	for i := 0; i < len(all) && i < movedTop; i++ {
		m.Series = append(m.Series, all[i].s)
	}
	if len(m.Series) > 0 {
		var parts []string
		for _, s := range m.Series {
			parts = append(parts, describeMove(s))
		}
		m.Line = head + "; " + with + " " + joinAnd(parts)
	}
	return m
}

// A sample is one value of a monitored series at time t.
type sample struct{ t, v float64 }

// samples returns the values of a series of src sampled before endS.
func samples(src *result.MonitorSource, vals result.MonitorValues, endS float64) []sample {
	var out []sample
	for i, v := range vals {
		if i < len(src.T) && src.T[i] < endS && !math.IsNaN(v) {
			out = append(out, sample{src.T[i], v})
		}
	}
	return out
}

// moveIn measures how a series moved with event e: its level before (or,
// at the start, after), the furthest value in the event's window, the lead
// and the strength of the move.
func moveIn(pts []sample, e result.Excursion, all []result.Excursion, atStart bool, scale float64) (from, to, lead, strength float64, ok bool) {
	lo, hi := e.AtS-movedLeadS, e.AtS+e.LastedS+1
	if atStart {
		lo = e.AtS
	}
	// The baseline: the last five samples before the window (at the start,
	// the first five after it) outside events, looking up to three times
	// as far.
	var base, win []sample
	for _, p := range pts {
		if p.t >= lo && p.t < hi {
			win = append(win, p)
		}
	}
	if atStart {
		for _, p := range pts {
			if p.t >= hi && p.t < hi+3*eventWindow && !during(p.t, all) && len(base) < eventWindow {
				base = append(base, p)
			}
		}
	} else {
		for i := len(pts) - 1; i >= 0 && len(base) < eventWindow; i-- {
			if p := pts[i]; p.t < lo && p.t >= lo-3*eventWindow && !during(p.t, all) {
				base = append(base, p)
			}
		}
	}
	if len(base) < 2 || len(win) == 0 {
		return 0, 0, 0, 0, false
	}
	bv := make([]float64, len(base))
	for i, p := range base {
		bv[i] = p.v
	}
	b := median(bv)
	spread := spreadOf(bv)
	far := win[0]
	for _, p := range win {
		if math.Abs(p.v-b) > math.Abs(far.v-b) {
			far = p
		}
	}
	d := math.Abs(far.v - b)
	strength = d / (spread + 0.1*math.Abs(b) + 0.01*scale + 1e-12)
	if d == 0 || strength < movedStrength {
		return 0, 0, 0, 0, false
	}
	for _, p := range win {
		if math.Abs(p.v-b) >= d/2 && (p.v-b)*(far.v-b) > 0 {
			lead = math.Max(0, e.AtS-p.t)
			break
		}
	}
	return b, far.v, lead, strength, true
}

// spreadOf is the usual variation of xs: 1.4826 times the median absolute
// deviation, or half the range when larger; 0 for no values.
func spreadOf(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	m := median(xs)
	dev := make([]float64, len(xs))
	for i, v := range xs {
		dev[i] = math.Abs(v - m)
	}
	return math.Max(1.4826*median(dev), (slices.Max(xs)-slices.Min(xs))/2)
}

// ordinaryShare returns the share of xs (a series away from the events)
// at least a given distance from their median.
func ordinaryShare(xs []float64) func(dist float64) float64 {
	m := median(xs)
	return func(dist float64) float64 {
		if len(xs) == 0 {
			return 0
		}
		n := 0
		for _, v := range xs {
			if math.Abs(v-m) >= dist {
				n++
			}
		}
		return float64(n) / float64(len(xs))
	}
}

// nearEvent reports whether time t is in the window of any event: from
// movedLeadS before it to a second after its end.
func nearEvent(t float64, all []result.Excursion) bool {
	for _, e := range all {
		if t >= e.AtS-movedLeadS && t < e.AtS+e.LastedS+1 {
			return true
		}
	}
	return false
}

// during reports whether time t is in any event, or the second before or
// after it.
func during(t float64, all []result.Excursion) bool {
	for _, e := range all {
		if t >= e.AtS-1 && t < e.AtS+e.LastedS+1 {
			return true
		}
	}
	return false
}

// describeMove says how a series moved: "demo cache_misses_total rose ×40
// (1 s earlier)" or "db pool_pending 0→38".
func describeMove(s result.MovedSeries) string {
	name := s.Source + " " + strings.TrimPrefix(s.Series, "m:")
	var how string
	switch {
	case s.From > 0 && s.To/s.From >= 2:
		how = "rose ×" + trimFloat(roundTo(s.To/s.From))
	case s.From > 0 && s.To >= 0 && s.To/s.From <= 0.5:
		how = "fell to " + trimFloat(roundTo(100*s.To/s.From)) + "%"
	default:
		how = trimFloat(roundTo(s.From)) + "→" + trimFloat(roundTo(s.To))
	}
	if s.Unit == "%" {
		how = strings.ReplaceAll(how, "→", "%→") + map[bool]string{true: "%", false: ""}[strings.Contains(how, "→")]
	}
	text := name + " " + how
	if s.LeadS >= 1 {
		text += fmt.Sprintf(", %s s earlier", trimFloat(s.LeadS))
	}
	if s.Correlation != 0 {
		text += fmt.Sprintf(" (r=%+.2f)", s.Correlation)
	}
	return text
}

// roundTo rounds v to two significant digits, or to a whole number.
func roundTo(v float64) float64 {
	if v == 0 || math.Abs(v) >= 10 {
		return math.Round(v)
	}
	p := math.Pow(10, 1-math.Floor(math.Log10(math.Abs(v))))
	return math.Round(v*p) / p
}

func trimFloat(v float64) string { return strings.TrimSuffix(fmt.Sprintf("%.6g", v), ".0") }

func joinAnd(parts []string) string {
	if len(parts) <= 1 {
		return strings.Join(parts, "")
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// clock formats seconds since the start as 1m12s.
func clock(s float64) string {
	m := int(s) / 60
	if m == 0 {
		return fmt.Sprintf("%ss", trimFloat(math.Round(s*10)/10))
	}
	return fmt.Sprintf("%dm%02ds", m, int(s)%60)
}

// wholeRun ranks the series that moved with throughput or latency over the
// whole measured period, by correlation, when either moved over it (a
// drift, such as latency growing with a leak): the medians of its thirds
// go one way, the last twice the first, or half.
func wholeRun(r *result.Result) (result.Moved, bool) {
	pts := chartable(activePoints(r))
	if r.Warmup != nil {
		pts = slices.DeleteFunc(pts, func(p result.Point) bool { return p.T < r.Warmup.DurationS })
	}
	if len(pts) < 10 {
		return result.Moved{}, false
	}
	loads := map[string][]float64{}
	for _, p := range pts {
		loads[result.Throughput] = append(loads[result.Throughput], okRPS([]result.Point{p}))
		l := math.NaN()
		if p.Requests-p.Failures >= minLatencyOps {
			l = p.Latency.P95
		}
		loads[result.Latency] = append(loads[result.Latency], l)
	}
	best := result.Moved{Finding: "the run"}
	var bestR float64
	for _, name := range []string{result.Throughput, result.Latency} {
		y := loads[name]
		third := len(y) / 3
		early, mid, late := median(y[:third]), median(y[third:len(y)-third]), median(y[len(y)-third:])
		monotone := early < mid && mid < late || early > mid && mid > late
		if !(early > 0 && late > 0) || !monotone || math.Abs(math.Log(late/early)) < math.Log(wholeRunShift) {
			continue
		}
		var found []result.MovedSeries
		for si := range r.Monitor.Sources {
			src := &r.Monitor.Sources[si]
			at := map[float64]int{}
			for i, t := range src.T {
				at[t] = i
			}
			for _, ser := range src.Series {
				var xs, ys []float64
				for i, p := range pts {
					if k, ok := at[p.T]; ok && !math.IsNaN(ser.Values[k]) && !math.IsNaN(y[i]) {
						xs, ys = append(xs, ser.Values[k]), append(ys, y[i])
					}
				}
				if len(xs) < 10 || cv(xs) < 0.05 {
					continue
				}
				if c := pearson(xs, ys); math.Abs(c) >= wholeRunR {
					found = append(found, result.MovedSeries{Source: src.Name, Series: ser.Name, Unit: ser.Unit,
						From: slices.Min(xs), To: slices.Max(xs), Moved: 1, Correlation: c, Strength: math.Abs(c)})
				}
			}
		}
		slices.SortStableFunc(found, func(a, b result.MovedSeries) int { return cmpFloat(b.Strength, a.Strength) })
		if len(found) > movedTop {
			found = found[:movedTop]
		}
		if len(found) > 0 && found[0].Strength > bestR {
			bestR = found[0].Strength
			best.Series = found
			var parts []string
			for _, s := range found {
				parts = append(parts, fmt.Sprintf("%s %s (r=%+.2f)", s.Source, strings.TrimPrefix(s.Series, "m:"), s.Correlation))
			}
			best.Line = fmt.Sprintf("over the run, %s moved with %s", name, joinAnd(parts))
		}
	}
	return best, len(best.Series) > 0
}

// cv is the coefficient of variation of the values of xs that are not
// NaN.
func cv(xs []float64) float64 {
	v := valid(xs)
	if len(v) < 2 {
		return 0
	}
	var s, sq float64
	for _, x := range v {
		s += x
	}
	mean := s / float64(len(v))
	for _, x := range v {
		sq += (x - mean) * (x - mean)
	}
	sd := math.Sqrt(sq / float64(len(v)-1))
	if mean == 0 {
		if sd == 0 {
			return 0
		}
		return math.Inf(1)
	}
	return sd / math.Abs(mean)
}

// pearson is the correlation of xs and ys.
func pearson(xs, ys []float64) float64 {
	n := float64(len(xs))
	var mx, my float64
	for i := range xs {
		mx += xs[i]
		my += ys[i]
	}
	mx, my = mx/n, my/n
	var sxy, sxx, syy float64
	for i := range xs {
		dx, dy := xs[i]-mx, ys[i]-my
		sxy += dx * dy
		sxx += dx * dx
		syy += dy * dy
	}
	if sxx == 0 || syy == 0 {
		return 0
	}
	return sxy / math.Sqrt(sxx*syy)
}
