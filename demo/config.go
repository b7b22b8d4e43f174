package demo

import (
	"errors"
	"fmt"
	"math"
	"time"
)

// Config holds the knobs of a demo Service.
//
// The zero value is ready to use: every zero field takes the default
// documented on it, and all failure knobs are off. For the waits and costs
// where "none" is meaningful (LockWait, MoveCostPerNode, FlushCostPerLine,
// LogWait), a negative value means none, in the manner of
// net/http.Server.ReadHeaderTimeout. DefaultConfig returns the defaults
// spelled out.
//
// New does not report configuration errors; call Validate first.
type Config struct {
	// MaxDepth is the deepest level a folder may sit at, a root folder being
	// at depth 0. Creates and moves that would go deeper fail with 400.
	// Default 20.
	MaxDepth int

	// LockWait is how long a create or move waits for its tree's lock
	// before failing with 503 "lock wait timeout exceeded", like
	// innodb_lock_wait_timeout. Default 1s; negative means do not wait.
	LockWait time.Duration

	// MoveCostPerNode is the time a move holds the tree lock for each
	// folder in the moved subtree, standing in for the rows a real database
	// would update. Default 20µs; negative means none.
	MoveCostPerNode time.Duration

	// LogBufferLines is the capacity, in lines, of the log ingestion
	// buffer. Default 100000.
	LogBufferLines int

	// FlushBatch is the most lines the background flusher takes from the
	// log buffer per bulk insert. Default 1000.
	FlushBatch int

	// FlushCostPerLine is the time a bulk insert takes per line; lines stay
	// in the buffer until their insert completes. Default 2µs; negative
	// means none.
	FlushCostPerLine time.Duration

	// LogWait is how long an ingest request waits for buffer space before
	// failing with 503. Default 2s; negative means do not wait.
	LogWait time.Duration

	// EventInterval is the period of the "tick" server-sent event.
	// Default 5s.
	EventInterval time.Duration

	// EventHistory is how many recent events are kept for Last-Event-ID
	// replay. Default 1000.
	EventHistory int

	// KeepAliveInterval is the period of the ": ping" comment sent on idle
	// event streams. Default 15s.
	KeepAliveInterval time.Duration

	// Latency is added to every request (see the failure knobs in the
	// package documentation). The zero value adds none.
	Latency Latency

	// StallEvery and StallFor make the service stall for StallFor at the
	// end of every StallEvery period, counted from service start: requests
	// arriving during a stall are held until it ends. Both zero means no
	// stalls.
	StallEvery time.Duration
	StallFor   time.Duration

	// FailRate is the fraction of requests, in [0, 1], answered 500 at
	// once.
	FailRate float64

	// MaxInFlight is the most requests processed at once; 0 means no
	// limit. Requests beyond it wait in a queue of QueueSize for at most
	// QueueTimeout, and get 503 when the queue is full or the wait runs
	// out. QueueTimeout 0 means wait as long as the client does.
	MaxInFlight  int
	QueueSize    int
	QueueTimeout time.Duration

	// CPUCost is CPU time burnt in a busy loop by every request.
	CPUCost time.Duration

	// Items is how many items GET /api/v1/items/{id} serves; CacheTTL how
	// long an item stays in the cache once fetched from the store, which
	// answers in StoreLatency through a pool of StorePool connections.
	Items        int
	CacheTTL     time.Duration
	StoreLatency time.Duration
	StorePool    int
	// WarmupCPU is extra CPU time every request costs at the start,
	// falling linearly to none over WarmupFor (a JIT warming up).
	WarmupCPU time.Duration
	WarmupFor time.Duration
	// ExternalRate is the rate limit of the external service that GET
	// /api/v1/poll calls, per second (0: none); a call waits up to
	// ExternalWait for it, then gets 429.
	ExternalRate float64
	ExternalWait time.Duration

	// Seed seeds the random numbers behind Latency and FailRate, making a
	// run repeatable; 0 picks a random seed.
	Seed uint64
}

// Defaults for the Config fields whose zero value means "default".
const (
	DefaultMaxDepth          = 20
	DefaultLockWait          = 1000 * time.Millisecond
	DefaultMoveCostPerNode   = 20 * time.Microsecond
	DefaultLogBufferLines    = 100000
	DefaultFlushBatch        = 1000
	DefaultFlushCostPerLine  = 2 * time.Microsecond
	DefaultLogWait           = 2 * time.Second
	DefaultEventInterval     = 5 * time.Second
	DefaultEventHistory      = 1000
	DefaultKeepAliveInterval = 15 * time.Second
	DefaultItems             = 100
	DefaultCacheTTL          = 10 * time.Second
	DefaultStoreLatency      = 50 * time.Millisecond
	DefaultStorePool         = 4
	DefaultExternalWait      = time.Second
)

// DefaultConfig returns a Config with every default filled in and all
// failure knobs off.
func DefaultConfig() Config {
	var c Config
	c.applyDefaults()
	return c
}

// applyDefaults replaces zero fields with their defaults.
func (c *Config) applyDefaults() {
	setInt := func(p *int, def int) {
		if *p == 0 {
			*p = def
		}
	}
	setDur := func(p *time.Duration, def time.Duration) {
		if *p == 0 {
			*p = def
		}
	}
	setInt(&c.MaxDepth, DefaultMaxDepth)
	setDur(&c.LockWait, DefaultLockWait)
	setDur(&c.MoveCostPerNode, DefaultMoveCostPerNode)
	setInt(&c.LogBufferLines, DefaultLogBufferLines)
	setInt(&c.FlushBatch, DefaultFlushBatch)
	setDur(&c.FlushCostPerLine, DefaultFlushCostPerLine)
	setDur(&c.LogWait, DefaultLogWait)
	setDur(&c.EventInterval, DefaultEventInterval)
	setInt(&c.EventHistory, DefaultEventHistory)
	setDur(&c.KeepAliveInterval, DefaultKeepAliveInterval)
	setInt(&c.Items, DefaultItems)
	setDur(&c.CacheTTL, DefaultCacheTTL)
	setDur(&c.StoreLatency, DefaultStoreLatency)
	setInt(&c.StorePool, DefaultStorePool)
	setDur(&c.ExternalWait, DefaultExternalWait)
}

// normalized returns a copy of c with defaults applied and out-of-range
// values clamped, so that New can run with any Config without panicking.
func (c Config) normalized() Config {
	// Negative values of fields whose zero means "default" take the
	// default too.
	for _, p := range []*int{&c.MaxDepth, &c.LogBufferLines, &c.FlushBatch, &c.EventHistory, &c.Items, &c.StorePool} {
		*p = max(*p, 0)
	}
	for _, p := range []*time.Duration{&c.EventInterval, &c.KeepAliveInterval, &c.CacheTTL, &c.StoreLatency, &c.ExternalWait} {
		*p = max(*p, 0)
	}
	c.applyDefaults()
	c.EventInterval = max(c.EventInterval, time.Millisecond)
	c.KeepAliveInterval = max(c.KeepAliveInterval, time.Millisecond)
	c.MaxInFlight = max(c.MaxInFlight, 0)
	c.QueueSize = max(c.QueueSize, 0)
	for _, p := range []*time.Duration{&c.MoveCostPerNode, &c.FlushCostPerLine, &c.QueueTimeout, &c.CPUCost, &c.WarmupCPU, &c.WarmupFor} {
		if *p < 0 {
			*p = 0
		}
	}
	if math.IsNaN(c.ExternalRate) || c.ExternalRate < 0 {
		c.ExternalRate = 0
	}
	if math.IsNaN(c.FailRate) || c.FailRate < 0 {
		c.FailRate = 0
	}
	if c.FailRate > 1 {
		c.FailRate = 1
	}
	if c.StallEvery <= 0 || c.StallFor <= 0 || c.StallFor >= c.StallEvery {
		c.StallEvery, c.StallFor = 0, 0
	}
	if c.Latency.validate() != nil {
		c.Latency = Latency{}
	}
	return c
}

// Validate reports every knob with a value out of range, joined into one
// error. Zero values are always valid (they mean the default or off).
func (c *Config) Validate() error {
	var errs []error
	bad := func(format string, args ...any) {
		errs = append(errs, fmt.Errorf(format, args...))
	}
	nonNegInt := func(name string, v int) {
		if v < 0 {
			bad("%s must not be negative, got %d", name, v)
		}
	}
	nonNegDur := func(name string, v time.Duration) {
		if v < 0 {
			bad("%s must not be negative, got %v", name, v)
		}
	}
	nonNegInt("max depth", c.MaxDepth)
	nonNegInt("log buffer lines", c.LogBufferLines)
	nonNegInt("flush batch", c.FlushBatch)
	nonNegInt("event history", c.EventHistory)
	nonNegInt("max in flight", c.MaxInFlight)
	nonNegInt("queue size", c.QueueSize)
	nonNegDur("event interval", c.EventInterval)
	nonNegDur("keep-alive interval", c.KeepAliveInterval)
	nonNegDur("queue timeout", c.QueueTimeout)
	nonNegDur("CPU cost", c.CPUCost)
	nonNegInt("items", c.Items)
	nonNegInt("store pool", c.StorePool)
	nonNegDur("cache TTL", c.CacheTTL)
	nonNegDur("store latency", c.StoreLatency)
	nonNegDur("warm-up CPU", c.WarmupCPU)
	nonNegDur("warm-up period", c.WarmupFor)
	nonNegDur("external wait", c.ExternalWait)
	if c.ExternalRate < 0 || math.IsNaN(c.ExternalRate) {
		bad("external rate must be a non-negative number, got %v", c.ExternalRate)
	}
	nonNegDur("stall every", c.StallEvery)
	nonNegDur("stall for", c.StallFor)
	if c.EventInterval > 0 && c.EventInterval < time.Millisecond {
		bad("event interval must be at least 1ms, got %v", c.EventInterval)
	}
	if c.KeepAliveInterval > 0 && c.KeepAliveInterval < time.Millisecond {
		bad("keep-alive interval must be at least 1ms, got %v", c.KeepAliveInterval)
	}
	if math.IsNaN(c.FailRate) || c.FailRate < 0 || c.FailRate > 1 {
		bad("fail rate must be in [0, 1], got %v", c.FailRate)
	}
	if (c.StallEvery == 0) != (c.StallFor == 0) {
		bad("stall needs both a duration and a period, got %v every %v", c.StallFor, c.StallEvery)
	} else if c.StallEvery > 0 && c.StallFor >= c.StallEvery {
		bad("stall duration %v must be shorter than its period %v", c.StallFor, c.StallEvery)
	}
	if c.MaxInFlight == 0 && c.QueueSize > 0 {
		bad("queue size %d has no effect without max in flight", c.QueueSize)
	}
	if c.MaxInFlight == 0 && c.QueueTimeout > 0 {
		bad("queue timeout %v has no effect without max in flight", c.QueueTimeout)
	}
	if err := c.Latency.validate(); err != nil {
		bad("latency: %w", err)
	}
	if len(errs) == 0 {
		return nil
	}
	return fmt.Errorf("demo: invalid config: %w", errors.Join(errs...))
}
