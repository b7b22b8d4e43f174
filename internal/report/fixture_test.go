package report

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"sync"
	"testing"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/surge-load/surge/analysis"
	"github.com/surge-load/surge/errclass"
	"github.com/surge-load/surge/result"
)

// readFixture reads a result from testdata: base.json and new.json are real
// runs of surge against its demo service (GET of a folder page at 150/s for
// 15 s, with stalls and failures; new.json with slower responses, longer
// stalls and more failures).
func readFixture(t testing.TB, name string) *result.Result {
	t.Helper()
	r, err := result.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// A synth describes a synthetic run, built by result with the same
// arithmetic as the recorder: real HdrHistograms per second and per
// endpoint, percentiles read from them. Its randomness is seeded, so the
// same synth gives the same result.
type synth struct {
	seed      uint64
	seconds   int
	endpoints []synthEndpoint
	// spikes add this many milliseconds to every latency in the seconds
	// listed.
	spikeAt []int
	spikeMs float64
	// rampS ramps the request rate up from zero over the first rampS seconds.
	rampS int
	// warmupS makes the first warmupS seconds a warm-up: their requests
	// are in the series and the result's warmup, not in its totals.
	warmupS int
	// In the seconds from outageFrom up to outageTo every request is
	// refused at once: the service collapses.
	outageFrom, outageTo int
	// refusalsX, if more than 1, multiplies the request rate during the
	// outage: a closed loop whose refusals come back at once sends many
	// more requests than it did while they succeeded.
	refusalsX float64
	// From second saturateFrom on (if not zero) the generator is saturated:
	// its CPU is busy and it starts work late.
	saturateFrom int
	// endpointPoints gives every point of the series its endpoints' shares
	// (result.EndpointPoint), as the recorder does.
	endpointPoints bool
	// The endpoint numbered stallEndpoint (from 1; 0: none) completes
	// nothing in the seconds from stallFrom up to stallTo, then what was
	// held, late, in the second after.
	stallEndpoint, stallFrom, stallTo int
}

type synthEndpoint struct {
	name      string
	rps       float64
	medianMs  float64
	sigma     float64 // of the log-normal latency
	failRate  float64 // fraction of requests failing with a 503
	timeoutMs float64 // requests slower than this fail as timeouts; 0: none
}

var fixtureStart = time.Date(2026, 3, 14, 9, 26, 53, 0, time.UTC)

func newHist() *hdr.Histogram { return hdr.New(1, int64(time.Hour/time.Microsecond), 3) }

// synthCache holds the results of synths already run: tests ask for the
// same ones many times, and building one is slow under the race detector.
var synthCache sync.Map // fmt.Sprint(synth) → *result.Result

// result runs the synth, or returns a copy of its earlier result. The copy
// is shallow: callers may replace fields, not change what they hold.
func (s synth) result() *result.Result {
	key := fmt.Sprintf("%+v", s)
	if r, ok := synthCache.Load(key); ok {
		c := *r.(*result.Result)
		return &c
	}
	r := s.build()
	synthCache.Store(key, r)
	c := *r
	return &c
}

// build runs the synth.
func (s synth) build() *result.Result {
	rng := rand.New(rand.NewPCG(s.seed, 0x5eed))
	type acc struct {
		h                    *hdr.Histogram
		minUs, maxUs         int64
		reqs, fails          int64
		statuses, errs       map[string]int64
		sumWaitUs, sumRecvUs int64
	}
	newAcc := func() *acc {
		return &acc{h: newHist(), minUs: math.MaxInt64, statuses: map[string]int64{}, errs: map[string]int64{}}
	}
	total := newAcc()
	eps := make([]*acc, len(s.endpoints))
	for i := range eps {
		eps[i] = newAcc()
	}
	res := &result.Result{
		SchemaVersion: result.SchemaVersion,
		Tool:          result.Tool{Name: "surge", Version: "0.1.0-test"},
		Run: result.Run{
			ID: fmt.Sprintf("20260314T092653Z-%08x", s.seed), Host: "loadgen-1", Target: "http://127.0.0.1:8080",
			Load:  fmt.Sprintf("closed model: %d users for %ds", 40, s.seconds),
			Start: fixtureStart, End: fixtureStart.Add(time.Duration(s.seconds)*time.Second + 40*time.Millisecond),
			DurationS: float64(s.seconds), Segment: result.Segment{Index: 0, Count: 1},
		},
		Plan: []byte(`{"scenarios":[{"name":"browse folders"},{"name":"upload logs"}]}`),
	}
	if s.warmupS > 0 {
		res.Warmup = &result.Warmup{DurationS: float64(s.warmupS)}
	}
	ph := newHist()
	eph := make([]*acc, len(s.endpoints)) // the endpoints' shares of the second
	samples := map[string]map[string]int64{}
	errEndpoints := map[string]map[string]int64{}
	for sec := 0; sec < s.seconds; sec++ {
		p := result.Point{T: float64(sec), DurationS: 1, Users: 40, Busy: 12 + int64(rng.IntN(8)), Errors: map[string]int64{}}
		ph.Reset()
		pmin, pmax := int64(math.MaxInt64), int64(0)
		for i, e := range s.endpoints {
			if s.endpointPoints {
				if eph[i] == nil {
					eph[i] = newAcc()
				}
				eph[i].h.Reset()
				eph[i].minUs, eph[i].maxUs, eph[i].reqs, eph[i].fails = math.MaxInt64, 0, 0, 0
			}
			rate := e.rps
			if s.rampS > 0 && sec < s.rampS {
				rate = e.rps * float64(sec+1) / float64(s.rampS)
				p.Users = int64(40 * (sec + 1) / s.rampS)
			}
			if s.refusalsX > 1 && sec >= s.outageFrom && sec < s.outageTo {
				rate *= s.refusalsX
			}
			n := int(math.Round(rate + rng.NormFloat64()*math.Sqrt(rate)))
			stalled := i+1 == s.stallEndpoint && sec >= s.stallFrom && sec < s.stallTo
			held := 0
			if stalled {
				n = 0
			} else if i+1 == s.stallEndpoint && sec == s.stallTo {
				held = int(rate) * (s.stallTo - s.stallFrom)
			}
			for k := range max(n+held, 0) {
				ms := e.medianMs * math.Exp(e.sigma*rng.NormFloat64())
				if k >= n {
					ms += 1000 * float64(s.stallTo-s.stallFrom) * rng.Float64()
				}
				for _, at := range s.spikeAt {
					if at == sec {
						ms += s.spikeMs * rng.Float64()
					}
				}
				class, status := "", ""
				switch {
				case sec >= s.outageFrom && sec < s.outageTo:
					ms, class = 0.3, "connect_refused"
				case e.timeoutMs > 0 && ms > e.timeoutMs:
					ms, class = e.timeoutMs, "timeout"
				case rng.Float64() < e.failRate:
					class, status = "http_5xx", "503"
				default:
					status = "200"
				}
				us := max(int64(ms*1000), 1)
				accs := []*acc{total, eps[i]}
				if s.endpointPoints {
					eph[i].h.RecordValue(max(int64(ms*1000), 1))
					eph[i].minUs, eph[i].maxUs = min(eph[i].minUs, max(int64(ms*1000), 1)), max(eph[i].maxUs, max(int64(ms*1000), 1))
					eph[i].reqs++
					if class != "" {
						eph[i].fails++
					}
				}
				if sec < s.warmupS {
					accs = nil
					res.Warmup.Requests++
					if class != "" {
						res.Warmup.Failures++
					}
				}
				for _, a := range accs {
					a.h.RecordValue(us)
					a.minUs, a.maxUs = min(a.minUs, us), max(a.maxUs, us)
					a.reqs++
					a.sumWaitUs += us * 9 / 10
					a.sumRecvUs += us / 10
					if status != "" {
						a.statuses[status]++
					}
					if class != "" {
						a.fails++
						a.errs[class]++
					}
				}
				ph.RecordValue(us)
				pmin, pmax = min(pmin, us), max(pmax, us)
				p.Requests++
				if class != "" {
					p.Failures++
					p.Errors[class]++
				}
				if class != "" && accs != nil {
					if samples[class] == nil {
						samples[class], errEndpoints[class] = map[string]int64{}, map[string]int64{}
					}
					msg := "503 Service Unavailable: <html><script>alert(1)</script></html>"
					switch class {
					case "timeout":
						msg = fmt.Sprintf("%s: context deadline exceeded (Client.Timeout exceeded while awaiting headers) after %gms", e.name, e.timeoutMs)
					case "connect_refused":
						msg = "dial tcp 127.0.0.1:8080: connect: connection refused"
					}
					samples[class][msg]++
					errEndpoints[class][e.name]++
				}
			}
		}
		p.RPS = float64(p.Requests)
		for i, a := range eph {
			if a != nil && a.reqs > 0 {
				p.Endpoints = append(p.Endpoints, result.EndpointPoint{Name: s.endpoints[i].name, Requests: a.reqs, Failures: a.fails,
					Latency: percentilesOf(a.h, a.minUs, a.maxUs), LatencyHistogram: encode(a.h)})
			}
		}
		p.Latency = percentilesOf(ph, pmin, pmax)
		p.LatencyHistogram = encode(ph)
		p.Generator = result.GeneratorPoint{CPUPercent: 20 + 10*rng.Float64(), Goroutines: 90, HeapBytes: 8 << 20, FDs: 60, LagP99Ms: 0.5 + rng.Float64(), LagMaxMs: 2}
		if s.saturateFrom > 0 && sec >= s.saturateFrom {
			p.Generator.CPUPercent, p.Generator.LagP99Ms, p.Generator.LagMaxMs = 96, 80+10*rng.Float64(), 120
			p.Generator.Arrivals, p.Generator.LateArrivals = 100, 5
		}
		if len(p.Errors) == 0 {
			p.Errors = nil
		}
		res.Series = append(res.Series, p)
	}
	stats := func(a *acc) result.Stats {
		st := result.Stats{
			Requests: a.reqs, Failures: a.fails, RPS: float64(a.reqs) / float64(s.seconds-s.warmupS),
			OKRPS:   float64(a.reqs-a.fails) / float64(s.seconds-s.warmupS),
			BytesIn: a.reqs * 1843, BytesOut: a.reqs * 212,
			Statuses: a.statuses, Errors: a.errs, LatencyHistogram: encode(a.h),
		}
		if a.reqs > 0 {
			st.ErrorRate = float64(a.fails) / float64(a.reqs)
			st.Latency = percentilesOf(a.h, a.minUs, a.maxUs)
			st.ServiceTime = st.Latency
			st.OKLatency = st.Latency // the fixture does not tell successes apart
			n := float64(a.reqs)
			st.Timing = result.TimingStats{
				Blocked: result.PhaseStats{Mean: 0.012, Max: 1.5},
				Connect: result.PhaseStats{Mean: 0.031, Max: 2.1},
				Send:    result.PhaseStats{Mean: 0.02, Max: 0.4},
				Wait:    result.PhaseStats{Mean: math.Round(float64(a.sumWaitUs)/n) / 1000, Max: st.Latency.Max, SumUs: a.sumWaitUs},
				Receive: result.PhaseStats{Mean: math.Round(float64(a.sumRecvUs)/n) / 1000, Max: st.Latency.Max / 10, SumUs: a.sumRecvUs},
			}
		}
		return st
	}
	res.Totals = stats(total)
	for i, e := range s.endpoints {
		res.Endpoints = append(res.Endpoints, result.EndpointStats{Name: e.name, Stats: stats(eps[i])})
	}
	for _, class := range []string{"http_5xx", "timeout", "connect_refused"} {
		n := total.errs[class]
		if n == 0 {
			continue
		}
		es := result.ErrorStats{Class: class, Count: n, Endpoints: errEndpoints[class]}
		switch class {
		case "http_5xx":
			es.Hint = "the server failed to handle the request (5xx): look at its logs"
			es.Statuses = map[string]int64{"503": n}
		case "timeout":
			es.Hint = "connected, but no complete response within the timeout: the server is overloaded or stuck"
		case "connect_refused":
			es.Hint = errclass.ConnectRefused.Hint()
		}
		for msg, c := range samples[class] {
			es.Samples = append(es.Samples, result.Message{Message: msg, Count: c})
		}
		sort.Slice(es.Samples, func(i, j int) bool { return es.Samples[i].Message < es.Samples[j].Message })
		res.Errors = append(res.Errors, es)
	}
	sort.SliceStable(res.Errors, func(i, j int) bool { return res.Errors[i].Count > res.Errors[j].Count })
	res.Thresholds = []result.ThresholdResult{
		{Expr: "p95<250ms", Metric: "p95", Actual: res.Totals.Latency.P95, Limit: 250, Unit: "ms", OK: res.Totals.Latency.P95 < 250},
		{Expr: "errors<1%", Metric: "errors", Actual: 100 * res.Totals.ErrorRate, Limit: 1, Unit: "%", OK: res.Totals.ErrorRate < 0.01},
	}
	res.Generator = result.Generator{Cores: 2, CPUPercentMean: 25, CPUPercentMax: 31, Lag: result.Percentiles{P50: 0.4, P99: 1.4, Max: 2}, GoroutinesMax: 95, HeapBytesMax: 9 << 20, FDsMax: 61, Warnings: []string{}}
	// The findings, as a run makes them from its series.
	analysis.JudgeGenerator(res)
	res.Collapse = analysis.DetectCollapse(res)
	return res
}

// percentilesOf summarises h as the recorder does: percentiles clamped to
// the exact extremes, in milliseconds.
func percentilesOf(h *hdr.Histogram, minUs, maxUs int64) result.Percentiles {
	if h.TotalCount() == 0 {
		return result.Percentiles{}
	}
	q := h.ValueAtPercentilesSlice([]float64{50, 90, 95, 99, 99.9})
	ms := func(us int64) float64 { return float64(min(max(us, minUs), maxUs)) / 1000 }
	return result.Percentiles{Min: ms(minUs), Mean: math.Round(h.Mean()) / 1000,
		P50: ms(q[0]), P90: ms(q[1]), P95: ms(q[2]), P99: ms(q[3]), P999: ms(q[4]), Max: ms(maxUs)}
}

func encode(h *hdr.Histogram) string {
	if h.TotalCount() == 0 {
		return ""
	}
	b, err := h.Encode(hdr.V2CompressedEncodingCookieBase)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// shop is a synthetic run of three endpoints with a latency spike, 503s
// and timeouts: the fixture of the multi-endpoint report.
var shop = synth{
	seed: 1, seconds: 90, spikeAt: []int{30, 31, 62}, spikeMs: 900, rampS: 10,
	endpoints: []synthEndpoint{
		{name: "GET /api/v1/folders/{id}", rps: 120, medianMs: 18, sigma: 0.35, failRate: 0.002},
		{name: "POST /api/v1/folders", rps: 30, medianMs: 45, sigma: 0.5, failRate: 0.02},
		{name: "PATCH /api/v1/folders/{id}", rps: 10, medianMs: 120, sigma: 0.6, timeoutMs: 1000},
	},
}

// polling is shop with the endpoints' shares of every second, in which
// the folder listing stalls for two seconds (42–43 s) while the others go
// on: the fixture of the charts by endpoint.
var polling = func() synth {
	s := shop
	s.endpointPoints, s.stallEndpoint, s.stallFrom, s.stallTo = true, 1, 42, 44
	return s
}()

// outage is a synthetic run of one endpoint with a warm-up, a collapse
// (every connection refused for eight seconds, then a recovery) and a
// generator saturated for its last ten seconds: the fixture of the
// findings a report shows on its charts. Its seed puts the peak, which
// the collapse must follow, twelve seconds before the outage.
// refusals is an outage whose refusals come back at once, ten times as
// many per second as the successes were.
var refusals = func() synth { s := outage; s.refusalsX = 10; return s }()

var outage = synth{
	seed: 21, seconds: 60, rampS: 5, warmupS: 5, outageFrom: 30, outageTo: 38, saturateFrom: 50,
	endpoints: []synthEndpoint{
		{name: "GET /api/v1/folders/{id}", rps: 150, medianMs: 15, sigma: 0.3, failRate: 0.002},
	},
}
