package surge

import (
	"sync/atomic"
	"time"

	"github.com/surge-load/surge/livemetrics"
	"github.com/surge-load/surge/metrics"
	"github.com/surge-load/surge/output"
	"github.com/surge-load/surge/result"
)

// OutputFlush bounds how long the outputs may take, after the run, to send
// what they still hold.
const OutputFlush = 5 * time.Second

// watchers feed every interval of a run to what follows it live: the
// coordinator of a split run, the live metrics, the outputs and
// Options.OnTick. They run on the recorder's
// collector goroutine and never wait for a backend.
type watchers struct {
	start    time.Time
	set      *livemetrics.Set
	outputs  []*output.Output
	families bool
	onTick   func(*metrics.Tick)
	coord    Coordinator
	kick     chan struct{} // a new second for the watch goroutine
	watched  chan struct{} // closed when it has returned
	scenario map[string]string
	segment  string          // livemetrics.Segment of the plan's segment
	names    []string        // scenario names, by index
	dropped  []*atomic.Int64 // by scenario
}

func newWatchers(p *Plan, opts *Options) *watchers {
	if opts.Metrics == nil && len(p.Outputs) == 0 && opts.OnTick == nil && opts.Coordinator == nil && opts.Watch == nil {
		return nil
	}
	w := &watchers{set: opts.Metrics, outputs: p.Outputs, onTick: opts.OnTick, coord: opts.Coordinator, scenario: p.EndpointScenarios()}
	for _, o := range w.outputs {
		w.families = w.families || o.WantsFamilies()
	}
	if opts.Watch != nil { // see watching
		w.kick, w.watched = make(chan struct{}, 1), make(chan struct{})
	}
	w.segment = livemetrics.Segment(opts.Segment.Index, opts.Segment.Count)
	if w.set == nil && w.families {
		w.set = livemetrics.New(w.scenario, w.segment)
	}
	for _, s := range p.Scenarios {
		w.names = append(w.names, s.Name)
		w.dropped = append(w.dropped, new(atomic.Int64))
	}
	return w
}

// begin starts the outputs and makes rec feed the watchers.
func (w *watchers) begin(rec *metrics.Recorder, start time.Time) {
	w.start = start
	for _, o := range w.outputs {
		o.Start()
	}
	rec.OnTick(w.tick)
}

func (w *watchers) tick(t *metrics.Tick) {
	var dropped map[string]int64
	if w.coord != nil || w.set != nil {
		dropped = make(map[string]int64, len(w.names))
		for i, n := range w.names {
			dropped[n] += w.dropped[i].Load()
		}
	}
	if w.coord != nil {
		w.coord.Tick(t, dropped)
	}
	if w.set != nil {
		w.set.Add(t)
		w.set.AddDropped(dropped)
	}
	if len(w.outputs) > 0 {
		f := &output.Frame{
			Start:    w.start,
			Time:     w.start.Add(time.Duration((t.Point.T + t.Point.DurationS) * float64(time.Second))),
			Tick:     t,
			Scenario: w.scenario,
			Segment:  w.segment,
		}
		if w.families {
			f.Families, _ = w.set.Gather()
		}
		for _, o := range w.outputs {
			o.Offer(f)
		}
	}
	if w.onTick != nil {
		w.onTick(t)
	}
	if w.kick != nil {
		select {
		case w.kick <- struct{}{}:
		default: // still busy with an earlier second
		}
	}
}

// watching starts the goroutine that hands watch the run so far, made by
// snapshot, after every second. Run must call it when Options.Watch is set.
func (w *watchers) watching(watch func(*result.Result), snapshot func() *result.Result) {
	go func() {
		defer close(w.watched)
		for range w.kick {
			watch(snapshot())
		}
	}()
}

// finish flushes the outputs and returns what they did.
func (w *watchers) finish() []result.OutputStats {
	if w.kick != nil {
		close(w.kick)
		<-w.watched
	}
	var out []result.OutputStats
	for _, o := range w.outputs {
		out = append(out, o.Close(OutputFlush))
	}
	return out
}

// EndpointScenarios names the scenario of each of the plan's endpoints.
func (p *Plan) EndpointScenarios() map[string]string {
	m := map[string]string{}
	for _, s := range p.Scenarios {
		for _, e := range s.Endpoints {
			if _, ok := m[e]; !ok {
				m[e] = s.Name
			}
		}
	}
	return m
}

// droppedOf is the drop counter of scenario i; nil without watchers.
func (w *watchers) droppedOf(i int) *atomic.Int64 {
	if w == nil {
		return nil
	}
	return w.dropped[i]
}
