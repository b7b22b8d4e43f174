package monitor

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/surge-load/surge/result"
)

// A sampler reads one source. Each call returns the source's values for the
// interval since the previous call: gauges always, rates (per second) once
// there is a previous reading to take the difference from.
type sampler interface {
	sample(ctx context.Context) ([]reading, error)
}

// A limiter knows the CPU cores and memory bytes its source may use.
type limiter interface {
	limits() (cpuCores float64, memoryBytes int64)
}

// A noter says what its source cannot measure.
type noter interface {
	notes() []string
}

// A reading is one value of a sample.
type reading struct {
	name, unit string
	value      float64
}

// Sampling is the monitoring of a run in progress: one goroutine per
// source.
type Sampling struct {
	tracks []*track
	stop   chan struct{}
	wg     sync.WaitGroup
}

// Start begins sampling every source on the timeline that begins at start:
// source s is read at start + k×s.Interval, and the values at k describe
// the interval from k-1 to k. It returns at once; a source that cannot be
// opened (a process:PID that does not exist yet) records gaps until it
// can. Stop ends the sampling.
func Start(specs []Spec, start time.Time) *Sampling {
	m := &Sampling{stop: make(chan struct{})}
	for _, s := range specs {
		m.launch(newTrack(s, start))
	}
	return m
}

func newTrack(s Spec, start time.Time) *track {
	t := &track{spec: s, start: start, index: map[string]int{}, busy: -1, done: make(chan struct{})}
	t.src = result.MonitorSource{Name: s.Name, Spec: s.Raw, Kind: s.Kind, IntervalS: s.Interval.Seconds(),
		T: []float64{}, Series: []result.MonitorSeries{}, Gaps: []result.MonitorGap{}}
	return t
}

// launch starts sampling t in a goroutine of its own.
func (m *Sampling) launch(t *track) {
	m.tracks = append(m.tracks, t)
	m.wg.Add(1)
	go func() { defer m.wg.Done(); defer close(t.done); t.run(m.stop) }()
}

// stopWait is how long Stop waits for a source still answering.
const stopWait = time.Second

// Stop ends the sampling and returns what was measured, waiting at most a
// second for sources in the middle of a sample: a source that hangs
// beyond that is left behind, with a gap saying so.
func (m *Sampling) Stop() *result.Monitor {
	close(m.stop)
	deadline := time.NewTimer(stopWait)
	defer deadline.Stop()
	out := &result.Monitor{Sources: []result.MonitorSource{}}
	for _, t := range m.tracks {
		select {
		case <-t.done:
		case <-deadline.C:
		}
		out.Sources = append(out.Sources, t.finish())
	}
	return out
}

// A track is one source being sampled and what it has recorded.
type track struct {
	spec  Spec
	start time.Time
	s     sampler
	done  chan struct{}

	mu     sync.Mutex
	src    result.MonitorSource
	index  map[string]int // series name → index in src.Series
	busy   int            // the tick being sampled, -1 if none
	closed bool
}

func (t *track) run(stop <-chan struct{}) {
	iv := t.spec.Interval
	timer := time.NewTimer(0)
	defer timer.Stop()
	for k := 0; ; {
		at := t.start.Add(time.Duration(k) * iv)
		timer.Reset(time.Until(at))
		select {
		case <-stop:
			return
		case <-timer.C:
		}
		// The answer must come before the next tick.
		ctx, cancel := context.WithDeadline(context.Background(), at.Add(iv))
		t.setBusy(k)
		rs, err := t.sample(ctx, stop)
		t.setBusy(-1)
		cancel()
		took := time.Since(at)
		select {
		case <-stop:
			if k > 0 && err != nil {
				t.gap(k-1, "did not answer by the end of the run")
			} else if k > 0 {
				t.record(k-1, rs)
			}
			return
		default:
		}
		if k > 0 {
			if err != nil {
				t.gap(k-1, reason(err, iv))
			} else {
				t.record(k-1, rs)
			}
		}
		next := k + 1
		// A tick more than half an interval past is missed: its interval
		// gets a gap, and sampling goes on at the next one.
		if late := int((time.Since(t.start) - iv/2) / iv); late >= next {
			for j := next; j <= late; j++ {
				t.gap(j-1, fmt.Sprintf("answered in %s, slower than its %s interval", took.Round(time.Millisecond), iv))
			}
			next = late + 1
		}
		k = next
	}
}

// sample opens the source if need be and reads it.
func (t *track) sample(ctx context.Context, stop <-chan struct{}) ([]reading, error) {
	if t.s == nil {
		s, err := open(t.spec)
		if err != nil {
			return nil, err
		}
		t.mu.Lock()
		t.s = s
		if l, ok := s.(limiter); ok {
			t.src.CPULimitCores, t.src.MemoryLimitBytes = l.limits()
		}
		t.mu.Unlock()
	}
	// The run ending does not cut short a sample in progress (it reads the
	// run's last interval): it gets the stopWait that Stop gives it.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		select {
		case <-stop:
		case <-ctx.Done():
			return
		}
		grace := time.NewTimer(stopWait)
		defer grace.Stop()
		select {
		case <-grace.C:
			cancel()
		case <-ctx.Done():
		}
	}()
	return t.s.sample(ctx)
}

func (t *track) setBusy(k int) {
	t.mu.Lock()
	t.busy = k
	t.mu.Unlock()
}

// reason says why a sample failed.
func reason(err error, iv time.Duration) string {
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Sprintf("did not answer within its %s interval", iv)
	}
	return err.Error()
}

// record stores the readings of interval k.
func (t *track) record(k int, rs []reading) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return
	}
	n := len(t.src.T)
	t.src.T = append(t.src.T, float64(k)*t.spec.Interval.Seconds())
	for _, r := range rs {
		i, ok := t.index[r.name]
		if !ok {
			i = len(t.src.Series)
			t.index[r.name] = i
			vals := make(result.MonitorValues, n, n+16)
			for j := range vals {
				vals[j] = math.NaN()
			}
			t.src.Series = append(t.src.Series, result.MonitorSeries{Name: r.name, Unit: r.unit, Values: vals})
		}
		s := &t.src.Series[i]
		if len(s.Values) == n+1 { // the same name twice in one sample: add up
			s.Values[n] += r.value
			continue
		}
		s.Values = append(s.Values, r.value)
	}
	for i := range t.src.Series {
		if s := &t.src.Series[i]; len(s.Values) == n {
			s.Values = append(s.Values, math.NaN())
		}
	}
}

// gap records that interval k has no sample, and why.
func (t *track) gap(k int, why string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return
	}
	t.addGap(k, why)
}

func (t *track) addGap(k int, why string) {
	iv := t.spec.Interval.Seconds()
	at := float64(k) * iv
	if n := len(t.src.Gaps); n > 0 {
		g := &t.src.Gaps[n-1]
		if g.Reason == why && math.Abs(g.T+g.DurationS-at) < iv/2 {
			g.DurationS += iv
			return
		}
	}
	t.src.Gaps = append(t.src.Gaps, result.MonitorGap{T: at, DurationS: iv, Reason: why})
}

// finish closes the track and returns what it recorded.
func (t *track) finish() result.MonitorSource {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.busy > 0 {
		t.addGap(t.busy-1, "did not answer by the end of the run")
	}
	t.closed = true
	if n, ok := t.s.(noter); ok {
		t.src.Notes = append(t.src.Notes, n.notes()...)
	}
	return t.src
}
