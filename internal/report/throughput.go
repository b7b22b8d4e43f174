package report

import (
	"math"

	"github.com/surge-load/surge/result"
)

// Throughput is what a run's series says of its successful throughput
// (successful responses per second): its busiest second, and when it fell
// to zero for good while load was still offered, as users of a dying
// server read it ("peak 803 rps, zero 1 min 10 s later").
type Throughput struct {
	// PeakOKRPS is the most successful responses in one second of the
	// active load period, per second, and PeakAtS the start of that second.
	PeakOKRPS float64
	PeakAtS   float64
	// ZeroAtS is the start of the first second after the peak from which
	// no operation succeeded until the load ended; NaN if that never
	// happened.
	ZeroAtS float64
}

// ThroughputOf reads r's series.
func ThroughputOf(r *result.Result) Throughput {
	t := Throughput{ZeroAtS: math.NaN()}
	var pts []result.Point
	for _, p := range r.Series {
		if p.DurationS > 0 && p.T < r.Run.DurationS {
			pts = append(pts, p)
		}
	}
	peak := -1
	for i, p := range pts {
		if ok := float64(p.Requests-p.Failures) / p.DurationS; ok > t.PeakOKRPS {
			t.PeakOKRPS, t.PeakAtS, peak = ok, p.T, i
		}
	}
	if peak < 0 {
		return t
	}
	zero := -1
	for i := len(pts) - 1; i > peak && pts[i].Requests-pts[i].Failures <= 0; i-- {
		zero = i
	}
	if zero > 0 {
		t.ZeroAtS = pts[zero].T
	}
	return t
}
