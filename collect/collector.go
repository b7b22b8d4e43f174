package collect

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/surge-load/surge/analysis"
	"github.com/surge-load/surge/metrics"
	"github.com/surge-load/surge/result"
)

// Config configures a Collector.
type Config struct {
	// Parts is the number of segments the plan is split into.
	Parts int
	// Token, if not empty, must be carried by every request.
	Token string
	// JoinWait bounds the barrier: how long the collector waits for every
	// segment to join, counted from Wait's call. Then the run begins
	// with the segments that joined and the others are missing. Zero
	// means two minutes.
	JoinWait time.Duration
	// SetupWait bounds how long the segment that runs the setup may take.
	// Zero means JoinWait.
	SetupWait time.Duration
	// Lead is the time between fixing the start and the start, for every
	// runner to hear of it. Zero means three seconds.
	Lead time.Duration
	// PartWait is how long after the plan's planned end the collector
	// waits for the parts (the grace period of requests in flight, the
	// upload). A segment that has not reported by then is missing. Zero
	// means one minute.
	PartWait time.Duration
	// Log, if not nil, receives a line for every event of the run: joins,
	// the start, parts, missing segments.
	Log io.Writer
	// OnTick, if not nil, receives every segment's intervals as they
	// arrive, their point's gauges (users, busy users, open streams, the
	// generators') replaced by the sum of every segment's latest: added
	// up, the ticks count the whole run (a livemetrics.Set takes them).
	// It must not block.
	OnTick func(*metrics.Tick)
	// OnDropped, if not nil, receives the arrivals dropped so far by each
	// scenario, summed over the segments (running totals), with every
	// tick (a livemetrics.Set's AddDropped takes them). It must not block.
	OnDropped func(map[string]int64)
	// Watch, if not nil, receives the merge of the segments' results so
	// far, judged like the final one, about every second while the run
	// goes on (a live.Server's Watch takes it).
	Watch func(*result.Result)
}

// validate checks c and fills in the defaults.
func (c *Config) validate() error {
	if c.Parts < 1 {
		return fmt.Errorf("collect: %d parts; want at least 1", c.Parts)
	}
	for _, d := range []struct {
		name string
		v    *time.Duration
		def  time.Duration
	}{{"join wait", &c.JoinWait, 2 * time.Minute}, {"setup wait", &c.SetupWait, 0}, {"lead", &c.Lead, 3 * time.Second}, {"part wait", &c.PartWait, time.Minute}} {
		if *d.v < 0 {
			return fmt.Errorf("collect: %s %v is negative", d.name, *d.v)
		}
		if *d.v == 0 {
			*d.v = d.def
		}
	}
	if c.SetupWait == 0 {
		c.SetupWait = c.JoinWait
	}
	return nil
}

// A Collector coordinates the segments of one split run. Serve its HTTP
// handler (ServeHTTP) where the runners can reach it, and call Wait.
type Collector struct {
	cfg Config

	mu       sync.Mutex
	segs     []segment
	plan     string // surge.Plan.Hash of the first segment to join
	plannedS float64
	fallen   bool // the barrier fell: no more joins
	setupBy  int  // the segment that runs the setup, once fallen
	setup    json.RawMessage
	setupErr error     // why the run cannot start, once started is closed
	start    time.Time // the common start, once started is closed
	over     bool      // no more parts are taken
	result   []byte    // the merged result, once over
	live     liveSeries
	// scenarios names the scenario of each endpoint, as the first
	// segment to join said.
	scenarios    map[string]string
	soFarChanged bool // a result so far arrived since the last Watch

	allJoined   signal
	barrier     signal // the barrier fell: joins are answered
	setupDone   signal
	started     signal // the start is fixed, or the run aborted
	allReported signal
	fetched     signal
}

// A segment is what the collector knows of one segment of the plan.
type segment struct {
	joined   bool
	host     string
	starting bool // it asked for the start
	part     *result.Result
	soFar    *result.Result   // the last result so far, for Watch
	latest   *result.Point    // the last point received
	dropped  map[string]int64 // arrivals dropped so far, by scenario
	failed   string           // why it cannot send its part
	points   int              // live points received
	lastT    float64
}

// New returns a collector for a plan split into cfg.Parts segments.
func New(cfg Config) (*Collector, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	return &Collector{cfg: cfg, segs: make([]segment, cfg.Parts), setupBy: -1}, nil
}

// ErrNobodyJoined is returned by Wait when no segment joined within the
// join wait.
var ErrNobodyJoined = errors.New("no runner joined")

// Wait carries the split run through: it waits for every segment to join
// (at most Config.JoinWait), for the setup, fixes the common start, waits
// for the parts until Config.PartWait after the plan's planned end, and
// returns their merge, with thresholds judged on the whole and the missing
// segments named. Cancelling ctx stops the waiting: the result then covers
// the parts received so far and is marked interrupted.
func (c *Collector) Wait(ctx context.Context) (*result.Result, error) {
	stop := func(d time.Duration, s *signal) bool {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-s.c():
		case <-t.C:
		case <-ctx.Done():
			return false
		}
		return true
	}
	if !stop(c.cfg.JoinWait, &c.allJoined) {
		return nil, fmt.Errorf("collect: %w before the run began", context.Cause(ctx))
	}
	if err := c.fall(); err != nil {
		return nil, err
	}
	if !stop(c.cfg.SetupWait, &c.setupDone) {
		c.abort(fmt.Errorf("the collector stopped: %w", context.Cause(ctx)))
		return nil, fmt.Errorf("collect: %w before the run began", context.Cause(ctx))
	}
	if err := c.begin(); err != nil {
		return nil, err
	}
	c.mu.Lock()
	end := c.start.Add(time.Duration(c.plannedS*float64(time.Second)) + c.cfg.PartWait)
	c.mu.Unlock()
	stopWatching := c.watching()
	interrupted := !stop(time.Until(end), &c.allReported)
	stopWatching()
	res, err := c.merge(interrupted, context.Cause(ctx))
	if err != nil {
		return nil, err
	}
	if b, err := json.Marshal(res); err == nil {
		c.mu.Lock()
		c.result = b
		c.mu.Unlock()
	}
	return res, nil
}

// watching hands Config.Watch the merge of the results so far every
// second, until the returned func is called.
func (c *Collector) watching() (stop func()) {
	if c.cfg.Watch == nil {
		return func() {}
	}
	done, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
			}
			if res := c.soFar(); res != nil {
				c.cfg.Watch(res)
			}
		}
	}()
	return func() { close(done); <-stopped }
}

// soFar merges the segments' latest results so far, or returns nil if
// none arrived since the last call.
func (c *Collector) soFar() *result.Result {
	c.mu.Lock()
	if !c.soFarChanged {
		c.mu.Unlock()
		return nil
	}
	c.soFarChanged = false
	var parts []*result.Result
	for _, s := range c.segs {
		switch {
		case s.part != nil:
			parts = append(parts, s.part)
		case s.soFar != nil:
			parts = append(parts, s.soFar)
		}
	}
	c.mu.Unlock()
	res, err := analysis.Merge(parts...)
	if err != nil {
		return nil
	}
	res.Run.Segment = result.Segment{Index: 0, Count: c.cfg.Parts}
	return res
}

// fall lets the barrier fall: the segments that joined so far run, the
// lowest of them runs the setup.
func (c *Collector) fall() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.fallen = true
	var missing []int
	for i, s := range c.segs {
		if !s.joined {
			missing = append(missing, i)
			continue
		}
		if c.setupBy < 0 {
			c.setupBy = i
		}
	}
	if c.setupBy < 0 {
		c.over = true
		c.barrier.fire()
		return fmt.Errorf("collect: %w within %v (want %d)", ErrNobodyJoined, c.cfg.JoinWait, c.cfg.Parts)
	}
	if len(missing) > 0 {
		c.logf("the join wait (%v) is over; segments %v never joined and are missing; starting with the other %d", c.cfg.JoinWait, missing, c.cfg.Parts-len(missing))
	} else {
		c.logf("all %d segments joined", c.cfg.Parts)
	}
	c.logf("segment %d runs the setup", c.setupBy)
	c.barrier.fire()
	return nil
}

// begin fixes the common start, or aborts the run if the setup failed or
// did not finish in time.
func (c *Collector) begin() error {
	c.mu.Lock()
	if c.setupErr == nil && !c.setupDone.fired() {
		c.setupErr = fmt.Errorf("segment %d did not finish the setup within %v", c.setupBy, c.cfg.SetupWait)
	}
	err := c.setupErr
	if err == nil {
		c.start = time.Now().Add(c.cfg.Lead).Round(time.Millisecond)
		c.logf("the run starts at %s", c.start.UTC().Format(time.RFC3339Nano))
	} else {
		c.over = true
	}
	c.mu.Unlock()
	c.started.fire()
	if err != nil {
		return fmt.Errorf("collect: the run could not begin: %w", err)
	}
	return nil
}

// abort stops a run that has not started.
func (c *Collector) abort(err error) {
	c.mu.Lock()
	if c.setupErr == nil {
		c.setupErr = err
	}
	c.over = true
	c.mu.Unlock()
	c.started.fire()
}

// Live returns the merged live points received so far: point k is the sum
// of every segment's k-th interval, as far as it arrived.
func (c *Collector) Live() []result.Point {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.live.merged()
}

// Progress returns the state of the whole run as of the last merged
// interval, for progress displays.
func (c *Collector) Progress() metrics.Live {
	c.mu.Lock()
	start := c.start
	c.mu.Unlock()
	elapsed := time.Duration(0)
	if !start.IsZero() {
		elapsed = max(time.Since(start), 0)
	}
	return metrics.LiveOf(c.Live(), elapsed)
}

// Planned returns the plan's length without the grace period, once a
// segment has joined.
func (c *Collector) Planned() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return time.Duration(c.plannedS * float64(time.Second))
}

// Fetched returns a channel closed once the merged result has been
// fetched (GET PathResult).
func (c *Collector) Fetched() <-chan struct{} { return c.fetched.c() }

// Joined returns a channel closed once the barrier has fallen: the run
// begins with the segments that joined.
func (c *Collector) Joined() <-chan struct{} { return c.barrier.c() }

// EndpointScenarios names the scenario of each of the plan's endpoints, as
// the first segment to join said; nil before any joined.
func (c *Collector) EndpointScenarios() map[string]string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.scenarios
}

// Started returns a channel closed once the start is fixed or the run
// aborted before it.
func (c *Collector) Started() <-chan struct{} { return c.started.c() }

func (c *Collector) logf(format string, args ...any) {
	if c.cfg.Log != nil {
		fmt.Fprintf(c.cfg.Log, "surge collect: "+format+"\n", args...)
	}
}

// A signal is a channel closed once.
type signal struct {
	once sync.Once
	mu   sync.Mutex
	ch   chan struct{}
}

func (s *signal) c() chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ch == nil {
		s.ch = make(chan struct{})
	}
	return s.ch
}

func (s *signal) fire() {
	ch := s.c()
	s.once.Do(func() { close(ch) })
}

func (s *signal) fired() bool {
	select {
	case <-s.c():
		return true
	default:
		return false
	}
}
