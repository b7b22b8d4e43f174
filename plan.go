// Package surge runs load tests: a Plan says who does what at which load,
// Run carries it out and measures every operation, and the result is one
// result.Result document. The surge command is a thin layer over this
// package; everything it does can be done from Go.
package surge

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/surge-load/surge/analysis"
	"github.com/surge-load/surge/executor"
	"github.com/surge-load/surge/health"
	"github.com/surge-load/surge/metrics"
	"github.com/surge-load/surge/monitor"
	"github.com/surge-load/surge/output"
)

// A Plan is a validated load test: one or more scenarios that run
// concurrently, and the thresholds to judge the result by.
type Plan struct {
	Target     string // the base URL, for people
	Scenarios  []Scenario
	Thresholds []analysis.Threshold
	// Spec is what the result document records as the plan; builders fill
	// it with a description whose secrets are redacted.
	Spec any
	// Setup, if not nil, runs once before the load starts, with the
	// recorder that the run's samples go to, and returns the values it
	// captured, encoded as JSON, for Adopt. An error stops the run before
	// any load.
	Setup func(ctx context.Context, rec *metrics.Recorder) (captured json.RawMessage, err error)
	// Adopt, if not nil, prepares a run with the values a Setup captured
	// in another process instead of running Setup here: the segments of a
	// split run share one setup (see Coordinator).
	Adopt func(captured json.RawMessage) error
	// Warmup is the warm-up period at the start of the run: operations
	// meant to start in it are kept out of the totals, the endpoints and
	// the thresholds, and counted in the result's warmup block.
	Warmup time.Duration
	// Monitors are the servers watched during the run, each on the run's
	// timeline (see package monitor). In a split plan only segment 0
	// samples them.
	Monitors []monitor.Spec
	// Outputs stream the run while it goes (package output). Run starts
	// them, feeds them every second, lets them flush for at most
	// OutputFlush at the end and records what they sent and dropped in
	// the result.
	Outputs []*output.Output
}

// A Scenario is one journey run by virtual users under one load model.
type Scenario struct {
	Name string
	Load executor.Load
	// StartAfter delays the scenario's start relative to the run's.
	StartAfter time.Duration
	// Users is called once when the run starts: it registers the
	// scenario's endpoints with rec and returns the factory of its virtual
	// users, which record their samples into rec.
	Users func(rec *metrics.Recorder) executor.NewUser
	// Conns is the most connections the scenario may hold at once, for the
	// generator's pre-flight check of its limits.
	Conns int
	// SourceAddrs is the number of local addresses the scenario spreads
	// its connections over (httpc.Options.LocalAddrs); 0 means one.
	SourceAddrs int
	// Describe says in words what load the scenario applies.
	Describe string
	// Endpoints names the statistics rows the scenario records into, so
	// that thresholds naming an endpoint are checked before the run.
	Endpoints []string
}

// Validate checks the plan as a whole.
func (p *Plan) Validate() error {
	if len(p.Scenarios) == 0 {
		return planError("scenarios", "plan has no scenarios")
	}
	for _, s := range p.Scenarios {
		if s.Load == nil || s.Users == nil {
			return planError("scenarios", "scenario %q: load and users are required", s.Name)
		}
		if err := s.Load.Validate(); err != nil {
			return planError("scenarios", "scenario %q: %w", s.Name, err)
		}
		if s.StartAfter < 0 {
			return planError("scenarios", "scenario %q: start offset %v is negative", s.Name, s.StartAfter)
		}
	}
	if p.Warmup < 0 {
		return planError("warmup", "warm-up %v is negative", p.Warmup)
	}
	if p.Warmup > 0 && p.Warmup >= p.Duration() {
		return planError("warmup", "warm-up %v is not shorter than the run (%v): nothing would be measured", p.Warmup, p.Duration())
	}
	sources := map[string]monitor.Spec{}
	for _, m := range p.Monitors {
		if _, dup := sources[m.Name]; dup {
			return planError("monitors", "monitor %q is named twice; give every source a name of its own", m.Name)
		}
		sources[m.Name] = m
	}
	for _, t := range p.Thresholds {
		if t.Source == "" {
			continue
		}
		m, ok := sources[t.Source]
		if !ok {
			return planError("thresholds", "threshold %q names monitor %q, which this plan does not have; add --monitor %s=SPEC", t.Expr, t.Source, t.Source)
		}
		if !m.HasSeries(t.Series) {
			return planError("thresholds", "threshold %q: a %s source has no series %q; it has %s", t.Expr, m.Kind, t.Series, strings.Join(m.SeriesHelp(), ", "))
		}
	}
	names := p.Endpoints()
	for _, t := range p.Thresholds {
		if t.Endpoint != "" && !slices.Contains(names, t.Endpoint) {
			return planError("thresholds", "threshold %q names endpoint %q, which this plan does not have; it has %q", t.Expr, t.Endpoint, names)
		}
	}
	return nil
}

// Endpoints lists the names of the plan's statistics rows.
func (p *Plan) Endpoints() []string {
	var names []string
	for _, s := range p.Scenarios {
		for _, n := range s.Endpoints {
			if !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
	}
	return names
}

// Preflight checks, before any traffic, that the generator can open the
// connections the plan may need, and says how to fix it if not. It raises
// the soft open-files limit to the hard limit on the way.
func (p *Plan) Preflight() []string {
	conns, addrs := 0, 0
	for _, s := range p.Scenarios {
		conns += s.Conns
		if s.Conns > 0 {
			// The scenario with the fewest source addresses bounds them all.
			if a := max(s.SourceAddrs, 1); addrs == 0 || a < addrs {
				addrs = a
			}
		}
	}
	return health.CheckConnections(conns, addrs)
}

// Duration is the planned length of the run: the latest end of a scenario.
func (p *Plan) Duration() time.Duration {
	var d time.Duration
	for _, s := range p.Scenarios {
		d = max(d, s.StartAfter+s.Load.Duration())
	}
	return d
}

// A PlanError is a problem with a plan found by Validate: Field names the
// part of the plan it is in ("scenarios", "warmup", "monitors",
// "thresholds"), so that a caller can place it (a scenario file's key).
type PlanError struct {
	Field string
	Err   error
}

func (e *PlanError) Error() string { return e.Err.Error() }
func (e *PlanError) Unwrap() error { return e.Err }

// planError makes a *PlanError in field.
func planError(field, format string, args ...any) error {
	return &PlanError{Field: field, Err: fmt.Errorf(format, args...)}
}
