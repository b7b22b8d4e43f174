package collect

import (
	"encoding/json"
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

// errorReply is the body of every answer that is not a success.
type errorReply struct {
	Error string `json:"error"`
}

// soFarRequest carries a segment's result so far, for the live page.
type soFarRequest = partRequest
