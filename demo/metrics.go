package demo

import (
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	dto "github.com/prometheus/client_model/go"
)

// metricsNamespace prefixes every metric of the demo service.
const metricsNamespace = "surge_demo"

// metrics are the Prometheus metrics of one Service, in a registry of its
// own so that several Services can live in one process (as in tests).
type metrics struct {
	registry *prometheus.Registry

	inFlight         prometheus.Gauge
	requests         *prometheus.CounterVec
	durations        *prometheus.HistogramVec
	stalled          prometheus.Counter
	rejected         prometheus.Counter
	injectedFailures prometheus.Counter

	lockWaits        prometheus.Counter
	lockWaitTimeouts prometheus.Counter
	lockWaitSeconds  prometheus.Counter

	sseSubscriptions prometheus.Gauge
	ssePublished     prometheus.Counter
	sseDropped       prometheus.Counter
}

func newMetrics() *metrics {
	m := &metrics{registry: prometheus.NewRegistry()}
	f := factory{m.registry}
	m.inFlight = f.gauge("requests_in_flight", "Requests being handled, including queued and stalled ones; event streams leave once streaming.")
	m.requests = prometheus.NewCounterVec(prometheus.CounterOpts{
		Namespace: metricsNamespace, Name: "requests_total",
		Help: "Requests handled, by endpoint (route pattern) and status code.",
	}, []string{"endpoint", "code"})
	m.durations = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Namespace: metricsNamespace, Name: "request_duration_seconds",
		Help:    "Time to handle a request, by endpoint; event streams are not timed.",
		Buckets: prometheus.ExponentialBuckets(0.0005, 2, 16),
	}, []string{"endpoint"})
	m.registry.MustRegister(m.requests, m.durations)
	m.stalled = f.counter("stalled_requests_total", "Requests held by a stall.")
	m.rejected = f.counter("rejected_requests_total", "Requests answered 503 by the in-flight limit (queue full or queue wait timeout).")
	m.injectedFailures = f.counter("injected_failures_total", "Requests answered 500 by the fail rate knob.")
	m.lockWaits = f.counter("lock_waits_total", "Tree lock acquisitions that had to wait.")
	m.lockWaitTimeouts = f.counter("lock_wait_timeouts_total", "Tree lock waits that ran out (503 lock wait timeout exceeded).")
	m.lockWaitSeconds = f.counter("lock_wait_seconds_total", "Total time spent waiting for tree locks.")
	m.sseSubscriptions = f.gauge("sse_subscriptions", "Open server-sent event streams.")
	m.ssePublished = f.counter("sse_events_published_total", "Server-sent events published (ticks and broadcasts).")
	m.sseDropped = f.counter("sse_events_dropped_total", "Events skipped for subscribers that fell behind the history ring.")
	m.registry.MustRegister(
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
	)
	return m
}

// registerLogs exposes the log buffer state.
func (m *metrics) registerLogs(b *logBuffer) {
	f := factory{m.registry}
	f.gaugeFunc("log_buffer_lines", "Lines in the log buffer, including the batch being flushed.", func() float64 {
		return float64(b.buffered())
	})
	f.gaugeFunc("log_buffer_capacity_lines", "Capacity of the log buffer.", func() float64 {
		return float64(b.capacity())
	})
	f.counterFunc("log_lines_accepted_total", "Log lines accepted into the buffer.", func() float64 {
		return float64(b.accepted.Load())
	})
	f.counterFunc("log_lines_flushed_total", "Log lines flushed by bulk insert.", func() float64 {
		return float64(b.flushed.Load())
	})
	f.counterFunc("log_lines_rejected_total", "Log lines rejected with 503 because the buffer stayed full.", func() float64 {
		return float64(b.rejected.Load())
	})
}

// registerFaults exposes the in-flight limiter state.
func (m *metrics) registerFaults(fl *faults) {
	f := factory{m.registry}
	f.gaugeFunc("requests_processing", "Requests admitted past the in-flight limit and not yet done.", func() float64 {
		return float64(fl.processing.Load())
	})
	f.gaugeFunc("requests_queued", "Requests waiting for an in-flight slot.", func() float64 {
		return float64(fl.queued.Load())
	})
}

// observe counts one finished request.
func (m *metrics) observe(endpoint string, status int, elapsed time.Duration, timed bool) {
	m.requests.WithLabelValues(endpoint, strconv.Itoa(status)).Inc()
	if timed {
		m.durations.WithLabelValues(endpoint).Observe(elapsed.Seconds())
	}
}

// handler serves the registry in the Prometheus exposition formats.
func (m *metrics) handler() http.Handler {
	return promhttp.HandlerFor(m.registry, promhttp.HandlerOpts{})
}

// factory creates metrics in the demo namespace and registers them.
type factory struct{ reg *prometheus.Registry }

func (f factory) gauge(name, help string) prometheus.Gauge {
	g := prometheus.NewGauge(prometheus.GaugeOpts{Namespace: metricsNamespace, Name: name, Help: help})
	f.reg.MustRegister(g)
	return g
}

func (f factory) counter(name, help string) prometheus.Counter {
	c := prometheus.NewCounter(prometheus.CounterOpts{Namespace: metricsNamespace, Name: name, Help: help})
	f.reg.MustRegister(c)
	return c
}

func (f factory) gaugeFunc(name, help string, fn func() float64) {
	f.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Namespace: metricsNamespace, Name: name, Help: help}, fn))
}

func (f factory) counterFunc(name, help string, fn func() float64) {
	f.reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{Namespace: metricsNamespace, Name: name, Help: help}, fn))
}

// Requests returns how many requests the Service has answered on endpoint,
// a route pattern such as "POST /api/v1/login" ("unmatched" for the rest),
// with status code, or with any status if code is 0. Tests use it to
// compare what a load generator reports with what the server saw.
func (s *Service) Requests(endpoint string, code int) int {
	ch := make(chan prometheus.Metric, 64)
	go func() {
		s.m.requests.Collect(ch)
		close(ch)
	}()
	total := 0.0
	for m := range ch {
		var pb dto.Metric
		if m.Write(&pb) != nil {
			continue
		}
		var ep, c string
		for _, l := range pb.GetLabel() {
			switch l.GetName() {
			case "endpoint":
				ep = l.GetValue()
			case "code":
				c = l.GetValue()
			}
		}
		if ep == endpoint && (code == 0 || c == strconv.Itoa(code)) {
			total += pb.GetCounter().GetValue()
		}
	}
	return int(total)
}
