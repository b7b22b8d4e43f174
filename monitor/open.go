package monitor

import "fmt"

// open makes the sampler of s.
func open(s Spec) (sampler, error) {
	switch s.Kind {
	case KindProcess:
		return newProcessSampler(s)
	case KindCgroup:
		return newCgroupSampler(s.Dir)
	case KindHost:
		return newHostSampler()
	case KindPrometheus:
		return newPromSampler(s), nil
	}
	return nil, fmt.Errorf("unknown source kind %q", s.Kind)
}
