package collect

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/surge-load/surge/metrics"
	"github.com/surge-load/surge/result"
)

// The collector's HTTP paths. The long polls (join, start) answer once the
// collector has decided; the others at once.
const (
	pathJoin  = "/v1/join"
	pathStart = "/v1/start"
	pathTicks = "/v1/ticks"
	pathSoFar = "/v1/sofar"
	pathPart  = "/v1/part"
	pathFail  = "/v1/fail"
	// PathLive answers GET with the merged live points so far, as a JSON
	// array of result.Point.
	PathLive = "/v1/live"
	// PathResult answers GET with the merged result once the run is over.
	PathResult = "/v1/result"
)

// joinRequest registers a segment.
type joinRequest struct {
	Index int    `json:"index"`
	Count int    `json:"count"`
	Plan  string `json:"plan"` // surge.Plan.Hash of the runner's plan
	Host  string `json:"host"`
	// PlannedS is the plan's length in seconds, without the grace period.
	PlannedS float64 `json:"planned_s"`
	// Scenarios names the scenario of each of the plan's endpoints
	// (surge.Plan.EndpointScenarios).
	Scenarios map[string]string `json:"scenarios,omitempty"`
}

// joinReply tells a segment that the barrier fell.
type joinReply struct {
	// RunSetup is true for the one segment that runs the plan's setup.
	RunSetup bool `json:"run_setup"`
	Parts    int  `json:"parts"` // the segments that joined
}

// startRequest reports a segment ready, with its setup's outcome if it ran
// the setup.
type startRequest struct {
	Index int             `json:"index"`
	Setup json.RawMessage `json:"setup,omitempty"`
	Error string          `json:"error,omitempty"`
}

// startReply fixes the common start.
type startReply struct {
	StartAt time.Time       `json:"start_at"`
	Setup   json.RawMessage `json:"setup,omitempty"`
}

// ticksRequest carries intervals of a segment's run as they end.
type ticksRequest struct {
	Index int        `json:"index"`
	Ticks []liveTick `json:"ticks"`
}

// A liveTick is one interval of a segment, with the arrivals its
// scenarios dropped so far (running totals).
type liveTick struct {
	metrics.Tick
	Dropped map[string]int64 `json:"dropped,omitempty"`
}

// partRequest carries a segment's partial result.
type partRequest struct {
	Index  int            `json:"index"`
	Result *result.Result `json:"result"`
}

// failRequest says that a segment cannot send its part.
type failRequest struct {
	Index int    `json:"index"`
	Error string `json:"error"`
}

func (r *joinRequest) segmentIndex() int  { return r.Index }
func (r *startRequest) segmentIndex() int { return r.Index }
func (r *ticksRequest) segmentIndex() int { return r.Index }
func (r *partRequest) segmentIndex() int  { return r.Index }
func (r *failRequest) segmentIndex() int  { return r.Index }

// check refuses a segment of a plan split into another number of parts.
func (r *joinRequest) check(parts int) (int, error) {
	if r.Count != parts {
		return http.StatusConflict, fmt.Errorf("segment %d/%d joined a collector of %d parts: run every segment with --segment I/%d", r.Index, r.Count, parts, parts)
	}
	return 0, nil
}

// check refuses a part or a result so far without a result.
func (r *partRequest) check(int) (int, error) {
	if r.Result == nil {
		return http.StatusBadRequest, fmt.Errorf("segment %d sent no result", r.Index)
	}
	return 0, nil
}

// errorReply is the body of every answer that is not a success.
type errorReply struct {
	Error string `json:"error"`
}

// soFarRequest carries a segment's result so far, for the live page.
type soFarRequest = partRequest
