package metrics

import (
	"encoding/base64"
	"fmt"
	"math"
	"math/bits"
	"sync"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
	"github.com/surge-load/surge/result"
)

// Histograms record durations in microseconds from 1 µs to one hour with
// three significant digits: a reported percentile is within 0.1% of the
// true value, and histograms from any number of shards, seconds or machines
// merge exactly because their counts add.
const (
	histLowestUs  = 1
	histHighestUs = int64(time.Hour / time.Microsecond)
	histSigFigs   = 3
)

// hist is the histogram of every aggregate: HdrHistogram's packed form,
// with the same buckets, precision and V2 encoding (byte for byte) as the
// dense one, but memory that grows with the buckets in use (a few kilobytes
// for a latency distribution) rather than with the 1 µs–1 h range (184 KiB
// dense). A statistics row keeps several (the interval, the whole run, the
// warm-up), so with dense histograms each row cost about 1 MB whatever the
// load; docs/performance.md has the per-row cost now.
type hist = hdr.PackedHistogram

// newHist returns an empty histogram.
func newHist() *hist { return newPacked() }

// newPacked returns an empty packed histogram.
func newPacked() *hdr.PackedHistogram {
	return hdr.NewPacked(histLowestUs, histHighestUs, histSigFigs)
}

// micros converts d to whole microseconds clamped to the histogram's range.
func micros(d time.Duration) int64 {
	us := d.Microseconds()
	switch {
	case us < 0:
		return 0
	case us > histHighestUs:
		return histHighestUs
	}
	return us
}

// encodeHist returns h in the HdrHistogram V2 compressed, base64 form that
// other HdrHistogram implementations read, with an encoder from a pool.
func encodeHist(h *hist) string {
	if h == nil || h.TotalCount() == 0 {
		return ""
	}
	e := encoders.Get().(*histEncoder)
	defer encoders.Put(e)
	return e.encode(h)
}

// encoders are the histEncoders of encodeHist.
var encoders = sync.Pool{New: func() any { return new(histEncoder) }}

// decodeHist reads a histogram written by encodeHist. The empty string is an
// empty histogram.
func decodeHist(s string) (*hist, error) {
	if s == "" {
		return newHist(), nil
	}
	if _, err := base64.StdEncoding.DecodeString(s); err != nil {
		return nil, fmt.Errorf("histogram is not base64: %w", err)
	}
	h, err := hdr.DecodePacked([]byte(s))
	if err != nil {
		return nil, fmt.Errorf("decode histogram: %w", err)
	}
	return h, nil
}

// percentilesOf summarises h. minUs and maxUs are the exact extremes, which
// the histogram only knows to within its precision.
func percentilesOf(h *hist, minUs, maxUs int64) result.Percentiles {
	return percentilesExact(h, minUs*1000, maxUs*1000, 0)
}

// percentilesOfTally summarises h, the histogram of the operations counted
// in c, with c's exact extremes and mean.
func percentilesOfTally(h *hist, c *tally) result.Percentiles {
	return percentilesExact(h, c.latMinNs, c.latMaxNs, c.latSumNs)
}

// percentilesExact summarises h. minNs and maxNs are the exact extremes, in
// nanoseconds, which the histogram only knows to within its precision; a
// percentile is the upper end of its histogram bucket (see PercentileBucket)
// clamped to them. sumNs, if not zero, is the exact sum of the values, so the
// mean is exact too; otherwise the mean comes from the histogram.
func percentilesExact(h *hist, minNs, maxNs, sumNs int64) result.Percentiles {
	n := h.TotalCount()
	if n == 0 {
		return result.Percentiles{}
	}
	q := h.ValueAtPercentilesSlice([]float64{50, 90, 95, 99, 99.9})
	clamp := func(us int64) float64 { return msOfNs(min(max(us*1000, minNs), maxNs)) }
	p := result.Percentiles{
		Min:  msOfNs(minNs),
		Mean: h.Mean() / 1000,
		P50:  clamp(q[0]),
		P90:  clamp(q[1]),
		P95:  clamp(q[2]),
		P99:  clamp(q[3]),
		P999: clamp(q[4]),
		Max:  msOfNs(maxNs),
	}
	if sumNs != 0 {
		p.Mean = float64(sumNs) / float64(n) / 1e6
	}
	return p
}

// msOf converts microseconds to milliseconds.
func msOf(us int64) float64 { return float64(us) / 1000 }

// msOfNs converts nanoseconds to milliseconds.
func msOfNs(ns int64) float64 { return float64(ns) / 1e6 }

// usOf converts milliseconds, as written in a result, back to microseconds.
func usOf(ms float64) int64 { return int64(math.Round(ms * 1000)) }

// NsOf converts milliseconds, as written in a result, back to the whole
// nanoseconds they were made from: every duration up to the histograms'
// hour converts both ways exactly.
func NsOf(ms float64) int64 { return int64(math.Round(ms * 1e6)) }

// PercentileBucket returns the range of microsecond values, lowUs to highUs
// inclusive, that the result's histograms cannot tell apart from us: a
// percentile read from a histogram is the highest value of its bucket, and
// the true value lies somewhere in the bucket. Buckets are 1 µs wide up to
// 2,048 µs and never wider than 1/1,024 of their values above.
func PercentileBucket(us int64) (lowUs, highUs int64) {
	if us < 2048 {
		return us, us
	}
	width := int64(1) << (bits.Len64(uint64(us)) - 11)
	low := us &^ (width - 1)
	return low, low + width - 1
}

// LatencyPercentile returns percentile p (0 < p ≤ 100) of s's latency in
// milliseconds, read from its histogram.
func LatencyPercentile(s *result.Stats, p float64) (float64, error) {
	h, err := decodeHist(s.LatencyHistogram)
	if err != nil {
		return 0, err
	}
	if h.TotalCount() == 0 {
		return 0, nil
	}
	ns := min(max(h.ValueAtPercentile(p)*1000, NsOf(s.Latency.Min)), NsOf(s.Latency.Max))
	return msOfNs(ns), nil
}
