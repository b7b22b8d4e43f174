// Package output streams a running test to the monitoring stacks people
// already have: Prometheus remote write, InfluxDB, OpenTelemetry (OTLP/HTTP)
// and a JSON-lines file. Each Output runs in its own goroutine behind a
// bounded queue: a backend that is slow or down never slows the load; the
// points it missed are dropped and counted, and at the end each output
// flushes within a bounded time. The result document stays the source of
// truth.
package output

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	dto "github.com/prometheus/client_model/go"

	"github.com/surge-load/surge/metrics"
	"github.com/surge-load/surge/result"
	"github.com/surge-load/surge/sanitize"
)

// The kinds of output, as --output KIND=URL names them.
const (
	KindPrometheusRW = "prometheus-rw"
	KindInfluxDB     = "influxdb"
	KindOTLP         = "otlp"
	KindJSONL        = "jsonl"
)

// Kinds lists the kinds of output.
var Kinds = []string{KindPrometheusRW, KindInfluxDB, KindOTLP, KindJSONL}

// QueueLen is how many seconds of points an output holds while its backend
// is busy; past it, new points are dropped.
const QueueLen = 60

// WriteTimeout bounds one write to a backend.
const WriteTimeout = 2 * time.Second

// A Frame is one interval of the run as the outputs see it: the recorder's
// tick and, for outputs that send Prometheus series, the live metrics as
// they were after it.
type Frame struct {
	Time     time.Time // the end of the interval
	Start    time.Time // the start of the run
	Tick     *metrics.Tick
	Families []*dto.MetricFamily
	// Scenario names the scenario of each endpoint.
	Scenario map[string]string
	// Segment, for a segment of a split plan, tells it from the others
	// on one backend (livemetrics.Segment; the families carry it too).
	Segment string
}

// A writer sends frames to one backend.
type writer interface {
	write(ctx context.Context, frames []*Frame) error
	close() error
}

// An Output sends the run's frames to one backend from its own goroutine.
type Output struct {
	kind, target string
	families     bool // whether it sends Prometheus series
	w            writer

	q      chan *Frame // nil while not started
	ctx    context.Context
	cancel context.CancelFunc
	done   chan struct{}

	offered, sent, queueFull, failed atomic.Int64
	mu                               sync.Mutex
	lastErr                          string
}

// Parse reads an output's specification, KIND=URL (or jsonl=FILE), and
// checks it; nothing is contacted until Start.
func Parse(spec string) (*Output, error) {
	kind, target, ok := strings.Cut(spec, "=")
	if !ok || target == "" {
		return nil, fmt.Errorf("output %q: want KIND=URL, such as prometheus-rw=http://127.0.0.1:9090/api/v1/write (kinds: %s)", spec, strings.Join(Kinds, ", "))
	}
	o := &Output{kind: kind, target: target}
	var err error
	switch kind {
	case KindPrometheusRW:
		var u *url.URL
		if u, err = httpURL(target, "/api/v1/write"); err == nil {
			o.w, o.families = &promRW{url: u.String()}, true
		}
	case KindInfluxDB:
		o.w, err = newInflux(target)
	case KindOTLP:
		var u *url.URL
		if u, err = httpURL(target, "/v1/metrics"); err == nil {
			o.w, o.families = &otlp{url: u.String()}, true
		}
	case KindJSONL:
		o.w = &jsonl{path: target}
	default:
		return nil, fmt.Errorf("output %q: unknown kind %q; want one of %s", spec, kind, strings.Join(Kinds, ", "))
	}
	if err != nil {
		return nil, fmt.Errorf("output %q: %w", spec, err)
	}
	return o, nil
}

// httpURL checks that s is an absolute http(s) URL, giving it path def if
// it has none.
func httpURL(s, def string) (*url.URL, error) {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("want an absolute http:// or https:// URL, such as http://127.0.0.1:9090%s", def)
	}
	if u.Path == "" || u.Path == "/" {
		u.Path = def
	}
	return u, nil
}

// Kind is the output's kind.
func (o *Output) Kind() string { return o.kind }

// WantsFamilies reports whether the output sends Prometheus series, so
// that frames offered to it need Families.
func (o *Output) WantsFamilies() bool { return o.families }

// Start starts the output's goroutine. An output closed may be started
// again, for another run; its counts go on.
func (o *Output) Start() {
	if o.q != nil {
		return
	}
	o.q = make(chan *Frame, QueueLen)
	o.ctx, o.cancel = context.WithCancel(context.Background())
	o.done = make(chan struct{})
	go o.run()
}

// Offer queues f for sending. It never waits: when the queue is full the
// frame is dropped and counted. Offer may be called only between Start
// and Close, from one goroutine.
func (o *Output) Offer(f *Frame) {
	o.offered.Add(1)
	select {
	case o.q <- f:
	default:
		o.queueFull.Add(1)
	}
}

func (o *Output) run() {
	defer close(o.done)
	batch := make([]*Frame, 0, QueueLen)
	for f := range o.q {
		batch = append(batch[:0], f)
	more:
		for len(batch) < cap(batch) {
			select {
			case g, ok := <-o.q:
				if !ok {
					break more
				}
				batch = append(batch, g)
			default:
				break more
			}
		}
		if o.ctx.Err() != nil { // past the flush deadline
			o.failed.Add(int64(len(batch)))
			continue
		}
		ctx, cancel := context.WithTimeout(o.ctx, WriteTimeout)
		err := o.w.write(ctx, batch)
		cancel()
		if err != nil {
			o.failed.Add(int64(len(batch)))
			o.mu.Lock()
			o.lastErr = err.Error()
			o.mu.Unlock()
			continue
		}
		o.sent.Add(int64(len(batch)))
	}
}

// Close stops taking frames, sends what is queued within flush, and
// returns what the output did. Frames not sent by then are dropped.
func (o *Output) Close(flush time.Duration) result.OutputStats {
	o.Start()
	close(o.q)
	t := time.NewTimer(flush)
	select {
	case <-o.done:
	case <-t.C:
		o.cancel()
		<-o.done
	}
	t.Stop()
	o.cancel()
	o.q = nil
	cerr := o.w.close()
	st := result.OutputStats{
		Kind:            o.kind,
		Target:          sanitize.URL(o.target),
		Points:          o.offered.Load(),
		Sent:            o.sent.Load(),
		DroppedQueue:    o.queueFull.Load(),
		DroppedFailed:   o.failed.Load(),
		LastError:       o.lastErr,
		FlushedWithinMs: flush.Milliseconds(),
	}
	st.Dropped = st.DroppedQueue + st.DroppedFailed
	if n, ok := o.w.(interface{ Note() string }); ok {
		st.Note = n.Note()
	}
	if cerr != nil && st.LastError == "" {
		st.LastError = cerr.Error()
	}
	return st
}

// errStatus is a backend's refusal.
type errStatus struct {
	code int
	body string
}

func (e *errStatus) Error() string {
	return fmt.Sprintf("backend answered %d: %s", e.code, strings.TrimSpace(e.body))
}
