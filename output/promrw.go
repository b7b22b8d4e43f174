package output

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/klauspost/compress/snappy"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/prometheus/prompb"
)

// promRW writes the live metrics with Prometheus remote write 1.0:
// snappy-compressed protobuf WriteRequests. Histograms go as histograms:
// the classic _bucket, _sum and _count series in the request with every
// other series, and the native histograms in a request of their own, so a
// receiver without native-histogram support (Prometheus before 3.0 without
// --enable-feature=native-histograms) still keeps everything else.
type promRW struct {
	url      string
	noNative bool   // the receiver refused native histograms
	note     string // why
}

var rwHeaders = map[string]string{
	"Content-Type":                      "application/x-protobuf",
	"Content-Encoding":                  "snappy",
	"X-Prometheus-Remote-Write-Version": "0.1.0",
	"User-Agent":                        "surge",
}

func (p *promRW) write(ctx context.Context, frames []*Frame) error {
	floats, natives := seriesOf(frames)
	if err := p.send(ctx, floats); err != nil {
		return err
	}
	if p.noNative || len(natives) == 0 {
		return nil
	}
	if err := p.send(ctx, natives); err != nil {
		var st *errStatus
		if errors.As(err, &st) && st.code/100 == 4 || errors.As(err, &st) && st.code/100 == 5 {
			p.noNative = true
			p.note = fmt.Sprintf("native histograms refused, classic buckets sent (start Prometheus with --enable-feature=native-histograms): %v", err)
			return nil
		}
		return err
	}
	return nil
}

func (p *promRW) send(ctx context.Context, ts []prompb.TimeSeries) error {
	if len(ts) == 0 {
		return nil
	}
	req := &prompb.WriteRequest{Timeseries: ts}
	b, err := req.Marshal()
	if err != nil {
		return fmt.Errorf("encode write request: %w", err)
	}
	return post(ctx, p.url, snappy.Encode(nil, b), rwHeaders)
}

func (p *promRW) close() error { return nil }

// Note says what the backend refused without losing points.
func (p *promRW) Note() string { return p.note }

// seriesOf turns the frames' families into remote-write series: one per
// label set, with a sample per frame; classic histograms become their
// _bucket, _sum and _count series, native ones histogram samples.
func seriesOf(frames []*Frame) (floats, natives []prompb.TimeSeries) {
	fl := map[string]*prompb.TimeSeries{}
	nat := map[string]*prompb.TimeSeries{}
	var flOrder, natOrder []string
	add := func(m map[string]*prompb.TimeSeries, order *[]string, labels []prompb.Label) *prompb.TimeSeries {
		sort.Slice(labels, func(i, j int) bool { return labels[i].Name < labels[j].Name })
		var k strings.Builder
		for _, l := range labels {
			k.WriteString(l.Name)
			k.WriteByte(0)
			k.WriteString(l.Value)
			k.WriteByte(0)
		}
		key := k.String()
		ts := m[key]
		if ts == nil {
			ts = &prompb.TimeSeries{Labels: labels}
			m[key] = ts
			*order = append(*order, key)
		}
		return ts
	}
	sample := func(name string, base []prompb.Label, v float64, ms int64, extra ...prompb.Label) {
		ls := append(append([]prompb.Label{{Name: "__name__", Value: name}}, base...), extra...)
		ts := add(fl, &flOrder, ls)
		ts.Samples = append(ts.Samples, prompb.Sample{Value: v, Timestamp: ms})
	}
	for _, f := range frames {
		ms := f.Time.UnixMilli()
		for _, fam := range f.Families {
			name := fam.GetName()
			for _, m := range fam.GetMetric() {
				base := labelsOf(m)
				switch fam.GetType() {
				case dto.MetricType_COUNTER:
					sample(name, base, m.GetCounter().GetValue(), ms)
				case dto.MetricType_GAUGE:
					sample(name, base, m.GetGauge().GetValue(), ms)
				case dto.MetricType_HISTOGRAM:
					h := m.GetHistogram()
					for _, b := range h.GetBucket() {
						sample(name+"_bucket", base, float64(b.GetCumulativeCount()), ms, prompb.Label{Name: "le", Value: formatLe(b.GetUpperBound())})
					}
					sample(name+"_bucket", base, float64(h.GetSampleCount()), ms, prompb.Label{Name: "le", Value: "+Inf"})
					sample(name+"_sum", base, h.GetSampleSum(), ms)
					sample(name+"_count", base, float64(h.GetSampleCount()), ms)
					if h.Schema != nil {
						ls := append([]prompb.Label{{Name: "__name__", Value: name}}, labelsOf(m)...)
						ts := add(nat, &natOrder, ls)
						ts.Histograms = append(ts.Histograms, nativeOf(h, ms))
					}
				}
			}
		}
	}
	for _, k := range flOrder {
		floats = append(floats, *fl[k])
	}
	for _, k := range natOrder {
		natives = append(natives, *nat[k])
	}
	return floats, natives
}

func labelsOf(m *dto.Metric) []prompb.Label {
	ls := make([]prompb.Label, 0, len(m.GetLabel()))
	for _, l := range m.GetLabel() {
		if l.GetValue() != "" {
			ls = append(ls, prompb.Label{Name: l.GetName(), Value: l.GetValue()})
		}
	}
	return ls
}

// formatLe writes a bucket bound as Prometheus does.
func formatLe(v float64) string {
	if math.IsInf(v, +1) {
		return "+Inf"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

func nativeOf(h *dto.Histogram, ms int64) prompb.Histogram {
	out := prompb.Histogram{
		Count:          &prompb.Histogram_CountInt{CountInt: h.GetSampleCount()},
		Sum:            h.GetSampleSum(),
		Schema:         h.GetSchema(),
		ZeroThreshold:  h.GetZeroThreshold(),
		ZeroCount:      &prompb.Histogram_ZeroCountInt{ZeroCountInt: h.GetZeroCount()},
		PositiveDeltas: h.GetPositiveDelta(),
		NegativeDeltas: h.GetNegativeDelta(),
		Timestamp:      ms,
	}
	for _, s := range h.GetPositiveSpan() {
		out.PositiveSpans = append(out.PositiveSpans, prompb.BucketSpan{Offset: s.GetOffset(), Length: s.GetLength()})
	}
	for _, s := range h.GetNegativeSpan() {
		out.NegativeSpans = append(out.NegativeSpans, prompb.BucketSpan{Offset: s.GetOffset(), Length: s.GetLength()})
	}
	return out
}
