package metrics

import (
	"maps"
	"slices"
	"sort"
	"strconv"
	"time"

	"github.com/surge-load/surge/errclass"
	"github.com/surge-load/surge/result"
)

// Result assembles the measurements into a result document. active is the
// run's active load period; rates are per second of it without the warm-up
// (Result.MeasuredS). Call it after Finish; the caller fills in Tool, Run
// (apart from DurationS), Plan and Thresholds.
func (r *Recorder) Result(active time.Duration) *result.Result {
	r.state.Lock()
	defer r.state.Unlock()
	return r.result(active)
}

// Checkpoint assembles, during the run, the result of the intervals
// collected so far, marked incomplete (Run.Incomplete) with the time they
// cover (Run.CoveredS), which is also its active period. It never waits for
// more than one interval's fold, and the load does not wait for it.
func (r *Recorder) Checkpoint() *result.Result {
	r.state.Lock()
	defer r.state.Unlock()
	var covered time.Duration
	if n := len(r.series); n > 0 {
		last := r.series[n-1]
		covered = time.Duration((last.T + last.DurationS) * float64(time.Second))
	}
	res := r.result(covered)
	res.Run.Incomplete, res.Run.CoveredS = true, covered.Seconds()
	return res
}

func (r *Recorder) result(active time.Duration) *result.Result {
	res := &result.Result{
		SchemaVersion: result.SchemaVersion,
		Run:           result.Run{Start: r.start, DurationS: active.Seconds(), Segment: result.Segment{Index: 0, Count: 1}},
		Series:        slices.Clone(r.series),
	}
	if res.Series == nil {
		res.Series = []result.Point{}
	}
	if !r.warmEnd.IsZero() {
		w := r.warmup
		w.DurationS = max(r.warmEnd.Sub(r.start), 0).Seconds()
		res.Warmup = &w
	}
	measured := res.MeasuredS()
	total := newAggregate()
	perClass := map[errclass.Class]map[string]int64{}
	msgs := msgTable{}
	for id, st := range r.run {
		if st == nil {
			continue
		}
		name := r.endpointName(EndpointID(id))
		res.Endpoints = append(res.Endpoints, result.EndpointStats{Name: name, Stats: toStats(st, 0, measured)})
		total.merge(st)
		msgs.addTally(&st.tally, name)
		for class, e := range st.errors {
			if perClass[class] == nil {
				perClass[class] = map[string]int64{}
			}
			perClass[class][name] = e.count
		}
	}
	if res.Endpoints == nil {
		res.Endpoints = []result.EndpointStats{}
	}
	res.Totals = toStats(total, r.dropped, measured)
	res.Errors = errorStats(&total.tally, r.dropped, perClass, msgs)
	res.Generator = generatorOf(res.Series, r.lag)
	res.Thresholds = []result.ThresholdResult{}
	res.EndpointSeriesOmitted = r.seriesOmitted
	r.streamResult(res)
	return res
}

// toStats summarises st; dropped counts arrivals never sent.
func toStats(st *aggregate, dropped int64, durationS float64) result.Stats {
	s := result.Stats{
		Requests:             st.requests,
		Failures:             st.failures,
		NotSent:              st.notSent,
		Dropped:              dropped,
		BytesIn:              st.bytesIn,
		BytesOut:             st.bytesOut,
		Interim:              st.interim,
		Protocols:            maps.Clone(st.protos),
		Latency:              percentilesOfTally(st.latency, &st.tally),
		ServiceTime:          percentilesExact(st.service, st.svcMinNs, st.svcMaxNs, 0),
		Statuses:             map[string]int64{},
		Errors:               map[string]int64{},
		LatencyHistogram:     encodeHist(st.latency),
		ServiceTimeHistogram: encodeHist(st.service),
	}
	if durationS > 0 {
		s.RPS = float64(st.requests) / durationS
		s.OKRPS = float64(st.requests-st.failures) / durationS
	}
	s.OKLatency = percentilesExact(st.ok, st.okMinNs, st.okMaxNs, st.okSumNs)
	s.OKLatencyHistogram = encodeHist(st.ok)
	if n := st.requests + dropped + st.notSent; n > 0 {
		s.ErrorRate = float64(st.failures+dropped+st.notSent) / float64(n)
	}
	s.Timing.ConnectSYNRetransmits = st.synRetransmits
	for i, p := range timingPhases(&s.Timing) {
		p.SumUs, p.Max = st.phaseSumUs[i], msOf(st.phaseMaxUs[i])
		if st.requests > 0 {
			p.Mean = msOf(st.phaseSumUs[i]) / float64(st.requests)
		}
	}
	for code, n := range st.statuses {
		s.Statuses[strconv.Itoa(code)] = n
	}
	for class, e := range st.errors {
		s.Errors[string(class)] = e.count
	}
	if dropped > 0 {
		s.Errors[string(errclass.Dropped)] = dropped
	}
	return s
}

// errorStats lists the error classes, most frequent first.
func errorStats(c *tally, dropped int64, perEndpoint map[errclass.Class]map[string]int64, msgs msgTable) []result.ErrorStats {
	out := []result.ErrorStats{}
	for class, e := range c.errors {
		es := result.ErrorStats{Class: string(class), Count: e.count, Hint: class.Hint(), Endpoints: perEndpoint[class]}
		if len(e.statuses) > 0 && statusKept(class) {
			es.Statuses = map[string]int64{}
			for code, n := range e.statuses {
				es.Statuses[strconv.Itoa(code)] = n
			}
		}
		es.Samples = msgs.top(class)
		out = append(out, es)
	}
	if dropped > 0 {
		out = append(out, result.ErrorStats{Class: string(errclass.Dropped), Count: dropped, Hint: errclass.Dropped.Hint()})
	}
	sort.Slice(out, func(i, j int) bool {
		return out[i].Count > out[j].Count || out[i].Count == out[j].Count && out[i].Class < out[j].Class
	})
	return out
}

// generatorOf summarises the generator's health from the series and the
// run's scheduling lag.
func generatorOf(series []result.Point, lag *aggregate) result.Generator {
	g := result.Generator{Warnings: []string{}, FDsMax: -1}
	var cpuSum, spanSum float64
	for _, p := range series {
		gp := p.Generator
		cpuSum += gp.CPUPercent * p.DurationS
		spanSum += p.DurationS
		g.CPUPercentMax = max(g.CPUPercentMax, gp.CPUPercent)
		g.GCPauseTotalMs += gp.GCPauseMs
		g.GCPauseMaxMs = max(g.GCPauseMaxMs, gp.GCPauseMaxMs)
		g.GCCycles += gp.GCCycles
		g.RunqP99MaxMs = max(g.RunqP99MaxMs, gp.RunqP99Ms)
		g.GoroutinesMax = max(g.GoroutinesMax, gp.Goroutines)
		g.HeapBytesMax = max(g.HeapBytesMax, gp.HeapBytes)
		g.FDsMax = max(g.FDsMax, gp.FDs)
	}
	if spanSum > 0 {
		g.CPUPercentMean = cpuSum / spanSum
	}
	if n := lag.latency.TotalCount(); n > 0 {
		g.Lag = percentilesExact(lag.latency, 0, lag.latMaxNs, 0)
		g.Lag.Min = msOf(lag.latency.Min())
		g.LagHistogram = encodeHist(lag.latency)
	}
	return g
}
