package output

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/surge-load/surge/livemetrics"
	"github.com/surge-load/surge/result"
)

// jsonl appends one JSON object per second per endpoint to a file (see
// Line), created on the first write.
type jsonl struct {
	path   string
	f      *os.File
	bw     *bufio.Writer
	opened bool // once: later runs append
}

// A Line is one endpoint's second in a jsonl output.
type Line struct {
	Time      time.Time          `json:"time"` // the start of the second
	T         float64            `json:"t"`    // seconds since the run's start
	DurationS float64            `json:"duration_s"`
	Scenario  string             `json:"scenario,omitempty"`
	Segment   string             `json:"segment,omitempty"` // "I/N" for a segment of a split plan
	Endpoint  string             `json:"endpoint"`
	Requests  int64              `json:"requests"`
	Failures  int64              `json:"failures"`
	Outcomes  []LineOutcome      `json:"outcomes"`
	Latency   result.Percentiles `json:"latency_ms"`
	Users     int64              `json:"users"`
	Dropped   int64              `json:"dropped"` // arrivals dropped in the second, all endpoints
}

// LineOutcome counts a second's operations with one status and class.
type LineOutcome struct {
	Status string `json:"status,omitempty"`
	Class  string `json:"class"`
	Count  int64  `json:"count"`
}

func (j *jsonl) write(_ context.Context, frames []*Frame) error {
	if j.f == nil {
		flag := os.O_CREATE | os.O_WRONLY | os.O_TRUNC
		if j.opened {
			flag = os.O_WRONLY | os.O_APPEND
		}
		f, err := os.OpenFile(j.path, flag, 0o644)
		if err != nil {
			return fmt.Errorf("jsonl output: %w", err)
		}
		j.f, j.bw, j.opened = f, bufio.NewWriter(f), true
	}
	enc := json.NewEncoder(j.bw)
	for _, f := range frames {
		p := &f.Tick.Point
		for i := range f.Tick.Endpoints {
			ep := &f.Tick.Endpoints[i]
			l := Line{
				Time: f.Start.Add(time.Duration(p.T * float64(time.Second))).UTC(), T: p.T, DurationS: p.DurationS,
				Scenario: f.Scenario[ep.Name], Segment: f.Segment, Endpoint: ep.Name, Requests: ep.Requests, Failures: ep.Failures,
				Latency: ep.Latency, Users: p.Users, Dropped: p.Dropped, Outcomes: []LineOutcome{},
			}
			for _, o := range ep.Outcomes {
				l.Outcomes = append(l.Outcomes, LineOutcome{Status: livemetrics.StatusLabel(o.Status), Class: livemetrics.ClassLabel(o.Class), Count: o.Count})
			}
			if err := enc.Encode(&l); err != nil {
				return fmt.Errorf("jsonl output: %w", err)
			}
		}
	}
	if err := j.bw.Flush(); err != nil {
		return fmt.Errorf("jsonl output: %w", err)
	}
	return nil
}

func (j *jsonl) close() error {
	if j.f == nil {
		return nil
	}
	err := j.f.Close()
	j.f = nil
	return err
}
