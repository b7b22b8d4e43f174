// Package livemetrics holds a running test as Prometheus metrics: counters,
// gauges and a latency histogram (classic buckets and a native histogram)
// fed from the recorder's ticks. The live page's /metrics serves them, and
// the remote-write and OTLP outputs send the same series.
package livemetrics

import (
	"fmt"
	"net/http"
	"strconv"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	dto "github.com/prometheus/client_model/go"

	"github.com/surge-load/surge/metrics"
)

// The metric names, as docs/live.md lists them.
const (
	RequestsTotal   = "surge_requests_total"
	DroppedTotal    = "surge_dropped_total"
	RequestDuration = "surge_request_duration_seconds"
	Users           = "surge_users"
	BusyUsers       = "surge_busy_users"
	StreamsOpen     = "surge_streams_open"
)

// LatencyBuckets are the classic buckets of surge_request_duration_seconds,
// in seconds. The native histogram beside them has a bucket every 9%.
var LatencyBuckets = []float64{
	0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60,
}

// A Set is the live run's metrics. Add, AddDropped and Gather may be
// called from different goroutines.
type Set struct {
	reg        *prometheus.Registry
	scenarioOf map[string]string

	requests *prometheus.CounterVec
	dropped  *prometheus.CounterVec
	duration *prometheus.HistogramVec
	users    prometheus.Gauge
	busy     prometheus.Gauge
	streams  prometheus.Gauge
	gen      generatorGauges

	mu          sync.Mutex
	droppedSeen map[string]int64
}

// SegmentLabel is the label, on every series of a segment of a split
// plan, that tells the segments apart: "I/N" for segment I of N. Without
// it the segments, streaming to one backend, would write the same series.
const SegmentLabel = "segment"

// Segment returns the value of SegmentLabel for segment index of count,
// or "" for a plan that is not split.
func Segment(index, count int) string {
	if count <= 1 {
		return ""
	}
	return fmt.Sprintf("%d/%d", index, count)
}

// New returns an empty Set. scenarioOf names the scenario of each
// endpoint, for the scenario label; an endpoint it does not name has an
// empty one. segment (see Segment), if not empty, labels every series
// with SegmentLabel.
func New(scenarioOf map[string]string, segment string) *Set {
	s := &Set{
		reg:         prometheus.NewRegistry(),
		scenarioOf:  scenarioOf,
		droppedSeen: map[string]int64{},
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: RequestsTotal,
			Help: "Operations sent, by outcome: status is the protocol status (empty when none arrived), class the error class (ok on success).",
		}, []string{"scenario", "endpoint", "status", "class"}),
		dropped: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: DroppedTotal,
			Help: "Arrivals never sent because no virtual user was free (open model).",
		}, []string{"scenario"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:                            RequestDuration,
			Help:                            "Latency of operations, from the intended start for arrivals.",
			Buckets:                         LatencyBuckets,
			NativeHistogramBucketFactor:     1.1,
			NativeHistogramMaxBucketNumber:  200,
			NativeHistogramZeroThreshold:    prometheus.NativeHistogramZeroThresholdZero,
			NativeHistogramMinResetDuration: 0,
		}, []string{"scenario", "endpoint"}),
		users:   prometheus.NewGauge(prometheus.GaugeOpts{Name: Users, Help: "Live virtual users."}),
		busy:    prometheus.NewGauge(prometheus.GaugeOpts{Name: BusyUsers, Help: "Virtual users inside an iteration."}),
		streams: prometheus.NewGauge(prometheus.GaugeOpts{Name: StreamsOpen, Help: "Long-lived connections (SSE, WebSocket) open."}),
		gen:     newGeneratorGauges(),
	}
	var reg prometheus.Registerer = s.reg
	if segment != "" {
		reg = prometheus.WrapRegistererWith(prometheus.Labels{SegmentLabel: segment}, reg)
	}
	reg.MustRegister(s.requests, s.dropped, s.duration, s.users, s.busy, s.streams)
	s.gen.register(reg)
	return s
}

// Add counts one interval.
func (s *Set) Add(t *metrics.Tick) {
	for i := range t.Endpoints {
		ep := &t.Endpoints[i]
		sc := s.scenarioOf[ep.Name]
		for _, o := range ep.Outcomes {
			s.requests.WithLabelValues(sc, ep.Name, StatusLabel(o.Status), ClassLabel(o.Class)).Add(float64(o.Count))
		}
		h := s.duration.WithLabelValues(sc, ep.Name)
		for _, b := range ep.LatencyBuckets {
			v := float64(b.UpperUs) / 1e6
			for range b.Count {
				h.Observe(v)
			}
		}
	}
	p := &t.Point
	s.users.Set(float64(p.Users))
	s.busy.Set(float64(p.Busy))
	if p.Streams != nil {
		s.streams.Set(float64(p.Streams.Open))
	}
	s.gen.set(&p.Generator)
}

// AddDropped sets the arrivals dropped so far by each scenario (running
// totals, as counted by the load models).
func (s *Set) AddDropped(total map[string]int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for sc, n := range total {
		if d := n - s.droppedSeen[sc]; d > 0 {
			s.dropped.WithLabelValues(sc).Add(float64(d))
			s.droppedSeen[sc] = n
		} else if _, ok := s.droppedSeen[sc]; !ok {
			s.dropped.WithLabelValues(sc)
			s.droppedSeen[sc] = n
		}
	}
}

// Gather returns the metrics as they are now.
func (s *Set) Gather() ([]*dto.MetricFamily, error) { return s.reg.Gather() }

// Handler serves the metrics in the Prometheus exposition formats: text,
// OpenMetrics, or protobuf (the only one that carries native histograms)
// as the scraper asks.
func (s *Set) Handler() http.Handler {
	return promhttp.HandlerFor(s.reg, promhttp.HandlerOpts{EnableOpenMetrics: true})
}

// StatusLabel is the status label of an operation with status st.
func StatusLabel(st int) string {
	if st == 0 {
		return ""
	}
	return strconv.Itoa(st)
}

// ClassLabel is the class label of an operation that failed with class
// ("" on success).
func ClassLabel(class string) string {
	if class == "" {
		return "ok"
	}
	return class
}
