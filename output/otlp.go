package output

import (
	"context"
	"fmt"

	dto "github.com/prometheus/client_model/go"
	colmetrics "go.opentelemetry.io/proto/otlp/collector/metrics/v1"
	common "go.opentelemetry.io/proto/otlp/common/v1"
	mpb "go.opentelemetry.io/proto/otlp/metrics/v1"
	resource "go.opentelemetry.io/proto/otlp/resource/v1"
	"google.golang.org/protobuf/proto"
)

// otlp posts the live metrics as OTLP/HTTP protobuf
// ExportMetricsServiceRequests: counters as cumulative monotonic sums,
// gauges as gauges, the latency histogram as a cumulative histogram with
// the classic buckets' bounds; the names are those of /metrics.
type otlp struct{ url string }

var otlpHeaders = map[string]string{"Content-Type": "application/x-protobuf", "User-Agent": "surge"}

func (o *otlp) write(ctx context.Context, frames []*Frame) error {
	b, err := proto.Marshal(otlpRequest(frames))
	if err != nil {
		return fmt.Errorf("encode OTLP request: %w", err)
	}
	return post(ctx, o.url, b, otlpHeaders)
}

func (o *otlp) close() error { return nil }

func otlpRequest(frames []*Frame) *colmetrics.ExportMetricsServiceRequest {
	byName := map[string]*mpb.Metric{}
	var order []*mpb.Metric
	metric := func(fam *dto.MetricFamily) *mpb.Metric {
		m := byName[fam.GetName()]
		if m == nil {
			m = &mpb.Metric{Name: fam.GetName(), Description: fam.GetHelp()}
			switch fam.GetType() {
			case dto.MetricType_COUNTER:
				m.Data = &mpb.Metric_Sum{Sum: &mpb.Sum{AggregationTemporality: mpb.AggregationTemporality_AGGREGATION_TEMPORALITY_CUMULATIVE, IsMonotonic: true}}
			case dto.MetricType_GAUGE:
				m.Data = &mpb.Metric_Gauge{Gauge: &mpb.Gauge{}}
			case dto.MetricType_HISTOGRAM:
				m.Data = &mpb.Metric_Histogram{Histogram: &mpb.Histogram{AggregationTemporality: mpb.AggregationTemporality_AGGREGATION_TEMPORALITY_CUMULATIVE}}
			default:
				return nil
			}
			byName[fam.GetName()] = m
			order = append(order, m)
		}
		return m
	}
	for _, f := range frames {
		start, now := uint64(f.Start.UnixNano()), uint64(f.Time.UnixNano())
		for _, fam := range f.Families {
			m := metric(fam)
			if m == nil {
				continue
			}
			for _, dm := range fam.GetMetric() {
				attrs := attributesOf(dm)
				switch d := m.Data.(type) {
				case *mpb.Metric_Sum:
					d.Sum.DataPoints = append(d.Sum.DataPoints, &mpb.NumberDataPoint{Attributes: attrs, StartTimeUnixNano: start, TimeUnixNano: now,
						Value: &mpb.NumberDataPoint_AsDouble{AsDouble: dm.GetCounter().GetValue()}})
				case *mpb.Metric_Gauge:
					d.Gauge.DataPoints = append(d.Gauge.DataPoints, &mpb.NumberDataPoint{Attributes: attrs, TimeUnixNano: now,
						Value: &mpb.NumberDataPoint_AsDouble{AsDouble: dm.GetGauge().GetValue()}})
				case *mpb.Metric_Histogram:
					d.Histogram.DataPoints = append(d.Histogram.DataPoints, histogramPoint(dm.GetHistogram(), attrs, start, now))
				}
			}
		}
	}
	return &colmetrics.ExportMetricsServiceRequest{ResourceMetrics: []*mpb.ResourceMetrics{{
		Resource: &resource.Resource{Attributes: []*common.KeyValue{stringAttr("service.name", "surge")}},
		ScopeMetrics: []*mpb.ScopeMetrics{{
			Scope:   &common.InstrumentationScope{Name: "github.com/surge-load/surge"},
			Metrics: order,
		}},
	}}}
}

// histogramPoint turns a classic histogram's cumulative buckets into
// OTLP's per-bucket counts.
func histogramPoint(h *dto.Histogram, attrs []*common.KeyValue, start, now uint64) *mpb.HistogramDataPoint {
	sum := h.GetSampleSum()
	p := &mpb.HistogramDataPoint{Attributes: attrs, StartTimeUnixNano: start, TimeUnixNano: now, Count: h.GetSampleCount(), Sum: &sum}
	var prev uint64
	for _, b := range h.GetBucket() {
		p.ExplicitBounds = append(p.ExplicitBounds, b.GetUpperBound())
		p.BucketCounts = append(p.BucketCounts, b.GetCumulativeCount()-prev)
		prev = b.GetCumulativeCount()
	}
	p.BucketCounts = append(p.BucketCounts, h.GetSampleCount()-prev)
	return p
}

func attributesOf(m *dto.Metric) []*common.KeyValue {
	var out []*common.KeyValue
	for _, l := range m.GetLabel() {
		out = append(out, stringAttr(l.GetName(), l.GetValue()))
	}
	return out
}

func stringAttr(k, v string) *common.KeyValue {
	return &common.KeyValue{Key: k, Value: &common.AnyValue{Value: &common.AnyValue_StringValue{StringValue: v}}}
}
