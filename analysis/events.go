package analysis

import (
	"math"
	"slices"

	"github.com/surge-load/surge/result"
)

// The rules of dip and spike detection.
const (
	// eventWindow is how many seconds before an event make its baseline;
	// returnWindow how many after it must show the return.
	eventWindow  = 5
	returnWindow = 3
	// dipShare: throughput under this share of its baseline is a dip;
	// spikeFactor: over this multiple of it, a spike.
	dipShare    = 0.5
	spikeFactor = 2.0
	// latencyFactor: latency this many times its baseline (or this share
	// of it) is a spike (a dip), if it also moved by latencyFloorMs.
	latencyFactor  = 3.0
	latencyFloorMs = 5.0
	// minEventRPS: a throughput baseline under this is too thin to judge;
	// minLatencyOps: a second with fewer successes has no latency to judge.
	minEventRPS   = 5.0
	minLatencyOps = 5
	// backShare: after a dip, throughput back at this share of the
	// baseline (after a spike, under its inverse times it) is a return.
	backShare = 0.5
)

// DetectExcursions finds the dips and spikes of throughput (successful
// responses per second) and latency (p95 per second) in r's active load
// period, of any length from one second, and the ones that recur at a
// regular interval.
//
// A dip or spike is a run of one or more seconds below half (above twice,
// for latency three times and 5 ms) the median of the five seconds before
// it, and outside their range, after which the series comes back: the
// median of the three seconds after is at half the baseline or more (for a
// spike, twice it or less). A series that falls and stays down is
// not a dip (it is a new level, or a collapse: DetectCollapse). At the
// start of the run, a latency spike is judged against the rest of the run
// (a slow start, such as a warm-up). Three or more events of one series
// and kind whose starts are evenly spaced (within 20% or 1.5 s of their
// median spacing) are periodic.
func DetectExcursions(r *result.Result) ([]result.Excursion, []result.Periodicity) {
	pts := chartable(activePoints(r))
	if len(pts) < 2*eventWindow {
		return nil, nil
	}
	tput := make([]float64, len(pts))
	lat := make([]float64, len(pts))
	for i, p := range pts {
		tput[i] = okRPS([]result.Point{p})
		lat[i] = math.NaN()
		if p.Requests-p.Failures >= minLatencyOps {
			lat[i] = p.Latency.P95
		}
	}
	var events []result.Excursion
	events = append(events, scan(pts, tput, result.Throughput, 0)...)
	start := 0
	if e, ok := slowStart(pts, lat); ok {
		events = append(events, e)
		for start < len(pts) && pts[start].T < e.AtS+e.LastedS {
			start++
		}
	}
	events = append(events, scan(pts, lat, result.Latency, start)...)
	slices.SortStableFunc(events, func(a, b result.Excursion) int {
		if a.AtS != b.AtS {
			return cmpFloat(a.AtS, b.AtS)
		}
		return cmpFloat(seriesOrder(a.Series), seriesOrder(b.Series))
	})
	return events, periodic(events)
}

func seriesOrder(s string) float64 {
	if s == result.Throughput {
		return 0
	}
	return 1
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// chartable leaves out slivers: intervals shorter than half a second.
func chartable(pts []result.Point) []result.Point {
	out := make([]result.Point, 0, len(pts))
	for _, p := range pts {
		if p.DurationS >= 0.5 {
			out = append(out, p)
		}
	}
	return out
}

// beyond reports whether v, a dip or spike of kind against the values of
// window, is also outside the window's own range: under two thirds of its
// lowest value, or over half as much again as its highest (the most
// extreme second of four or more left out), so that the
// ordinary scatter of a noisy series is not an event.
func beyond(kind string, v float64, window []float64) bool {
	w := valid(window)
	if len(w) == 0 {
		return true
	}
	slices.Sort(w)
	if len(w) >= 4 {
		w = w[1 : len(w)-1] // one odd second is no range
	}
	if kind == result.Dip {
		return v < w[0]*2/3
	}
	return v > w[len(w)-1]*1.5
}

// deviates reports whether v is a dip or a spike of series against base.
func deviates(series string, v, base float64) (kind string, ok bool) {
	if math.IsNaN(v) || math.IsNaN(base) {
		return "", false
	}
	if series == result.Throughput {
		switch {
		case base >= minEventRPS && v < dipShare*base:
			return result.Dip, true
		case v > spikeFactor*max(base, minEventRPS):
			return result.Spike, true
		}
		return "", false
	}
	switch {
	case v > latencyFactor*base && v-base >= latencyFloorMs:
		return result.Spike, true
	case v < base/latencyFactor && base-v >= latencyFloorMs:
		return result.Dip, true
	}
	return "", false
}

// back reports whether level, after an event of kind, is a return to base.
func back(series, kind string, level, base float64) bool {
	if math.IsNaN(level) {
		return false
	}
	if series == result.Throughput {
		if kind == result.Dip {
			return level >= backShare*base
		}
		return level <= base/backShare
	}
	if kind == result.Spike {
		return level <= 2*base || level-base < latencyFloorMs
	}
	return level >= base/2 || base-level < latencyFloorMs
}

// scan finds the dips and spikes of one series, leaving out the first
// skip points (a slow start, found before).
func scan(pts []result.Point, v []float64, series string, skip int) []result.Excursion {
	var out []result.Excursion
	clean := slices.Clone(v) // the values outside events, for baselines
	for k := range skip {
		clean[k] = math.NaN()
	}
	for i := skip + eventWindow; i < len(v); i++ {
		window := clean[i-eventWindow : i]
		base := median(window)
		kind, ok := deviates(series, v[i], base)
		if !ok || !beyond(kind, v[i], window) {
			continue
		}
		j := i
		extreme := v[i]
		for j < len(v) {
			k, ok := deviates(series, v[j], base)
			if !ok || k != kind {
				break
			}
			if kind == result.Dip {
				extreme = math.Min(extreme, v[j])
			} else {
				extreme = math.Max(extreme, v[j])
			}
			j++
		}
		after := v[j:min(j+returnWindow, len(v))]
		if generatorLate(pts[i:j], pts[i-eventWindow:i]) {
			// The generator's own: no event, and no baseline either.
			for k := i; k < j; k++ {
				clean[k] = math.NaN()
			}
			i = j - 1
			continue
		}
		// Two seconds show the return; one, at the very end of the run.
		if len(after) == 0 || len(valid(after)) < min(2, len(after)) || !back(series, kind, median(after), base) {
			i = j - 1
			continue
		}
		for k := i; k < j; k++ {
			clean[k] = math.NaN()
		}
		out = append(out, result.Excursion{Series: series, Kind: kind, AtS: pts[i].T, LastedS: sumDuration(pts[i:j]),
			Baseline: base, Extreme: extreme})
		i = j - 1
	}
	return out
}

// generatorLate reports whether the generator itself was short of CPU in
// any of pts, more than in the seconds before: its goroutines waited 50 ms
// or more for a CPU (run-queue latency p99), and twice the median of
// before. A dip or spike then may be the generator's, not the server's.
// (Scheduling lag alone is not: a closed model's users start late after
// a slow answer too.)
func generatorLate(pts, before []result.Point) bool {
	var runqs []float64
	for _, p := range before {
		runqs = append(runqs, p.Generator.RunqP99Ms)
	}
	runq := median(runqs)
	for _, p := range pts {
		if p.Generator.RunqP99Ms >= max(50, 2*runq) {
			return true
		}
	}
	return false
}

// slowStart finds a latency spike at the start of the run, judged against
// the latency of the rest: the first seconds three times (and 5 ms) above
// the median of the last two thirds, for less than half the run.
func slowStart(pts []result.Point, lat []float64) (result.Excursion, bool) {
	rest := median(lat[len(lat)/3:])
	j := 0
	for j < len(lat) {
		if k, ok := deviates(result.Latency, lat[j], rest); !ok || k != result.Spike {
			break
		}
		j++
	}
	if j == 0 || j >= len(lat)/2 {
		return result.Excursion{}, false
	}
	return result.Excursion{Series: result.Latency, Kind: result.Spike, AtS: pts[0].T, LastedS: sumDuration(pts[:j]),
		Baseline: rest, Extreme: slices.Max(lat[:j])}, true
}

// periodic finds, for each series and kind, the period at which its
// events recur, if any: see periodOf.
func periodic(events []result.Excursion) []result.Periodicity {
	var out []result.Periodicity
	for _, series := range []string{result.Throughput, result.Latency} {
		for _, kind := range []string{result.Dip, result.Spike} {
			var evs []result.Excursion
			for _, e := range events {
				if e.Series == series && e.Kind == kind {
					evs = append(evs, e)
				}
			}
			if p, ok := periodOf(evs); ok {
				p.Series, p.Kind = series, kind
				out = append(out, p)
			}
		}
	}
	return out
}

// periodOf finds the period of evs: every gap between two events is a
// candidate period P (2 s or more), and every event an anchor; the slots
// anchor + k×P are filled by an event that covers them (from half a
// second before it starts to half a second before its end). The best
// period fills the most slots, then the largest share of those between
// its first and last filled one, then is the longest; it counts if three
// slots or more are filled and at least three quarters of them. Events that fill no slot are
// left out of it (noise between the recurring ones).
func periodOf(evs []result.Excursion) (result.Periodicity, bool) {
	if len(evs) < 3 {
		return result.Periodicity{}, false
	}
	covers := func(e result.Excursion, t float64) bool {
		return t >= e.AtS-0.5 && t <= e.AtS+math.Max(e.LastedS, 1)-0.5
	}
	var best result.Periodicity
	bestShare := 0.0
	for i := range evs {
		for j := i + 1; j < len(evs); j++ {
			period := evs[j].AtS - evs[i].AtS
			if period < 2 {
				continue
			}
			for _, anchor := range evs {
				// Walk the slots from the anchor back and forth.
				var at []float64
				filled, slots := 0, 0
				first, last := math.Inf(1), math.Inf(-1)
				for _, e := range evs {
					first, last = math.Min(first, e.AtS), math.Max(last, e.AtS)
				}
				k0 := math.Ceil((first - 1 - anchor.AtS) / period)
				lastFilled, firstFilled := -1, -1
				var hits []float64
				for k := k0; anchor.AtS+k*period <= last+1; k++ {
					t := anchor.AtS + k*period
					slots++
					for _, e := range evs {
						if covers(e, t) {
							if firstFilled < 0 {
								firstFilled = slots
							}
							lastFilled = slots
							filled++
							hits = append(hits, e.AtS)
							break
						}
					}
				}
				if filled < 3 {
					continue
				}
				span := lastFilled - firstFilled + 1
				share := float64(filled) / float64(span)
				at = hits
				better := filled > best.Count || filled == best.Count && (share > bestShare || share == bestShare && period > best.EveryS)
				if share >= 0.75 && better {
					bestShare = share
					best = result.Periodicity{Count: filled, EveryS: math.Round(period*10) / 10, AtS: at}
				}
			}
		}
	}
	return best, best.Count >= 3
}

// valid returns the values of xs that are not NaN.
func valid(xs []float64) []float64 {
	out := make([]float64, 0, len(xs))
	for _, x := range xs {
		if !math.IsNaN(x) {
			out = append(out, x)
		}
	}
	return out
}

// median is the median of the values of xs that are not NaN; NaN if none.
func median(xs []float64) float64 {
	v := valid(xs)
	if len(v) == 0 {
		return math.NaN()
	}
	slices.Sort(v)
	if n := len(v); n%2 == 1 {
		return v[n/2]
	} else {
		return (v[n/2-1] + v[n/2]) / 2
	}
}
