package metrics

// aggregate is the full-precision aggregate of a set of operations: its
// tally and histograms of latency and service time.
type aggregate struct {
	tally
	latency, service *hist
	ok               *hist // latency of the successes
}

func newAggregate() *aggregate {
	return &aggregate{latency: newHist(), service: newHist(), ok: newHist()}
}

func (s *aggregate) merge(o *aggregate) {
	s.tally.merge(&o.tally)
	s.latency.Merge(o.latency)
	s.service.Merge(o.service)
	s.ok.Merge(o.ok)
}

// mergeLatency adds o's counts and latency histogram into s, leaving out
// the histograms of service time and of the successes.
func (s *aggregate) mergeLatency(o *aggregate) {
	s.tally.merge(&o.tally)
	s.latency.Merge(o.latency)
}

func (s *aggregate) reset() {
	s.tally.reset()
	s.latency.Reset()
	s.service.Reset()
	s.ok.Reset()
}

// interval is what all shards recorded in one collection interval.
type interval struct {
	eps      []*aggregate // by EndpointID
	dropped  int64
	lag      *hist
	lagMaxUs int64
	// arrivals and late: the arrivals handed out, and those LateArrival
	// or more late.
	arrivals, late int64

	// Warm-up operations, by EndpointID, and drops.
	warm        []*aggregate
	warmDropped int64
}

func newInterval() *interval { return &interval{lag: newHist()} }

// aggregateIn returns endpoint id of *eps, growing it on first use.
func aggregateIn(eps *[]*aggregate, id EndpointID) *aggregate {
	for int(id) >= len(*eps) {
		*eps = append(*eps, nil)
	}
	if (*eps)[id] == nil {
		(*eps)[id] = newAggregate()
	}
	return (*eps)[id]
}

func (iv *interval) reset() {
	for _, eps := range [][]*aggregate{iv.eps, iv.warm} {
		for _, ep := range eps {
			if ep != nil {
				ep.reset()
			}
		}
	}
	iv.dropped, iv.warmDropped = 0, 0
	iv.lag.Reset()
	iv.lagMaxUs = 0
	iv.arrivals, iv.late = 0, 0
}
