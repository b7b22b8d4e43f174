package monitor

import (
	"fmt"
	"net/url"
	"path"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// The kinds of source.
const (
	KindProcess    = "process"
	KindCgroup     = "cgroup"
	KindHost       = "host"
	KindPrometheus = "prometheus"
)

// DefaultInterval is how often a source is sampled unless its spec says
// otherwise: the run's one-second timeline.
const DefaultInterval = time.Second

// A Spec is a parsed, validated source: what to watch and how often.
type Spec struct {
	Name     string // the user's name, as in thresholds (NAME.SERIES)
	Raw      string // the spec as given
	Kind     string // KindProcess, KindCgroup, KindHost or KindPrometheus
	Interval time.Duration
	// PID is the process of process:PID; Match the name of process:NAME.
	PID   int
	Match string
	// Dir is the cgroup v2 directory of cgroup:PATH and container:ID.
	Dir string
	// URL is the endpoint of prometheus:URL; Metrics, if not empty, the
	// metric names (shell patterns such as node_cpu_*) to keep.
	URL     string
	Metrics []string
}

var nameRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]*$`)

// ParseFlag parses the value of --monitor: NAME=SPEC.
func ParseFlag(s string) (Spec, error) {
	name, spec, ok := strings.Cut(s, "=")
	if !ok {
		return Spec{}, fmt.Errorf("--monitor %q: want NAME=SPEC, such as api=process:nginx or db=prometheus:http://10.0.0.5:9187/metrics", s)
	}
	return Parse(strings.TrimSpace(name), strings.TrimSpace(spec))
}

// Parse parses the spec of the source named name:
//
//	process:PID | process:NAME | cgroup:PATH | container:ID | host | prometheus:URL
//
// followed by options separated by spaces: interval=DURATION (any source)
// and metrics=PATTERN,PATTERN (prometheus: the metric names to keep, such
// as metrics=node_load1,node_memory_*). A relative cgroup PATH is under the
// cgroup v2 mount; container:ID is resolved to its cgroup directory now.
func Parse(name, spec string) (Spec, error) {
	if !nameRE.MatchString(name) {
		return Spec{}, fmt.Errorf("monitor %q: a name is letters, digits, _ and -, starting with a letter, such as api or db_1", name)
	}
	s := Spec{Name: name, Raw: spec, Interval: DefaultInterval}
	fail := func(format string, args ...any) (Spec, error) {
		return Spec{}, fmt.Errorf("monitor %s=%q: %s", name, spec, fmt.Sprintf(format, args...))
	}
	body, opts := splitOptions(spec)
	kind, arg, _ := strings.Cut(body, ":")
	kind, arg = strings.TrimSpace(kind), strings.TrimSpace(arg)
	for _, o := range opts {
		k, v, _ := strings.Cut(o, "=")
		switch k {
		case "interval":
			d, err := time.ParseDuration(v)
			if err != nil || d < 100*time.Millisecond || d > time.Minute {
				return fail("interval=%s: want a duration from 100ms to 1m, such as interval=2s", v)
			}
			s.Interval = d
		case "metrics":
			if kind != KindPrometheus {
				return fail("metrics= filters a prometheus: source's metric names")
			}
			for _, p := range strings.Split(v, ",") {
				if _, err := path.Match(p, ""); err != nil || p == "" {
					return fail("metrics=%s: %q is not a name pattern (such as node_cpu_*)", v, p)
				}
				s.Metrics = append(s.Metrics, p)
			}
		}
	}
	switch kind {
	case KindProcess:
		if arg == "" {
			return fail("give a process id or name: process:1234 or process:nginx")
		}
		if pid, err := strconv.Atoi(arg); err == nil {
			if pid <= 0 {
				return fail("process id %d is not positive", pid)
			}
			s.Kind, s.PID = KindProcess, pid
			return s, nil
		}
		s.Kind, s.Match = KindProcess, arg
	case KindCgroup, "container":
		if arg == "" {
			return fail("give the cgroup's directory (cgroup:/sys/fs/cgroup/system.slice/nginx.service) or a container id (container:3f2a…)")
		}
		var dir string
		var err error
		if kind == KindCgroup {
			dir, err = cgroupDir(arg)
		} else {
			dir, err = containerDir(arg)
		}
		if err != nil {
			return fail("%v", err)
		}
		s.Kind, s.Dir = KindCgroup, dir
	case KindHost:
		if arg != "" {
			return fail("host takes no argument: it is this machine (watch another machine with prometheus:URL of its node exporter)")
		}
		s.Kind = KindHost
	case KindPrometheus:
		u, err := url.Parse(arg)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fail("%q is not an http(s) URL, such as prometheus:http://10.0.0.5:9100/metrics", arg)
		}
		s.Kind, s.URL = KindPrometheus, arg
	default:
		return fail("unknown source %q; sources are process:PID, process:NAME, cgroup:PATH, container:ID, host, prometheus:URL", kind)
	}
	return s, nil
}

// splitOptions takes the trailing interval= and metrics= options off spec.
func splitOptions(spec string) (body string, opts []string) {
	fields := strings.Fields(spec)
	for len(fields) > 1 {
		last := fields[len(fields)-1]
		if !strings.HasPrefix(last, "interval=") && !strings.HasPrefix(last, "metrics=") {
			break
		}
		opts = append(opts, last)
		fields = fields[:len(fields)-1]
	}
	return strings.Join(fields, " "), opts
}

// Series lists the series a source of this kind records (for a
// prometheus source, scraped metrics are m:NAME{labels}).
func (s Spec) Series() []string {
	switch s.Kind {
	case KindProcess:
		return append([]string{"cpu", "memory", "fds", "threads", "processes"}, tcpSeries...)
	case KindCgroup:
		return []string{"cpu", "memory", "pids", "throttled", "throttled_ms"}
	case KindHost:
		return hostSeries
	}
	return nil
}

// HasSeries reports whether a source of this kind can record series
// (m:NAME… for a prometheus source; cpu_limit is cpu against the limit).
func (s Spec) HasSeries(series string) bool {
	if strings.HasPrefix(series, "m:") {
		return s.Kind == KindPrometheus
	}
	if series == "cpu_limit" {
		series = "cpu"
	}
	for _, n := range s.Series() {
		if n == series {
			return true
		}
	}
	return false
}

// SeriesHelp lists the series a threshold may name on this source.
func (s Spec) SeriesHelp() []string {
	if s.Kind == KindPrometheus {
		return []string{`m:METRIC`, `m:METRIC{label="value"}`}
	}
	out := s.Series()
	return append(out[:1:1], append([]string{"cpu_limit"}, out[1:]...)...)
}
