package collect

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/surge-load/surge"
	"github.com/surge-load/surge/metrics"
	"github.com/surge-load/surge/result"
)

// RunnerConfig configures a Runner.
type RunnerConfig struct {
	// URL is the collector's base URL, such as http://surge-collector:7070.
	URL string
	// Token is the collector's shared token; it may be empty only when
	// the collector is on a loopback address.
	Token string
	// Index and Count are the segment this runner runs: Index of Count.
	Index, Count int
	// Plan identifies the plan (surge.Plan.Hash): every segment must run
	// the same.
	Plan string
	// Planned is the plan's length without the grace period.
	Planned time.Duration
	// Scenarios names the scenario of each endpoint
	// (surge.Plan.EndpointScenarios), for the collector's /metrics.
	Scenarios map[string]string
	// JoinRetry bounds how long Join keeps trying while the collector
	// cannot be reached yet (its pod may start after the runners'). Zero
	// means two minutes.
	JoinRetry time.Duration
	// Client, if not nil, carries the requests; nil means a client of the
	// runner's own.
	Client *http.Client
	// Log, if not nil, receives a line for every step: joined, started,
	// part sent.
	Log io.Writer
}

// A Runner is one segment's side of a split run: pass it to surge.Run as
// surge.Options.Coordinator, then send the result with Finish.
type Runner struct {
	cfg  RunnerConfig
	base *url.URL
	host string

	queue chan json.RawMessage
	sent  sync.WaitGroup
	lost  atomic.Int64 // live ticks that never reached the collector
	once  sync.Once

	soFarBusy atomic.Bool // a result so far is on its way
	soFarLast time.Time   // when the last one left; only Watch uses it
	soFarSent sync.WaitGroup
}

// soFarEvery is how often a runner sends its result so far for the live
// page: each is the whole run so far, so not every second.
const soFarEvery = 2 * time.Second

var _ surge.Coordinator = (*Runner)(nil)

// pointQueue is how many live ticks a runner holds while the collector
// is slow; more are dropped and counted.
const pointQueue = 64

// NewRunner checks cfg and returns a runner.
func NewRunner(cfg RunnerConfig) (*Runner, error) {
	u, err := url.Parse(cfg.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("collector URL %q: want http://HOST:PORT, such as http://127.0.0.1:7070", cfg.URL)
	}
	if err := CheckToken(u.Hostname(), cfg.Token); err != nil {
		return nil, err
	}
	if cfg.Count < 1 || cfg.Index < 0 || cfg.Index >= cfg.Count {
		return nil, fmt.Errorf("segment %d/%d: want I/N with 0 <= I < N", cfg.Index, cfg.Count)
	}
	if cfg.JoinRetry <= 0 {
		cfg.JoinRetry = 2 * time.Minute
	}
	if cfg.Client == nil {
		cfg.Client = &http.Client{Transport: &http.Transport{
			DialContext:         (&net.Dialer{Timeout: 10 * time.Second}).DialContext,
			TLSHandshakeTimeout: 10 * time.Second,
			MaxIdleConnsPerHost: 4,
		}}
	}
	host, _ := os.Hostname()
	return &Runner{cfg: cfg, base: u, host: host, queue: make(chan json.RawMessage, pointQueue)}, nil
}

// Join registers the segment, trying again while the collector cannot be
// reached, and waits for the barrier. It reports whether this segment runs
// the plan's setup.
func (r *Runner) Join(ctx context.Context) (bool, error) {
	req := joinRequest{Index: r.cfg.Index, Count: r.cfg.Count, Plan: r.cfg.Plan, Host: r.host, PlannedS: r.cfg.Planned.Seconds(), Scenarios: r.cfg.Scenarios}
	var rep joinReply
	deadline := time.Now().Add(r.cfg.JoinRetry)
	for {
		err := r.call(ctx, pathJoin, req, &rep)
		var unreachable *unreachableError
		if err == nil || !errors.As(err, &unreachable) || time.Now().After(deadline) || ctx.Err() != nil {
			if err != nil {
				return false, fmt.Errorf("join the collector at %s: %w", r.cfg.URL, err)
			}
			break
		}
		select {
		case <-time.After(time.Second):
		case <-ctx.Done():
		}
	}
	r.logf("segment %d/%d joined the collector at %s (%d segments are in)", r.cfg.Index, r.cfg.Count, r.cfg.URL, rep.Parts)
	return rep.RunSetup, nil
}

// Start sends the outcome of the setup, if this segment ran it, and waits
// for the common start.
func (r *Runner) Start(ctx context.Context, captured json.RawMessage, setupErr error) (time.Time, json.RawMessage, error) {
	req := startRequest{Index: r.cfg.Index, Setup: captured}
	if setupErr != nil {
		req.Error = setupErr.Error()
	}
	var rep startReply
	if err := r.call(ctx, pathStart, req, &rep); err != nil {
		return time.Time{}, nil, fmt.Errorf("start: %w", err)
	}
	r.logf("segment %d/%d starts at %s", r.cfg.Index, r.cfg.Count, rep.StartAt.UTC().Format(time.RFC3339Nano))
	r.sent.Add(1)
	go r.stream()
	return rep.StartAt, rep.Setup, nil
}

// Tick queues t, with the arrivals dropped so far by each scenario, for
// the collector; when the queue is full it is dropped and counted, never
// waited for.
func (r *Runner) Tick(t *metrics.Tick, droppedByScenario map[string]int64) {
	b, err := json.Marshal(liveTick{Tick: *t, Dropped: droppedByScenario})
	if err != nil {
		r.lost.Add(1)
		return
	}
	select {
	case r.queue <- b:
	default:
		r.lost.Add(1)
	}
}

// Watch sends res, the run so far (surge.Options.Watch), for the
// collector's live page: at most every two seconds, and never while the
// last one is still on its way. It does not wait for the collector.
func (r *Runner) Watch(res *result.Result) {
	if time.Since(r.soFarLast) < soFarEvery || !r.soFarBusy.CompareAndSwap(false, true) {
		return
	}
	r.soFarLast = time.Now()
	r.soFarSent.Add(1)
	go func() {
		defer r.soFarSent.Done()
		defer r.soFarBusy.Store(false)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = r.call(ctx, pathSoFar, soFarRequest{Index: r.cfg.Index, Result: res}, nil)
	}()
}

// stream sends the queued ticks, as many at once as are waiting.
func (r *Runner) stream() {
	defer r.sent.Done()
	for first := range r.queue {
		batch := []json.RawMessage{first}
	more:
		for len(batch) < pointQueue {
			select {
			case p, ok := <-r.queue:
				if !ok {
					break more
				}
				batch = append(batch, p)
			default:
				break more
			}
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		err := r.call(ctx, pathTicks, struct {
			Index int               `json:"index"`
			Ticks []json.RawMessage `json:"ticks"`
		}{r.cfg.Index, batch}, nil)
		cancel()
		if err != nil {
			r.lost.Add(int64(len(batch)))
		}
	}
}

// LostTicks returns how many live ticks never reached the collector.
func (r *Runner) LostTicks() int64 { return r.lost.Load() }

// Finish sends the remaining live points and then res, the segment's
// part, trying again for a while if the collector cannot be reached.
func (r *Runner) Finish(ctx context.Context, res *result.Result) error {
	r.closeQueue()
	r.sent.Wait()
	r.soFarSent.Wait()
	if n := r.lost.Load(); n > 0 {
		r.logf("%d live seconds never reached the collector (the live view missed them; the part has them)", n)
	}
	err := r.retry(ctx, pathPart, partRequest{Index: r.cfg.Index, Result: res})
	if err != nil {
		return fmt.Errorf("send the part to the collector at %s: %w", r.cfg.URL, err)
	}
	r.logf("segment %d/%d sent its part to the collector", r.cfg.Index, r.cfg.Count)
	return nil
}

// Fail tells the collector that this segment will send no part, and why.
func (r *Runner) Fail(ctx context.Context, cause error) error {
	r.closeQueue()
	r.sent.Wait()
	return r.retry(ctx, pathFail, failRequest{Index: r.cfg.Index, Error: cause.Error()})
}

func (r *Runner) closeQueue() { r.once.Do(func() { close(r.queue) }) }

// retry calls path until it succeeds, the collector refuses, or half a
// minute has passed.
func (r *Runner) retry(ctx context.Context, path string, body any) error {
	deadline := time.Now().Add(30 * time.Second)
	for {
		err := r.call(ctx, path, body, nil)
		var unreachable *unreachableError
		if err == nil || !errors.As(err, &unreachable) || time.Now().After(deadline) || ctx.Err() != nil {
			return err
		}
		select {
		case <-time.After(time.Second):
		case <-ctx.Done():
		}
	}
}

// An unreachableError is a request that did not reach the collector or
// that it could not answer yet: worth trying again.
type unreachableError struct{ err error }

func (e *unreachableError) Error() string { return e.err.Error() }
func (e *unreachableError) Unwrap() error { return e.err }

// call POSTs body as JSON to path and decodes the answer into reply.
func (r *Runner) call(ctx context.Context, path string, body, reply any) error {
	b, err := json.Marshal(body)
	if err != nil {
		return fmt.Errorf("encode: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, r.base.JoinPath(path).String(), bytes.NewReader(b))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	if r.cfg.Token != "" {
		req.Header.Set("Authorization", "Bearer "+r.cfg.Token)
	}
	resp, err := r.cfg.Client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return context.Cause(ctx)
		}
		return &unreachableError{err}
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxSmallBody))
	if err != nil {
		return &unreachableError{fmt.Errorf("read the answer: %w", err)}
	}
	if resp.StatusCode/100 != 2 {
		var e errorReply
		msg := strings.TrimSpace(string(data))
		if json.Unmarshal(data, &e) == nil && e.Error != "" {
			msg = e.Error
		}
		err := fmt.Errorf("the collector answered %s: %s", resp.Status, msg)
		if resp.StatusCode == http.StatusServiceUnavailable || resp.StatusCode == http.StatusBadGateway {
			return &unreachableError{err}
		}
		return err
	}
	if reply != nil {
		if err := json.Unmarshal(data, reply); err != nil {
			return fmt.Errorf("decode the answer: %w", err)
		}
	}
	return nil
}

func (r *Runner) logf(format string, args ...any) {
	if r.cfg.Log != nil {
		fmt.Fprintf(r.cfg.Log, "surge: "+format+"\n", args...)
	}
}
