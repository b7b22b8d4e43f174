package executor

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// A Stage moves the load linearly from the previous stage's target (or the
// model's starting value) to Target over Duration. Target is a number of
// users in the closed model and arrivals per second in the open model. A
// Duration of zero steps to Target at once; holding a level is a stage whose
// Target equals the previous one.
type Stage struct {
	Duration time.Duration
	Target   float64
}

// ParseStages parses a comma-separated list of stages, each written
// "duration:target" with a time.ParseDuration duration and a plain decimal
// target, as in "30s:100,2m:100,10s:0".
func ParseStages(s string) ([]Stage, error) {
	if strings.TrimSpace(s) == "" {
		return nil, errorf("no stages given")
	}
	var stages []Stage
	var total time.Duration
	for i, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			return nil, errorf("stage %d is empty in %q", i+1, s)
		}
		ds, ts, ok := strings.Cut(part, ":")
		if !ok {
			return nil, errorf("stage %d %q: want duration:target, as in 30s:100", i+1, part)
		}
		d, err := time.ParseDuration(strings.TrimSpace(ds))
		if err != nil {
			return nil, errorf("stage %d %q: duration %q is not a duration such as 30s or 2m", i+1, part, ds)
		}
		ts = strings.TrimSpace(ts)
		t, err := strconv.ParseFloat(ts, 64)
		if err != nil {
			if strings.Contains(ts, "/") {
				return nil, errorf("stage %d %q: target %q is not a number (stage rates are per second, without a unit)", i+1, part, ts)
			}
			return nil, errorf("stage %d %q: target %q is not a number", i+1, part, ts)
		}
		st := Stage{Duration: d, Target: t}
		if err := st.validate(); err != nil {
			return nil, errorf("stage %d %q: %v", i+1, part, err)
		}
		if total+st.Duration < total {
			return nil, errorf("stages %q last longer than %v", s, time.Duration(math.MaxInt64))
		}
		total += st.Duration
		stages = append(stages, st)
	}
	return stages, nil
}

// ParseRate parses an arrival rate and returns it per second. A rate is a
// count, optionally followed by "/" and a time.ParseDuration period whose
// leading 1 may be left out: "2000" and "2000/s" are 2000 per second,
// "100/1m" is 100 per minute, "5/100ms" is 50 per second.
func ParseRate(s string) (float64, error) {
	cs, ps, hasPeriod := strings.Cut(strings.TrimSpace(s), "/")
	cs = strings.TrimSpace(cs)
	n, err := strconv.ParseFloat(cs, 64)
	if err != nil || math.IsNaN(n) || math.IsInf(n, 0) {
		return 0, errorf("rate %q: count %q is not a finite number", s, cs)
	}
	if n < 0 {
		return 0, errorf("rate %q: count %q is negative", s, cs)
	}
	if !hasPeriod {
		return n, nil
	}
	ps = strings.TrimSpace(ps)
	p := ps
	if p != "" && (p[0] < '0' || p[0] > '9') && p[0] != '.' {
		p = "1" + p
	}
	d, err := time.ParseDuration(p)
	if err != nil {
		return 0, errorf("rate %q: period %q is not a duration such as s, 1m or 100ms", s, ps)
	}
	if d <= 0 {
		return 0, errorf("rate %q: period %q is not positive", s, ps)
	}
	r := n / d.Seconds()
	if math.IsInf(r, 0) {
		return 0, errorf("rate %q is too large to count", s)
	}
	return r, nil
}

func (st Stage) validate() error {
	switch {
	case st.Duration < 0:
		return fmt.Errorf("duration %v is negative", st.Duration)
	case math.IsNaN(st.Target) || math.IsInf(st.Target, 0):
		return fmt.Errorf("target %v is not a finite number", st.Target)
	case st.Target < 0:
		return fmt.Errorf("target %v is negative", st.Target)
	}
	return nil
}

// validateStages checks stages and returns their total duration. unit names
// what targets count, for messages.
func validateStages(stages []Stage, maxTarget float64, unit string) (time.Duration, error) {
	if len(stages) == 0 {
		return 0, errorf("no stages")
	}
	var total time.Duration
	for i, st := range stages {
		if err := st.validate(); err != nil {
			return 0, errorf("stage %d: %v", i+1, err)
		}
		if st.Target > maxTarget {
			return 0, errorf("stage %d: target %v is more than %v %s", i+1, st.Target, maxTarget, unit)
		}
		if total > math.MaxInt64-st.Duration {
			return 0, errorf("stage %d: the stages last longer than %v", i+1, time.Duration(math.MaxInt64))
		}
		total += st.Duration
	}
	if total == 0 {
		return 0, errorf("the stages last 0s")
	}
	return total, nil
}

// totalDuration returns the sum of the stages' durations.
func totalDuration(stages []Stage) time.Duration {
	var d time.Duration
	for _, st := range stages {
		d += st.Duration
	}
	return d
}
