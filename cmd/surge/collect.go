package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/surge-load/surge"
	"github.com/surge-load/surge/collect"
)

// collectFlags are the flags of `surge collect`.
type collectFlags struct {
	listen   string
	parts    int
	out      string
	report   string
	token    string
	joinWait time.Duration
	partWait time.Duration
	linger   time.Duration
	quiet    bool
	ui       collectPage
}

func newCollectCmd() *cobra.Command {
	var f collectFlags
	cmd := &cobra.Command{
		Use:   "collect --listen ADDR --parts N --out merged.json [--report FILE]",
		Short: "Coordinate a run split over several machines: common start, live view, exact merge",
		Long: `Coordinate the segments of one plan run on several machines or pods.
Each runner joins with
  surge run FILE --segment I/N --collector http://ADDR
The collector waits until every segment has joined (at most --join-wait), has
the lowest segment run the plan's setup once and hands its captured values to
every other, and fixes one start for all. While the run goes on, the runners
stream their per-second points here (GET /v1/live gives their sum); at the end
they send their parts, which are merged exactly. Thresholds are judged once,
on the whole. A segment that never joins, or sends no part by --part-wait
after the plan's end, is named in the merged result, which is then marked
incomplete.

Off a loopback address, every request carries the shared --token (or
SURGE_TOKEN), the same on the collector and every runner.

--ui serves the live page of the whole run (package live, docs/live.md):
the merge of the runners' results so far, redrawn every second, and
/metrics counting every runner's requests. It is read-only: the load is
steered on each runner.

Exit codes as surge run: 0 passed, 1 error or an incomplete result, 2 invalid
input, 3 a threshold failed, 4 interrupted.`,
		Example: `  surge collect --listen 127.0.0.1:7070 --parts 2 --out merged.json &
  surge run plan.yaml --segment 0/2 --collector http://127.0.0.1:7070 &
  surge run plan.yaml --segment 1/2 --collector http://127.0.0.1:7070

  # across machines:
  export SURGE_TOKEN=$(openssl rand -hex 16)
  surge collect --listen :7070 --parts 4 --out merged.json --report merged.html`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runCollect(cmd, &f) },
	}
	fs := cmd.Flags()
	fs.StringVar(&f.listen, "listen", "", "address to listen on for the runners, such as :7070 or 127.0.0.1:7070")
	fs.IntVar(&f.parts, "parts", 0, "the number of segments the plan is split into (N of --segment I/N)")
	fs.StringVar(&f.out, "out", "", "write the merged result document (JSON) to this file")
	fs.StringVar(&f.report, "report", "", "write the HTML report of the merged result to this file")
	fs.StringVar(&f.token, "token", "", "the shared token every runner must carry (default $"+collect.TokenEnv+"); required unless --listen is a loopback address")
	fs.DurationVar(&f.joinWait, "join-wait", 2*time.Minute, "how long to wait for every segment to join before starting with those that did")
	fs.DurationVar(&f.partWait, "part-wait", time.Minute, "how long after the plan's end to wait for the parts; a segment that has not sent its part by then is missing")
	fs.DurationVar(&f.linger, "linger", 0, "after the merge, keep serving the merged result (GET /v1/result) until it is fetched once, for at most this long, so that it can be fetched from a pod")
	fs.BoolVarP(&f.quiet, "quiet", "q", false, "print no live progress")
	fs.StringVar(&f.ui.addr, "ui", "", "serve the live page of the whole run, its API and /metrics (the sum of every runner) on this address, such as 127.0.0.1:8089 (see docs/live.md)")
	fs.StringVar(&f.ui.token, "ui-token", "", "the live page's token (default: random; required off loopback; or $SURGE_UI_TOKEN)")
	for _, name := range []string{"listen", "parts", "out"} {
		_ = cmd.MarkFlagRequired(name)
	}
	return cmd
}

func runCollect(cmd *cobra.Command, f *collectFlags) error {
	host, _, err := net.SplitHostPort(f.listen)
	if err != nil {
		return invalid("--listen %q: want HOST:PORT or :PORT, such as :7070", f.listen)
	}
	if f.parts < 1 {
		return invalid("--parts %d: want the number of segments, at least 1", f.parts)
	}
	if f.joinWait <= 0 || f.partWait <= 0 || f.linger < 0 {
		return invalid("--join-wait and --part-wait must be positive, --linger not negative")
	}
	token := f.token
	if token == "" {
		token = os.Getenv(collect.TokenEnv)
	}
	if err := collect.CheckToken(host, token); err != nil {
		return invalid("--listen: %v", err)
	}
	if err := checkDestinations(destination{flag: "out", path: f.out}, destination{flag: "report", path: f.report}); err != nil {
		return err
	}
	stderr := cmd.ErrOrStderr()
	cfg := collect.Config{Parts: f.parts, Token: token, JoinWait: f.joinWait, PartWait: f.partWait, Log: stderr}
	if f.ui.addr != "" {
		if err := f.ui.check(); err != nil {
			return err
		}
		cfg.OnTick, cfg.OnDropped, cfg.Watch = f.ui.tick, f.ui.dropped, f.ui.watch
	}
	c, err := collect.New(cfg)
	if err != nil {
		return invalid("%v", err)
	}
	ln, err := net.Listen("tcp", f.listen)
	if err != nil {
		return &codeError{code: exitError, err: fmt.Errorf("listen: %w", err)}
	}
	srv := &http.Server{Handler: c, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	defer srv.Close()
	fmt.Fprintf(stderr, "surge collect: listening on %s for %d segments (runners: surge run FILE --segment I/%d --collector http://%s)\n", ln.Addr(), f.parts, f.parts, ln.Addr())

	ctx, opts, release := interruptible(stderr, f.quiet)
	defer release()
	if f.ui.addr != "" {
		f.ui.start(c, stderr)
	}
	stopProgress := func() {}
	if opts.Progress != nil {
		stopProgress = collectProgress(c, opts.Progress)
	}
	res, err := c.Wait(ctx)
	stopProgress()
	defer f.ui.close()
	f.ui.finish(res)
	if err != nil {
		return &codeError{code: exitError, err: err}
	}
	verdictErr := show(cmd, res, f.out, f.report)
	if f.linger > 0 {
		fmt.Fprintf(stderr, "surge collect: serving the merged result at http://%s%s until it is fetched, for at most %v\n", ln.Addr(), collect.PathResult, f.linger)
		t := time.NewTimer(f.linger)
		select {
		case <-c.Fetched():
		case <-t.C:
		case <-ctx.Done():
		}
		t.Stop()
	}
	return verdictErr
}

// collectProgress shows the whole run's live progress, every second once
// it has begun; the returned func stops it.
func collectProgress(c *collect.Collector, pr surge.Progress) func() {
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		select {
		case <-c.Started():
		case <-ctx.Done():
			return
		}
		defer pr.Done()
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				pr.Live(c.Progress(), c.Planned())
			}
		}
	}()
	return func() { cancel(); wg.Wait() }
}
