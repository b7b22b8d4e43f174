package main

import (
	"fmt"
	"io"
	"net"
	"os"
	"sync"
	"time"

	"github.com/surge-load/surge/collect"
	"github.com/surge-load/surge/live"
	"github.com/surge-load/surge/livemetrics"
	"github.com/surge-load/surge/metrics"
	"github.com/surge-load/surge/result"
)

// collectPage is the collector's live page (surge collect --ui): package
// live's page and /metrics, fed with the merge of the runners' results so
// far and with their ticks, added up. It starts when the barrier falls,
// once a runner has said what the plan's endpoints are.
type collectPage struct {
	addr, token string

	mu  sync.Mutex
	set *livemetrics.Set
	srv *live.Server
}

// check checks --ui and --ui-token before anything else happens.
func (p *collectPage) check() error {
	if p.token == "" {
		p.token = os.Getenv("SURGE_UI_TOKEN")
	}
	host, _, err := net.SplitHostPort(p.addr)
	if err != nil {
		return invalid("--ui %q: want HOST:PORT, such as 127.0.0.1:8089", p.addr)
	}
	if !collect.IsLoopback(host) && p.token == "" {
		return invalid("--ui %q is not a loopback address: choose a token with --ui-token TOKEN (or $SURGE_UI_TOKEN), or listen on 127.0.0.1", p.addr)
	}
	return nil
}

// start serves the page once c's barrier has fallen.
func (p *collectPage) start(c *collect.Collector, stderr io.Writer) {
	go func() {
		<-c.Joined()
		set := livemetrics.New(c.EndpointScenarios(), "")
		srv, err := live.New(live.Config{Addr: p.addr, Token: p.token, Metrics: set, Planned: c.Planned()})
		if err != nil {
			fmt.Fprintf(stderr, "surge collect: warning: no live page: %v\n", err)
			return
		}
		srv.Serve()
		p.mu.Lock()
		p.set, p.srv = set, srv
		p.mu.Unlock()
		fmt.Fprintf(stderr, "surge collect: live page of the whole run: %s (read-only: the collector does not steer the runners)\n", srv.URL())
	}()
}

// started returns the page's metrics and server, nil until it started.
func (p *collectPage) started() (*livemetrics.Set, *live.Server) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.set, p.srv
}

// tick counts a runner's interval (collect.Config.OnTick).
func (p *collectPage) tick(t *metrics.Tick) {
	if set, _ := p.started(); set != nil {
		set.Add(t)
	}
}

// dropped counts the runners' dropped arrivals (collect.Config.OnDropped).
func (p *collectPage) dropped(total map[string]int64) {
	if set, _ := p.started(); set != nil {
		set.AddDropped(total)
	}
}

// watch shows the merged run so far (collect.Config.Watch).
func (p *collectPage) watch(r *result.Result) {
	if _, srv := p.started(); srv != nil {
		srv.Watch(r)
	}
}

// finish shows the merged result, marked done.
func (p *collectPage) finish(r *result.Result) {
	if _, srv := p.started(); srv != nil && r != nil {
		srv.Finish(r)
	}
}

// close stops the page.
func (p *collectPage) close() {
	if _, srv := p.started(); srv != nil {
		srv.Close(2 * time.Second)
	}
}
