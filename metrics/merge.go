package metrics

import (
	"fmt"
	"maps"
	"math"
	"strconv"

	"github.com/surge-load/surge/errclass"
	"github.com/surge-load/surge/result"
)

// Merge combines the partial results of the segments of one plan, run on
// several machines, into the result a single run would have produced:
// counts add, histograms merge exactly, and percentiles are recomputed from
// the merged histograms. Thresholds are left empty for the caller to
// evaluate once on the whole. The merged result is sanitized
// (result.Result.Sanitize), whatever the parts held.
func Merge(parts ...*result.Result) (*result.Result, error) {
	if len(parts) == 0 {
		return nil, fmt.Errorf("merge: no results given")
	}
	if err := CheckParts(parts); err != nil {
		return nil, fmt.Errorf("merge: %w", err)
	}
	out := &result.Result{SchemaVersion: result.SchemaVersion, Tool: parts[0].Tool, Plan: parts[0].Plan, Thresholds: []result.ThresholdResult{}}
	out.Run = parts[0].Run
	out.Run.Merged, out.Run.Segment = mergedRun(parts)
	for _, p := range parts {
		if p.Run.PlanHash != "" {
			out.Run.PlanHash = p.Run.PlanHash
		}
	}
	var order []string
	eps := map[string]*aggregate{}
	total := newAggregate()
	lag := newAggregate()
	var dropped int64
	perClass := map[errclass.Class]map[string]int64{}
	msgs := msgTable{}
	for i, p := range parts {
		if p.Run.Start.Before(out.Run.Start) {
			out.Run.Start = p.Run.Start
		}
		if p.Run.End.After(out.Run.End) {
			out.Run.End = p.Run.End
		}
		out.Run.DurationS = math.Max(out.Run.DurationS, p.Run.DurationS)
		out.Run.Interrupted = out.Run.Interrupted || p.Run.Interrupted
		if p.Run.Incomplete {
			// A checkpoint among the parts: the whole covers no more than
			// the shortest of them.
			if !out.Run.Incomplete || p.Run.CoveredS < out.Run.CoveredS {
				out.Run.CoveredS = p.Run.CoveredS
			}
			out.Run.Incomplete = true
		}
		dropped += p.Totals.Dropped
		out.EndpointSeriesOmitted = max(out.EndpointSeriesOmitted, p.EndpointSeriesOmitted)
		for _, e := range p.Endpoints {
			st, err := fromStats(&e.Stats)
			if err != nil {
				return nil, fmt.Errorf("merge: part %d, endpoint %q: %w", i+1, e.Name, err)
			}
			if eps[e.Name] == nil {
				eps[e.Name] = newAggregate()
				order = append(order, e.Name)
			}
			eps[e.Name].merge(st)
			total.merge(st)
			for class, n := range e.Errors {
				c := errclass.Class(class)
				if perClass[c] == nil {
					perClass[c] = map[string]int64{}
				}
				perClass[c][e.Name] += n
			}
		}
		for _, e := range p.Errors {
			c := errclass.Class(e.Class)
			for _, m := range e.Samples {
				if len(m.Endpoints) == 0 {
					msgs.add(c, m.Message, m.Example, "", m.Count)
				}
				for ep, n := range m.Endpoints {
					msgs.add(c, m.Message, m.Example, ep, n)
				}
			}
		}
		if h, err := decodeHist(p.Generator.LagHistogram); err == nil {
			lag.latency.Merge(h)
			lag.latMaxNs = max(lag.latMaxNs, NsOf(p.Generator.Lag.Max))
		}
		for _, w := range p.Generator.Warnings {
			out.Generator.Warnings = append(out.Generator.Warnings, fmt.Sprintf("segment %d: %s", p.Run.Segment.Index, w))
		}
	}
	for _, p := range parts {
		if w := p.Warmup; w != nil {
			if out.Warmup == nil {
				out.Warmup = &result.Warmup{}
			}
			out.Warmup.DurationS = math.Max(out.Warmup.DurationS, w.DurationS)
			out.Warmup.Requests += w.Requests
			out.Warmup.Failures += w.Failures
			out.Warmup.Dropped += w.Dropped
		}
	}
	measured := out.MeasuredS()
	for _, name := range order {
		out.Endpoints = append(out.Endpoints, result.EndpointStats{Name: name, Stats: toStats(eps[name], 0, measured)})
	}
	out.Totals = toStats(total, dropped, measured)
	out.Errors = errorStats(&total.tally, dropped, perClass, msgs)
	series, err := mergeSeries(parts)
	if err != nil {
		return nil, err
	}
	out.Series = series
	if err := mergeStreams(out, parts); err != nil {
		return nil, err
	}
	out.Monitor = mergeMonitor(parts)
	warnings := out.Generator.Warnings
	out.Generator = generatorOf(series, lag)
	out.Generator.Cores = parts[0].Generator.Cores
	if warnings != nil {
		out.Generator.Warnings = warnings
	}
	// Parts may come from anywhere (a file, a runner of surge collect).
	out.Sanitize()
	return out, nil
}

// fromStats rebuilds the aggregate behind s.
func fromStats(s *result.Stats) (*aggregate, error) {
	st := newAggregate()
	var err error
	if st.latency, err = decodeHist(s.LatencyHistogram); err != nil {
		return nil, fmt.Errorf("latency: %w", err)
	}
	if st.service, err = decodeHist(s.ServiceTimeHistogram); err != nil {
		return nil, fmt.Errorf("service time: %w", err)
	}
	st.requests, st.failures, st.notSent = s.Requests, s.Failures, s.NotSent
	st.synRetransmits = s.Timing.ConnectSYNRetransmits
	st.bytesIn, st.bytesOut = s.BytesIn, s.BytesOut
	st.interim = s.Interim
	st.protos = maps.Clone(s.Protocols)
	if st.ok, err = decodeHist(s.OKLatencyHistogram); err != nil {
		return nil, fmt.Errorf("latency of successes: %w", err)
	}
	st.okMinNs, st.okMaxNs = NsOf(s.OKLatency.Min), NsOf(s.OKLatency.Max)
	st.okSumNs = int64(math.Round(s.OKLatency.Mean * 1e6 * float64(st.ok.TotalCount())))
	st.latMinNs, st.latMaxNs = NsOf(s.Latency.Min), NsOf(s.Latency.Max)
	st.svcMinNs, st.svcMaxNs = NsOf(s.ServiceTime.Min), NsOf(s.ServiceTime.Max)
	st.latSumNs = int64(math.Round(s.Latency.Mean * 1e6 * float64(s.Requests)))
	for i, p := range timingPhases(&s.Timing) {
		st.phaseSumUs[i], st.phaseMaxUs[i] = p.SumUs, usOf(p.Max)
	}
	for code, n := range s.Statuses {
		c, err := strconv.Atoi(code)
		if err != nil {
			return nil, fmt.Errorf("status %q is not a number", code)
		}
		if st.statuses == nil {
			st.statuses = map[int]int64{}
		}
		st.statuses[c] = n
	}
	for class, n := range s.Errors {
		if errclass.Class(class) == errclass.Dropped {
			continue
		}
		e := st.errClass(errclass.Class(class))
		e.count = n
		if class == string(errclass.HTTP4xx) || class == string(errclass.HTTP5xx) {
			e.statuses = map[int]int64{}
			for code, m := range st.statuses {
				if errclass.FromStatus(code) == errclass.Class(class) {
					e.statuses[code] = m
				}
			}
		}
	}
	return st, nil
}

// mergeSeries adds up the parts' points interval by interval; parts that
// started at the agreed time have their intervals aligned.
func mergeSeries(parts []*result.Result) ([]result.Point, error) {
	type slot struct {
		p   result.Point
		all *aggregate
		eps endpointSum
	}
	var slots []*slot
	for i, part := range parts {
		offset := part.Run.Start.Sub(parts[0].Run.Start)
		for _, q := range part.Series {
			k := int(math.Round((q.T + offset.Seconds())))
			if k < 0 {
				k = 0
			}
			for k >= len(slots) {
				slots = append(slots, nil)
			}
			s := slots[k]
			if s == nil {
				s = &slot{all: newAggregate(), p: result.Point{T: float64(k), DurationS: q.DurationS}}
				slots[k] = s
			}
			h, err := decodeHist(q.LatencyHistogram)
			if err != nil {
				return nil, fmt.Errorf("merge: part %d, series at %gs: %w", i+1, q.T, err)
			}
			if q.Requests > 0 {
				c := pointTally(q.Requests, 0, &q.Latency)
				s.all.tally.merge(&c)
				s.all.latency.Merge(h)
			}
			for _, e := range q.Endpoints {
				if err := s.eps.add(&e); err != nil {
					return nil, fmt.Errorf("merge: part %d, series at %gs, endpoint %q: %w", i+1, q.T, e.Name, err)
				}
			}
			s.p.DurationS = math.Max(s.p.DurationS, q.DurationS)
			s.p.Users += q.Users
			s.p.Busy += q.Busy
			s.p.Failures += q.Failures
			s.p.Dropped += q.Dropped
			mergeCounts(&s.p.Errors, q.Errors)
			g := &s.p.Generator
			g.CPUPercent = math.Max(g.CPUPercent, q.Generator.CPUPercent)
			g.Goroutines += q.Generator.Goroutines
			g.HeapBytes += q.Generator.HeapBytes
			g.GCPauseMs += q.Generator.GCPauseMs
			g.GCCycles += q.Generator.GCCycles
			g.GCPauseMaxMs = math.Max(g.GCPauseMaxMs, q.Generator.GCPauseMaxMs)
			g.RunqP99Ms = math.Max(g.RunqP99Ms, q.Generator.RunqP99Ms)
			g.FDs += q.Generator.FDs
			g.LagP99Ms = math.Max(g.LagP99Ms, q.Generator.LagP99Ms)
			g.LagMaxMs = math.Max(g.LagMaxMs, q.Generator.LagMaxMs)
			g.Arrivals += q.Generator.Arrivals
			g.LateArrivals += q.Generator.LateArrivals
			addStreamPoint(&s.p.Streams, q.Streams)
		}
	}
	out := make([]result.Point, 0, len(slots))
	for k, s := range slots {
		if s == nil {
			out = append(out, result.Point{T: float64(k), DurationS: 1})
			continue
		}
		s.p.Requests = s.all.requests
		s.p.Latency = percentilesOfTally(s.all.latency, &s.all.tally)
		s.p.LatencyHistogram = encodeHist(s.all.latency)
		s.p.Endpoints = s.eps.points()
		if s.p.DurationS > 0 {
			s.p.RPS = float64(s.p.Requests) / s.p.DurationS
		}
		out = append(out, s.p)
	}
	return out, nil
}
