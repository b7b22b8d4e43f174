package collect

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/surge-load/surge/metrics"
	"github.com/surge-load/surge/result"
)

// Bounds on request bodies: a part holds the whole series of a segment.
const (
	maxSmallBody = 1 << 20
	maxTicksBody = 16 << 20
	maxPartBody  = 1 << 30
)

// ServeHTTP answers the runners, and GET requests for the live points
// (PathLive) and the merged result (PathResult).
func (c *Collector) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !authorized(r, c.cfg.Token) {
		replyError(w, http.StatusUnauthorized, errors.New("wrong or missing token: give this collector's --token (or SURGE_TOKEN)"))
		return
	}
	type route struct {
		method string
		limit  int64
		handle func(*http.Request, []byte) (any, int, error)
	}
	routes := map[string]route{
		pathJoin:   {http.MethodPost, maxSmallBody, c.handleJoin},
		pathStart:  {http.MethodPost, maxSmallBody, c.handleStart},
		pathTicks:  {http.MethodPost, maxTicksBody, c.handleTicks},
		pathSoFar:  {http.MethodPost, maxPartBody, c.handleSoFar},
		pathPart:   {http.MethodPost, maxPartBody, c.handlePart},
		pathFail:   {http.MethodPost, maxSmallBody, c.handleFail},
		PathLive:   {http.MethodGet, 0, c.handleLive},
		PathResult: {http.MethodGet, 0, c.handleResult},
	}
	rt, ok := routes[r.URL.Path]
	if !ok {
		replyError(w, http.StatusNotFound, fmt.Errorf("no such path %s", r.URL.Path))
		return
	}
	if r.Method != rt.method {
		w.Header().Set("Allow", rt.method)
		replyError(w, http.StatusMethodNotAllowed, fmt.Errorf("%s takes %s", r.URL.Path, rt.method))
		return
	}
	var body []byte
	if rt.limit > 0 {
		var err error
		if body, err = io.ReadAll(http.MaxBytesReader(w, r.Body, rt.limit)); err != nil {
			replyError(w, http.StatusBadRequest, fmt.Errorf("read the request after %d bytes: %w", len(body), err))
			return
		}
	}
	v, code, err := rt.handle(r, body)
	if err != nil {
		replyError(w, code, err)
		return
	}
	if raw, ok := v.([]byte); ok {
		w.Header().Set("Content-Type", "application/json")
		if _, err := w.Write(raw); err == nil && r.URL.Path == PathResult {
			c.fetched.fire()
		}
		return
	}
	if v == nil {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

func replyError(w http.ResponseWriter, code int, err error) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(errorReply{Error: err.Error()})
}

// decode decodes body into v, rejecting unknown fields.
func decode(body []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(body))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		return fmt.Errorf("decode the request: %w", err)
	}
	return nil
}

// A segmentRequest is a runner's request: it names its segment.
type segmentRequest interface {
	segmentIndex() int
}

// A selfChecker is a segmentRequest with something to check on its own
// before its segment is looked up; check returns the status code and the
// error of a refusal.
type selfChecker interface {
	check(parts int) (int, error)
}

// lockSegment is the prologue of a runner's request: it decodes body into
// req, checks the request and the segment index it names, locks c.mu and
// asks admit, with c.mu held, whether the segment is in a state to take
// the request (admit returns the status code and the error of a refusal).
// On success it returns the segment with c.mu held; on an error, c.mu is
// not held.
func (c *Collector) lockSegment(body []byte, req segmentRequest, admit func(*segment) (int, error)) (*segment, int, error) {
	if err := decode(body, req); err != nil {
		return nil, http.StatusBadRequest, err
	}
	if sc, ok := req.(selfChecker); ok {
		if code, err := sc.check(c.cfg.Parts); err != nil {
			return nil, code, err
		}
	}
	i := req.segmentIndex()
	if i < 0 || i >= c.cfg.Parts {
		return nil, http.StatusBadRequest, fmt.Errorf("segment %d is not one of the %d segments (0 to %d)", i, c.cfg.Parts, c.cfg.Parts-1)
	}
	c.mu.Lock()
	s := &c.segs[i]
	if code, err := admit(s); err != nil {
		c.mu.Unlock()
		return nil, code, err
	}
	return s, 0, nil
}

func (c *Collector) handleJoin(r *http.Request, body []byte) (any, int, error) {
	var req joinRequest
	s, code, err := c.lockSegment(body, &req, func(*segment) (int, error) {
		switch {
		case c.fallen:
			return http.StatusConflict, fmt.Errorf("segment %d joined too late: the run began without it (the collector's join wait is %v)", req.Index, c.cfg.JoinWait)
		case c.plan != "" && req.Plan != c.plan:
			return http.StatusConflict, fmt.Errorf("segment %d runs a different plan (plan hash %.12s…) from the segments that joined first (%.12s…): every runner must run the same file with the same flags", req.Index, req.Plan, c.plan)
		}
		return 0, nil
	})
	if err != nil {
		return nil, code, err
	}
	if c.plan == "" {
		c.scenarios = req.Scenarios
	}
	c.plan, c.plannedS = req.Plan, req.PlannedS
	if s.joined {
		c.logf("segment %d joined again, from %s (it had joined from %s)", req.Index, req.Host, s.host)
	} else {
		c.logf("segment %d joined, from %s", req.Index, req.Host)
	}
	s.joined, s.host = true, req.Host
	all := true
	for _, s := range c.segs {
		all = all && s.joined
	}
	c.mu.Unlock()
	if all {
		c.allJoined.fire()
	}
	select {
	case <-c.barrier.c():
	case <-r.Context().Done():
		return nil, http.StatusServiceUnavailable, waitEnded(r)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.setupBy < 0 {
		return nil, http.StatusServiceUnavailable, errors.New("the collector stopped before the run began")
	}
	n := 0
	for _, s := range c.segs {
		if s.joined {
			n++
		}
	}
	return joinReply{RunSetup: req.Index == c.setupBy, Parts: n}, 0, nil
}

func (c *Collector) handleStart(r *http.Request, body []byte) (any, int, error) {
	var req startRequest
	s, code, err := c.lockSegment(body, &req, func(s *segment) (int, error) {
		if !s.joined || !c.fallen {
			return http.StatusConflict, fmt.Errorf("segment %d asked for the start without joining first", req.Index)
		}
		return 0, nil
	})
	if err != nil {
		return nil, code, err
	}
	s.starting = true
	if req.Error != "" {
		err := fmt.Errorf("the setup failed on segment %d: %s", req.Index, req.Error)
		if req.Index == c.setupBy {
			if c.setupErr == nil {
				c.setupErr = err
			}
			c.logf("%v", err)
			c.mu.Unlock()
			c.setupDone.fire()
		} else {
			s.failed = err.Error()
			c.mu.Unlock()
		}
		return nil, http.StatusConflict, err
	}
	if req.Index == c.setupBy && !c.setupDone.fired() {
		c.setup = req.Setup
		c.mu.Unlock()
		c.setupDone.fire()
	} else {
		c.mu.Unlock()
	}
	select {
	case <-c.started.c():
	case <-r.Context().Done():
		return nil, http.StatusServiceUnavailable, waitEnded(r)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.setupErr != nil {
		return nil, http.StatusConflict, fmt.Errorf("the run was called off: %w", c.setupErr)
	}
	return startReply{StartAt: c.start, Setup: c.setup}, 0, nil
}

func (c *Collector) handleTicks(r *http.Request, body []byte) (any, int, error) {
	var req ticksRequest
	s, code, err := c.lockSegment(body, &req, func(s *segment) (int, error) {
		if !s.starting {
			return http.StatusConflict, fmt.Errorf("segment %d sent ticks before it started", req.Index)
		}
		return 0, nil
	})
	if err != nil {
		return nil, code, err
	}
	var out []*metrics.Tick
	var dropped []map[string]int64
	for i := range req.Ticks {
		t := &req.Ticks[i].Tick
		if d := req.Ticks[i].Dropped; d != nil {
			s.dropped = d
		}
		if err := c.live.add(req.Index, t.Point); err != nil {
			c.mu.Unlock()
			return nil, http.StatusBadRequest, fmt.Errorf("segment %d's tick at %gs: %w", req.Index, t.Point.T, err)
		}
		s.points++
		s.lastT = max(s.lastT, t.Point.T+t.Point.DurationS)
		s.latest = &t.Point
		if c.cfg.OnTick != nil {
			t.Point = c.latestSumLocked()
			out = append(out, t)
		}
		if c.cfg.OnDropped != nil {
			dropped = append(dropped, c.droppedSumLocked())
		}
	}
	c.mu.Unlock()
	for _, t := range out {
		c.cfg.OnTick(t)
	}
	for _, d := range dropped {
		c.cfg.OnDropped(d)
	}
	return nil, 0, nil
}

// droppedSumLocked adds up the arrivals every segment's scenarios dropped
// so far.
func (c *Collector) droppedSumLocked() map[string]int64 {
	sum := map[string]int64{}
	for _, s := range c.segs {
		for sc, n := range s.dropped {
			sum[sc] += n
		}
	}
	return sum
}

// latestSumLocked adds up every segment's latest point: the whole run's
// gauges (users, busy users, open streams, the generators') as of now.
func (c *Collector) latestSumLocked() result.Point {
	var ps []result.Point
	for _, s := range c.segs {
		if s.latest != nil && s.part == nil {
			ps = append(ps, *s.latest)
		}
	}
	sum, _ := metrics.SumPoints(ps...)
	return sum
}

func (c *Collector) handleSoFar(r *http.Request, body []byte) (any, int, error) {
	var req soFarRequest
	s, code, err := c.lockSegment(body, &req, func(s *segment) (int, error) {
		if !s.starting || c.over {
			return http.StatusConflict, fmt.Errorf("segment %d sent its result so far outside the run", req.Index)
		}
		return 0, nil
	})
	if err != nil {
		return nil, code, err
	}
	defer c.mu.Unlock()
	if s.part == nil {
		s.soFar = req.Result
		c.soFarChanged = true
	}
	return nil, 0, nil
}

func (c *Collector) handlePart(r *http.Request, body []byte) (any, int, error) {
	var req partRequest
	s, code, err := c.lockSegment(body, &req, func(s *segment) (int, error) {
		if seg := req.Result.Run.Segment; seg.Index != req.Index || seg.Count != c.cfg.Parts {
			return http.StatusBadRequest, fmt.Errorf("segment %d sent the result of segment %d/%d", req.Index, seg.Index, seg.Count)
		}
		switch {
		case c.over:
			return http.StatusGone, fmt.Errorf("segment %d's part came too late: the collector stopped waiting %v after the plan's end and merged without it", req.Index, c.cfg.PartWait)
		case !s.starting:
			return http.StatusConflict, fmt.Errorf("segment %d sent a part without starting", req.Index)
		}
		return 0, nil
	})
	if err != nil {
		return nil, code, err
	}
	s.part, s.failed = req.Result, ""
	c.logf("segment %d sent its part: %d requests", req.Index, req.Result.Totals.Requests)
	all := c.reportedLocked()
	c.mu.Unlock()
	if all {
		c.allReported.fire()
	}
	return nil, 0, nil
}

func (c *Collector) handleFail(r *http.Request, body []byte) (any, int, error) {
	var req failRequest
	s, code, err := c.lockSegment(body, &req, func(s *segment) (int, error) {
		if !s.joined {
			return http.StatusConflict, fmt.Errorf("segment %d reported a failure without joining", req.Index)
		}
		return 0, nil
	})
	if err != nil {
		return nil, code, err
	}
	if s.part == nil {
		s.failed = req.Error
		c.logf("segment %d failed: %s", req.Index, req.Error)
	}
	all := c.reportedLocked()
	c.mu.Unlock()
	if all {
		c.allReported.fire()
	}
	return nil, 0, nil
}

// reportedLocked reports whether every segment that joined has sent its
// part or said why it cannot.
func (c *Collector) reportedLocked() bool {
	for _, s := range c.segs {
		if s.joined && s.part == nil && s.failed == "" {
			return false
		}
	}
	return true
}

func (c *Collector) handleLive(*http.Request, []byte) (any, int, error) {
	return c.Live(), 0, nil
}

func (c *Collector) handleResult(*http.Request, []byte) (any, int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.result == nil {
		return nil, http.StatusNotFound, errors.New("the run is not over yet: the merged result is written once every part arrived or the wait is over")
	}
	return c.result, 0, nil
}

// waitEnded says why a request's wait ended.
func waitEnded(r *http.Request) error {
	return fmt.Errorf("request ended while waiting: %w", r.Context().Err())
}
