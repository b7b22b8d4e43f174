package surge

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/surge-load/surge/executor"
	"github.com/surge-load/surge/result"
)

// A Controller steers a run while it goes, from other goroutines (the live
// page, its JSON API): stop, abort, and change a scenario's load from now
// on. Give it to Run in Options.Control; every change it makes is recorded
// in the result's timeline. A Controller serves one run at a time.
type Controller struct {
	mu        sync.Mutex
	running   bool
	start     time.Time
	stop      context.CancelCauseFunc
	abort     chan struct{}
	aborted   bool
	stopped   bool
	scenarios []controlled
	events    []result.Event
}

// controlled is one scenario of the run under control.
type controlled struct {
	name  string
	unit  string               // what its level counts; empty if not steerable
	steer chan executor.Change // nil if not steerable
}

// ErrNotRunning is the answer to a control request when no run is going.
var ErrNotRunning = errors.New("no run is going")

// NewController returns a Controller for a run that has not started.
func NewController() *Controller { return &Controller{} }

// A ScenarioControl says how a scenario of the running plan can be steered.
type ScenarioControl struct {
	Name string `json:"name"`
	// Unit is what its level counts ("users" or "arrivals/s"); empty when
	// its load model cannot change while it runs.
	Unit string `json:"unit,omitempty"`
}

// Scenarios lists the scenarios of the run going on.
func (c *Controller) Scenarios() []ScenarioControl {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]ScenarioControl, 0, len(c.scenarios))
	for _, s := range c.scenarios {
		out = append(out, ScenarioControl{Name: s.name, Unit: s.unit})
	}
	return out
}

// Running reports whether a run is going.
func (c *Controller) Running() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.running
}

// Events returns the changes made so far.
func (c *Controller) Events() []result.Event {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]result.Event(nil), c.events...)
}

// Stop stops the run gracefully, as Ctrl-C does: no new work, work in
// flight gets the grace period. by says who asked, for the timeline.
func (c *Controller) Stop(by string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.running {
		return ErrNotRunning
	}
	if !c.stopped {
		c.stopped = true
		c.note(result.Event{Kind: "stop", By: by})
		c.stop(fmt.Errorf("stopped from %s", by))
	}
	return nil
}

// Abort stops the run and cancels the work in flight at once.
func (c *Controller) Abort(by string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.running {
		return ErrNotRunning
	}
	if !c.aborted {
		c.aborted, c.stopped = true, true
		c.note(result.Event{Kind: "abort", By: by})
		c.stop(fmt.Errorf("aborted from %s", by))
		close(c.abort)
	}
	return nil
}

// Change changes the load of scenario (every steerable scenario if
// empty) from now on: ch.Op is executor.SetLevel with ch.Level,
// executor.Hold or executor.Resume. It returns once the load models have
// applied it, or why they could not.
func (c *Controller) Change(scenario string, ch executor.Change, by string) error {
	c.mu.Lock()
	if !c.running || c.stopped {
		c.mu.Unlock()
		return ErrNotRunning
	}
	var targets []controlled
	for _, s := range c.scenarios {
		if scenario == "" && s.steer != nil || s.name == scenario {
			targets = append(targets, s)
		}
	}
	c.mu.Unlock()
	if len(targets) == 0 {
		if scenario == "" {
			return errors.New("no scenario of this plan can change its load while it runs (only the closed and open models can)")
		}
		return fmt.Errorf("no scenario %q in this run", scenario)
	}
	for _, s := range targets {
		if s.steer == nil {
			return fmt.Errorf("scenario %q: its load model cannot change while it runs (only the closed and open models can)", s.name)
		}
		done := make(chan error, 1)
		ch.Done = done
		select {
		case s.steer <- ch:
		case <-time.After(5 * time.Second):
			return fmt.Errorf("scenario %q: its load model did not take the change (has it ended?)", s.name)
		}
		if err := <-done; err != nil {
			return fmt.Errorf("scenario %q: %w", s.name, err)
		}
		e := result.Event{Kind: ch.Op.String(), Scenario: s.name, By: by}
		if ch.Op == executor.SetLevel {
			e.Level, e.Unit = ch.Level, s.unit
		}
		c.mu.Lock()
		c.note(e)
		c.mu.Unlock()
	}
	return nil
}

// note records e at the time now; c.mu is held.
func (c *Controller) note(e result.Event) {
	e.T = time.Since(c.start).Seconds()
	c.events = append(c.events, e)
}

// attach puts the controller in charge of a run that starts at start:
// stop cancels its context, and the returned channel aborts it. It
// returns the steering channel of each scenario (nil for those whose
// model cannot be steered).
func (c *Controller) attach(p *Plan, start time.Time, stop context.CancelCauseFunc) (abort <-chan struct{}, steer []chan executor.Change) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.running, c.stopped, c.aborted = true, false, false
	c.start, c.stop = start, stop
	c.abort = make(chan struct{})
	c.events = nil
	c.scenarios = nil
	for _, s := range p.Scenarios {
		cs := controlled{name: s.Name}
		if st, ok := s.Load.(executor.Steerable); ok {
			cs.unit, cs.steer = st.LevelUnit(), make(chan executor.Change)
		}
		c.scenarios = append(c.scenarios, cs)
		steer = append(steer, cs.steer)
	}
	return c.abort, steer
}

// detach ends the controller's charge and returns the run's timeline.
func (c *Controller) detach() []result.Event {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.running = false
	return append([]result.Event(nil), c.events...)
}
