package analysis

import (
	"github.com/surge-load/surge/metrics"
	"github.com/surge-load/surge/result"
)

// Merge combines the results of the segments of one split plan into the
// result a single run would have written (metrics.Merge, which checks
// that the parts belong together: a *metrics.PartError names the first
// that does not) and judges it once on the whole, as a single run is
// judged (Judge), by the thresholds the parts were run with
// (ThresholdsOf). Parts may be missing: metrics.CheckComplete says which.
func Merge(parts ...*result.Result) (*result.Result, error) {
	res, err := metrics.Merge(parts...)
	if err != nil {
		return nil, err
	}
	ths, err := ThresholdsOf(parts)
	if err != nil {
		return nil, err
	}
	Judge(res, ths)
	return res, nil
}
