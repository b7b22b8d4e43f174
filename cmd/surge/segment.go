package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/surge-load/surge/executor"
)

// placementFlags put a run on the shared timeline of a run split over
// several machines: its segment of the plan and the agreed start.
type placementFlags struct {
	segment string
	startAt string
}

// A placement is the parsed placementFlags.
type placement struct {
	segment executor.Segment
	startAt time.Time // zero: now
}

func (f *placementFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&f.segment, "segment", "", "run only segment I of N of the plan, as I/N counting from 0 (users v with v%N == I, arrivals k with k%N == I); merge the parts with surge merge")
	fs.StringVar(&f.startAt, "start-at", "", "start at this agreed time (RFC 3339, such as 2026-11-30T10:00:00Z), so that the segments of a split run share one timeline")
}

// parse checks the flags.
func (f *placementFlags) parse() (placement, error) {
	var p placement
	if f.segment != "" {
		is, ns, ok := strings.Cut(f.segment, "/")
		i, err1 := strconv.Atoi(is)
		n, err2 := strconv.Atoi(ns)
		if !ok || err1 != nil || err2 != nil {
			return p, fmt.Errorf("--segment %q: want I/N, such as 0/4", f.segment)
		}
		p.segment = executor.Segment{Index: i, Count: n}
		if err := p.segment.Validate(); err != nil {
			return p, fmt.Errorf("--segment %q: %w", f.segment, trimPkg(err))
		}
	}
	if f.startAt != "" {
		t, err := time.Parse(time.RFC3339, f.startAt)
		if err != nil {
			return p, fmt.Errorf("--start-at %q: want an RFC 3339 time such as 2026-11-30T10:00:00Z", f.startAt)
		}
		if time.Until(t) < -time.Second {
			return p, fmt.Errorf("--start-at %s is in the past", f.startAt)
		}
		p.startAt = t
	}
	return p, nil
}
