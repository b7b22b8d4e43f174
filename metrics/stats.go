package metrics

import (
	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// stats is the full-precision aggregate of a set of operations: counts and
// dense histograms of latency and service time.
type stats struct {
	counts
	latency, service *hdr.Histogram
}

func newStats() *stats { return &stats{latency: newHist(), service: newHist()} }

func (s *stats) merge(o *stats) {
	s.counts.merge(&o.counts)
	s.latency.Merge(o.latency)
	s.service.Merge(o.service)
}

func (s *stats) reset() {
	s.counts.reset()
	s.latency.Reset()
	s.service.Reset()
}

// interval is what all shards recorded in one collection interval.
type interval struct {
	eps      []*stats // by EndpointID
	dropped  int64
	lag      *hdr.Histogram
	lagMaxUs int64
}

func newInterval() *interval { return &interval{lag: newHist()} }

func (iv *interval) endpoint(id EndpointID) *stats {
	for int(id) >= len(iv.eps) {
		iv.eps = append(iv.eps, nil)
	}
	if iv.eps[id] == nil {
		iv.eps[id] = newStats()
	}
	return iv.eps[id]
}

func (iv *interval) reset() {
	for _, ep := range iv.eps {
		if ep != nil {
			ep.reset()
		}
	}
	iv.dropped = 0
	iv.lag.Reset()
	iv.lagMaxUs = 0
}
