package metrics

import (
	"encoding/base64"
	"fmt"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
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

// newHist returns an empty dense histogram, for the collector's aggregates.
func newHist() *hdr.Histogram { return hdr.New(histLowestUs, histHighestUs, histSigFigs) }

// newPacked returns an empty sparse histogram, for a shard's current
// interval: its memory grows with the distinct values seen, not the range.
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
// other HdrHistogram implementations read.
func encodeHist(h *hdr.Histogram) string {
	if h == nil || h.TotalCount() == 0 {
		return ""
	}
	b, err := h.Encode(hdr.V2CompressedEncodingCookieBase)
	if err != nil {
		// Encoding a well-formed in-memory histogram cannot fail.
		panic(fmt.Sprintf("metrics: encode histogram: %v", err))
	}
	return string(b)
}

// decodeHist reads a histogram written by encodeHist. The empty string is an
// empty histogram.
func decodeHist(s string) (*hdr.Histogram, error) {
	if s == "" {
		return newHist(), nil
	}
	if _, err := base64.StdEncoding.DecodeString(s); err != nil {
		return nil, fmt.Errorf("histogram is not base64: %w", err)
	}
	h, err := hdr.Decode([]byte(s))
	if err != nil {
		return nil, fmt.Errorf("decode histogram: %w", err)
	}
	return h, nil
}

// Percentiles summarise a latency distribution, in milliseconds.
type Percentiles struct {
	Min  float64 `json:"min"`
	Mean float64 `json:"mean"`
	P50  float64 `json:"p50"`
	P90  float64 `json:"p90"`
	P95  float64 `json:"p95"`
	P99  float64 `json:"p99"`
	P999 float64 `json:"p999"`
	Max  float64 `json:"max"`
}

// percentilesOf summarises h. minUs and maxUs are the exact extremes, which
// the histogram only knows to within its precision.
func percentilesOf(h *hdr.Histogram, minUs, maxUs int64) Percentiles {
	if h.TotalCount() == 0 {
		return Percentiles{}
	}
	q := h.ValueAtPercentilesSlice([]float64{50, 90, 95, 99, 99.9})
	clamp := func(us int64) float64 { return msOf(min(max(us, minUs), maxUs)) }
	return Percentiles{
		Min:  msOf(minUs),
		Mean: h.Mean() / 1000,
		P50:  clamp(q[0]),
		P90:  clamp(q[1]),
		P95:  clamp(q[2]),
		P99:  clamp(q[3]),
		P999: clamp(q[4]),
		Max:  msOf(maxUs),
	}
}

// msOf converts microseconds to milliseconds.
func msOf(us int64) float64 { return float64(us) / 1000 }

// usOf converts milliseconds, as written in a result, back to microseconds.
func usOf(ms float64) int64 { return int64(ms*1000 + 0.5) }

// LatencyPercentile returns percentile p (0 < p ≤ 100) of s's latency in
// milliseconds, read from its histogram.
func LatencyPercentile(s *Stats, p float64) (float64, error) {
	h, err := decodeHist(s.LatencyHistogram)
	if err != nil {
		return 0, err
	}
	if h.TotalCount() == 0 {
		return 0, nil
	}
	us := min(max(h.ValueAtPercentile(p), usOf(s.Latency.Min)), usOf(s.Latency.Max))
	return msOf(us), nil
}
