package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/surge-load/surge/collect"
	"github.com/surge-load/surge/executor"
)

// placementFlags put a run on the shared timeline of a run split over
// several machines: its segment of the plan and the agreed start.
type placementFlags struct {
	segment   string
	startAt   string
	collector string
	token     string
}

// A placement is the parsed placementFlags.
type placement struct {
	segment executor.Segment
	startAt time.Time // zero: now
	// collector, if not nil, coordinates the split run: the common start,
	// the setup, the live points and the part.
	collector *collect.RunnerConfig
}

func (f *placementFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&f.segment, "segment", "", "run only segment I of N of the plan, as I/N counting from 0 (users v with v%N == I, arrivals k with k%N == I); merge the parts with surge merge")
	fs.StringVar(&f.startAt, "start-at", "", "start at this agreed time (RFC 3339, such as 2026-11-30T10:00:00Z), so that the segments of a split run share one timeline")
	fs.StringVar(&f.collector, "collector", "", "join the split run that surge collect coordinates at this URL (such as http://10.0.0.5:7070): it fixes the common start, runs the setup once, shows the whole run live and merges the parts; needs --segment")
	fs.StringVar(&f.token, "token", "", "the collector's shared token (default $"+collect.TokenEnv+"); required unless the collector is on a loopback address")
}

// parse checks the flags.
func (f *placementFlags) parse() (placement, error) {
	var p placement
	if f.segment != "" {
		is, ns, ok := strings.Cut(f.segment, "/")
		i, err1 := strconv.Atoi(is)
		n, err2 := strconv.Atoi(ns)
		if !ok || err1 != nil || err2 != nil || n < 1 {
			return p, fmt.Errorf("--segment %q: want I/N with N at least 1 and I from 0 to N-1, such as 0/4", f.segment)
		}
		p.segment = executor.Segment{Index: i, Count: n}
		if err := p.segment.Validate(); err != nil {
			return p, fmt.Errorf("--segment %q: %w", f.segment, modelError(err))
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
	switch {
	case f.collector == "" && f.token != "":
		return p, fmt.Errorf("--token goes with --collector")
	case f.collector == "":
		return p, nil
	case f.segment == "":
		return p, fmt.Errorf("--collector needs --segment I/N: which part of the split run this process runs")
	case f.startAt != "":
		return p, fmt.Errorf("--collector fixes the start for every segment; drop --start-at")
	}
	token := f.token
	if token == "" {
		token = os.Getenv(collect.TokenEnv)
	}
	cfg := collect.RunnerConfig{URL: f.collector, Token: token, Index: p.segment.Index, Count: p.segment.Count}
	if _, err := collect.NewRunner(cfg); err != nil {
		return p, fmt.Errorf("--collector: %w", err)
	}
	p.collector = &cfg
	return p, nil
}
