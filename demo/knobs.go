package demo

// This file holds all parsing of knob values from text: the Latency
// syntax, the stall syntax and the command-line flags.

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"
)

// Distribution is the shape of an added latency.
type Distribution int

// The latency distributions. The zero Distribution is Fixed.
const (
	Fixed       Distribution = iota // always Mean
	Uniform                         // uniform in [Min, Max]
	Normal                          // normal around Mean with StdDev, cut at 0
	Exponential                     // exponential with Mean
)

var distNames = map[Distribution]string{
	Fixed:       "fixed",
	Uniform:     "uniform",
	Normal:      "normal",
	Exponential: "exponential",
}

// String returns the name used in the latency syntax, such as "normal".
func (d Distribution) String() string {
	if name, ok := distNames[d]; ok {
		return name
	}
	return "Distribution(" + strconv.Itoa(int(d)) + ")"
}

// Latency is a delay added to requests, drawn from a distribution.
// The zero Latency adds none.
//
// Its text form, accepted by ParseLatency and Set, is one of
//
//	0 | off                  no added latency
//	20ms | fixed:20ms        always 20ms
//	uniform:10ms,30ms        uniform between 10ms and 30ms
//	normal:20ms,5ms          normal with mean 20ms and std dev 5ms
//	exponential:20ms         exponential with mean 20ms (also exp:20ms)
type Latency struct {
	Dist   Distribution
	Mean   time.Duration // Fixed, Normal and Exponential
	StdDev time.Duration // Normal
	Min    time.Duration // Uniform
	Max    time.Duration // Uniform
}

// IsZero reports whether l adds no latency at all.
func (l Latency) IsZero() bool {
	return l == Latency{}
}

// Sample draws one delay from the distribution, never negative. A nil r
// uses the math/rand/v2 global source.
func (l Latency) Sample(r *rand.Rand) time.Duration {
	var d time.Duration
	switch l.Dist {
	case Fixed:
		d = l.Mean
	case Uniform:
		if l.Max <= l.Min {
			d = l.Min
			break
		}
		span := int64(l.Max - l.Min + 1)
		if r != nil {
			d = l.Min + time.Duration(r.Int64N(span))
		} else {
			d = l.Min + time.Duration(rand.Int64N(span))
		}
	case Normal:
		z := 0.0
		if r != nil {
			z = r.NormFloat64()
		} else {
			z = rand.NormFloat64()
		}
		d = l.Mean + time.Duration(z*float64(l.StdDev))
	case Exponential:
		e := 0.0
		if r != nil {
			e = r.ExpFloat64()
		} else {
			e = rand.ExpFloat64()
		}
		f := e * float64(l.Mean)
		if f > math.MaxInt64 {
			f = math.MaxInt64
		}
		d = time.Duration(f)
	}
	return max(d, 0)
}

// String returns l in the syntax accepted by ParseLatency.
func (l Latency) String() string {
	switch l.Dist {
	case Fixed:
		if l.Mean == 0 {
			return "0"
		}
		return l.Mean.String()
	case Uniform:
		return fmt.Sprintf("uniform:%v,%v", l.Min, l.Max)
	case Normal:
		return fmt.Sprintf("normal:%v,%v", l.Mean, l.StdDev)
	case Exponential:
		return fmt.Sprintf("exponential:%v", l.Mean)
	}
	return l.Dist.String()
}

// validate reports a distribution with out-of-range parameters.
func (l Latency) validate() error {
	if _, ok := distNames[l.Dist]; !ok {
		return fmt.Errorf("unknown distribution %v", l.Dist)
	}
	for _, p := range []struct {
		name string
		v    time.Duration
	}{{"mean", l.Mean}, {"std dev", l.StdDev}, {"min", l.Min}, {"max", l.Max}} {
		if p.v < 0 {
			return fmt.Errorf("%s must not be negative, got %v", p.name, p.v)
		}
	}
	if l.Dist == Uniform && l.Max < l.Min {
		return fmt.Errorf("uniform max %v is below min %v", l.Max, l.Min)
	}
	return nil
}

// ParseLatency parses the text form of a Latency (see Latency).
func ParseLatency(s string) (Latency, error) {
	s = strings.TrimSpace(s)
	switch strings.ToLower(s) {
	case "", "0", "off", "none":
		return Latency{}, nil
	}
	name, args, hasName := strings.Cut(s, ":")
	if !hasName {
		name, args = "fixed", s
	}
	parts := strings.Split(args, ",")
	durs := make([]time.Duration, len(parts))
	for i, p := range parts {
		d, err := time.ParseDuration(strings.TrimSpace(p))
		if err != nil {
			return Latency{}, fmt.Errorf("parse latency %q: %w", s, err)
		}
		durs[i] = d
	}
	want := func(n int, form string) error {
		if len(durs) != n {
			return fmt.Errorf("parse latency %q: want %s", s, form)
		}
		return nil
	}
	var l Latency
	var err error
	switch strings.ToLower(name) {
	case "fixed":
		err = want(1, "fixed:DURATION")
		l = Latency{Dist: Fixed, Mean: durs[0]}
	case "uniform":
		if err = want(2, "uniform:MIN,MAX"); err == nil {
			l = Latency{Dist: Uniform, Min: durs[0], Max: durs[1]}
		}
	case "normal":
		if err = want(2, "normal:MEAN,STDDEV"); err == nil {
			l = Latency{Dist: Normal, Mean: durs[0], StdDev: durs[1]}
		}
	case "exponential", "exp":
		err = want(1, "exponential:MEAN")
		l = Latency{Dist: Exponential, Mean: durs[0]}
	default:
		return Latency{}, fmt.Errorf("parse latency %q: unknown distribution %q (want fixed, uniform, normal or exponential)", s, name)
	}
	if err != nil {
		return Latency{}, err
	}
	if err := l.validate(); err != nil {
		return Latency{}, fmt.Errorf("parse latency %q: %w", s, err)
	}
	return l, nil
}

// Set parses s into l, so that *Latency is a pflag.Value.
func (l *Latency) Set(s string) error {
	v, err := ParseLatency(s)
	if err != nil {
		return err
	}
	*l = v
	return nil
}

// Type names the flag value type in help output.
func (l *Latency) Type() string { return "latency" }

// ParseStall parses a stall in the form D/P, "stall for D every P"
// (for example 2s/30s). "0", "off" and "" mean no stalls.
func ParseStall(s string) (stallFor, every time.Duration, err error) {
	s = strings.TrimSpace(s)
	switch strings.ToLower(s) {
	case "", "0", "off", "none":
		return 0, 0, nil
	}
	ds, ps, ok := strings.Cut(s, "/")
	if !ok {
		return 0, 0, fmt.Errorf("parse stall %q: want DURATION/PERIOD, e.g. 2s/30s", s)
	}
	if stallFor, err = time.ParseDuration(strings.TrimSpace(ds)); err != nil {
		return 0, 0, fmt.Errorf("parse stall %q: duration: %w", s, err)
	}
	if every, err = time.ParseDuration(strings.TrimSpace(ps)); err != nil {
		return 0, 0, fmt.Errorf("parse stall %q: period: %w", s, err)
	}
	if stallFor <= 0 || every <= 0 {
		return 0, 0, fmt.Errorf("parse stall %q: duration and period must be positive", s)
	}
	if stallFor >= every {
		return 0, 0, fmt.Errorf("parse stall %q: duration must be shorter than the period", s)
	}
	return stallFor, every, nil
}

// stallFlag is the pflag.Value behind --stall.
type stallFlag struct{ stallFor, every *time.Duration }

func (f stallFlag) String() string {
	if f.stallFor == nil || *f.stallFor == 0 {
		return "0"
	}
	return fmt.Sprintf("%v/%v", *f.stallFor, *f.every)
}

func (f stallFlag) Set(s string) error {
	d, p, err := ParseStall(s)
	if err != nil {
		return err
	}
	*f.stallFor, *f.every = d, p
	return nil
}

func (f stallFlag) Type() string { return "stall" }

// noneDuration is the pflag.Value for the Config durations where negative
// means none: on the command line "0" and "off" mean none, as users expect.
type noneDuration struct{ p *time.Duration }

func (f noneDuration) String() string {
	if f.p == nil || *f.p < 0 {
		return "0"
	}
	return f.p.String()
}

func (f noneDuration) Set(s string) error {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "0", "off", "none":
		*f.p = -1
		return nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return err
	}
	if d < 0 {
		return errors.New("must not be negative")
	}
	if d == 0 {
		d = -1
	}
	*f.p = d
	return nil
}

func (f noneDuration) Type() string { return "duration" }

// RegisterFlags defines a flag on fs for every knob of c, with c's current
// values (defaults for zero fields) as the flag defaults. Syntax:
//
//	--max-depth 20                 --lock-wait 1s        --move-cost-per-node 20µs
//	--log-buffer-lines 100000      --flush-batch 1000    --flush-cost-per-line 2µs
//	--log-wait 2s                  --event-interval 5s   --event-history 1000
//	--keepalive-interval 15s
//	--latency 20ms | fixed:20ms | uniform:10ms,30ms | normal:20ms,5ms | exponential:20ms
//	--latency-dist                 alias of --latency
//	--stall 2s/30s                 stall for 2s every 30s
//	--fail-rate 0.01               --cpu-cost 200µs      --rand-seed 42
//	--max-inflight 4 --queue 16 --queue-timeout 500ms
//
// For --lock-wait, --move-cost-per-node, --flush-cost-per-line and
// --log-wait, 0 means none (no wait, no cost). Call c.Validate after
// parsing.
func RegisterFlags(fs *pflag.FlagSet, c *Config) {
	c.applyDefaults()

	fs.IntVar(&c.MaxDepth, "max-depth", c.MaxDepth, "deepest folder level allowed (root is 0)")
	fs.Var(noneDuration{&c.LockWait}, "lock-wait", "how long creates and moves wait for a tree lock before 503 (0: no wait)")
	fs.Var(noneDuration{&c.MoveCostPerNode}, "move-cost-per-node", "lock hold time per folder in a moved subtree (0: none)")

	fs.IntVar(&c.LogBufferLines, "log-buffer-lines", c.LogBufferLines, "capacity of the log ingestion buffer, in lines")
	fs.IntVar(&c.FlushBatch, "flush-batch", c.FlushBatch, "most lines per bulk insert of the log flusher")
	fs.Var(noneDuration{&c.FlushCostPerLine}, "flush-cost-per-line", "bulk insert time per log line (0: none)")
	fs.Var(noneDuration{&c.LogWait}, "log-wait", "how long log ingestion waits for buffer space before 503 (0: no wait)")

	fs.DurationVar(&c.EventInterval, "event-interval", c.EventInterval, "period of the server-sent tick event")
	fs.IntVar(&c.EventHistory, "event-history", c.EventHistory, "events kept for Last-Event-ID replay")
	fs.DurationVar(&c.KeepAliveInterval, "keepalive-interval", c.KeepAliveInterval, "period of ': ping' comments on event streams")

	fs.Var(&c.Latency, "latency", "added latency: `DURATION` or fixed:D, uniform:MIN,MAX, normal:MEAN,STDDEV, exponential:MEAN")
	fs.Var(&c.Latency, "latency-dist", "alias of --latency, for a `DIST` such as normal:20ms,5ms")
	fs.Var(stallFlag{&c.StallFor, &c.StallEvery}, "stall", "stall for D every P, as `D/P` (e.g. 2s/30s); held requests wait for the stall to end")
	fs.Float64Var(&c.FailRate, "fail-rate", c.FailRate, "fraction of requests answered 500 at once, in [0, 1]")
	fs.IntVar(&c.MaxInFlight, "max-inflight", c.MaxInFlight, "most requests processed at once (0: unlimited)")
	fs.IntVar(&c.QueueSize, "queue", c.QueueSize, "requests that may wait for a slot beyond --max-inflight; others get 503")
	fs.DurationVar(&c.QueueTimeout, "queue-timeout", c.QueueTimeout, "longest wait in the queue before 503 (0: as long as the client waits)")
	fs.DurationVar(&c.CPUCost, "cpu-cost", c.CPUCost, "CPU time burnt per request")
	fs.Uint64Var(&c.Seed, "rand-seed", c.Seed, "seed for latency and failure sampling (0: random)")

	fs.IntVar(&c.Items, "items", c.Items, "items GET /api/v1/items/{id} serves, 1 to N")
	fs.DurationVar(&c.CacheTTL, "cache-ttl", c.CacheTTL, "how long an item stays cached; items fetched together expire together, a stampede on the store")
	fs.DurationVar(&c.StoreLatency, "store-latency", c.StoreLatency, "time of one fetch from the slow backing store")
	fs.IntVar(&c.StorePool, "store-pool", c.StorePool, "connections of the store's bounded pool (waiting fetches: surge_demo_store_pool_pending)")
	fs.Var(stallFlag{&c.WarmupCPU, &c.WarmupFor}, "warmup-cpu", "extra CPU per request after start, as `D/P`: D at first, falling to none over P (e.g. 5ms/20s)")
	fs.Float64Var(&c.ExternalRate, "external-rate", c.ExternalRate, "rate limit of the external service GET /api/v1/poll calls, per second (0: none)")
	fs.DurationVar(&c.ExternalWait, "external-wait", c.ExternalWait, "longest wait for the external service's rate limit before 429")
}
