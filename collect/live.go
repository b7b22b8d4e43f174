package collect

import (
	"maps"
	"math"
	"slices"

	"github.com/surge-load/surge/metrics"
	"github.com/surge-load/surge/result"
)

// liveSeries holds the segments' live points, by second of the run, and
// their sums.
type liveSeries struct {
	bySecond []map[int]result.Point // [k][segment]
	sums     []*result.Point        // nil where a new point arrived since
}

// add records segment's point p, if it is a point that sums.
func (l *liveSeries) add(segment int, p result.Point) error {
	if _, err := metrics.SumPoints(p); err != nil {
		return err
	}
	k := max(int(math.Round(p.T)), 0)
	for k >= len(l.bySecond) {
		l.bySecond = append(l.bySecond, nil)
		l.sums = append(l.sums, nil)
	}
	if l.bySecond[k] == nil {
		l.bySecond[k] = map[int]result.Point{}
	}
	l.bySecond[k][segment] = p
	l.sums[k] = nil
	return nil
}

// merged returns the sum of every second's points.
func (l *liveSeries) merged() []result.Point {
	out := make([]result.Point, len(l.bySecond))
	for k, m := range l.bySecond {
		if l.sums[k] == nil {
			ps := make([]result.Point, 0, len(m))
			for _, seg := range slices.Sorted(maps.Keys(m)) {
				ps = append(ps, m[seg])
			}
			// add took only points that sum.
			sum, _ := metrics.SumPoints(ps...)
			sum.T = float64(k)
			l.sums[k] = &sum
		}
		out[k] = *l.sums[k]
	}
	return out
}
