package output

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/influxdata/line-protocol/v2/lineprotocol"

	"github.com/surge-load/surge/livemetrics"
	"github.com/surge-load/surge/result"
)

// influx writes line protocol to InfluxDB: 1.x at /write?db=NAME, 2.x at
// /api/v2/write?org=ORG&bucket=BUCKET with the token in $INFLUX_TOKEN.
// Every second it writes, per endpoint and outcome, the operations of that
// second (surge_requests, field count), so that sums over any period are
// exact; per endpoint the second's latency percentiles (surge_latency, in
// milliseconds); and the run's gauges (surge_run).
type influx struct {
	url    string
	header map[string]string
}

func newInflux(target string) (*influx, error) {
	u, err := httpURL(target, "/write")
	if err != nil {
		return nil, err
	}
	q := u.Query()
	switch {
	case strings.HasSuffix(u.Path, "/api/v2/write"):
		if q.Get("bucket") == "" || q.Get("org") == "" {
			return nil, fmt.Errorf("InfluxDB 2.x wants ?org=ORG&bucket=BUCKET, and the token in $INFLUX_TOKEN")
		}
	case strings.HasSuffix(u.Path, "/write"):
		if q.Get("db") == "" {
			q.Set("db", "surge")
		}
	default:
		return nil, fmt.Errorf("want InfluxDB's /write?db=NAME (1.x) or /api/v2/write?org=ORG&bucket=BUCKET (2.x), not %q", u.Path)
	}
	q.Set("precision", "ms")
	u.RawQuery = q.Encode()
	h := map[string]string{"Content-Type": "text/plain; charset=utf-8", "User-Agent": "surge"}
	if tok := os.Getenv("INFLUX_TOKEN"); tok != "" {
		h["Authorization"] = "Token " + tok
	}
	return &influx{url: u.String(), header: h}, nil
}

func (w *influx) write(ctx context.Context, frames []*Frame) error {
	var e lineprotocol.Encoder
	e.SetPrecision(lineprotocol.Millisecond)
	for _, f := range frames {
		encodeFrame(&e, f)
	}
	if err := e.Err(); err != nil {
		return fmt.Errorf("encode line protocol: %w", err)
	}
	return post(ctx, w.url, e.Bytes(), w.header)
}

func (w *influx) close() error { return nil }

// encodeFrame writes f's lines; tags in lexical order, as line protocol
// wants, and empty tags left out.
func encodeFrame(e *lineprotocol.Encoder, f *Frame) {
	p := &f.Tick.Point
	at := f.Start.Add(time.Duration(p.T * float64(time.Second)))
	tag := func(k, v string) {
		if v != "" {
			e.AddTag(k, v)
		}
	}
	for i := range f.Tick.Endpoints {
		ep := &f.Tick.Endpoints[i]
		sc := f.Scenario[ep.Name]
		for _, o := range ep.Outcomes {
			e.StartLine("surge_requests")
			tag("class", livemetrics.ClassLabel(o.Class))
			tag("endpoint", ep.Name)
			tag("scenario", sc)
			tag(livemetrics.SegmentLabel, f.Segment)
			tag("status", livemetrics.StatusLabel(o.Status))
			e.AddField("count", lineprotocol.IntValue(o.Count))
			e.EndLine(at)
		}
		e.StartLine("surge_latency")
		tag("endpoint", ep.Name)
		tag("scenario", sc)
		tag(livemetrics.SegmentLabel, f.Segment)
		e.AddField("requests", lineprotocol.IntValue(ep.Requests))
		e.AddField("failures", lineprotocol.IntValue(ep.Failures))
		latencyFields(e, &ep.Latency)
		e.EndLine(at)
	}
	e.StartLine("surge_run")
	tag(livemetrics.SegmentLabel, f.Segment)
	e.AddField("users", lineprotocol.IntValue(p.Users))
	e.AddField("busy", lineprotocol.IntValue(p.Busy))
	e.AddField("requests", lineprotocol.IntValue(p.Requests))
	e.AddField("failures", lineprotocol.IntValue(p.Failures))
	e.AddField("dropped", lineprotocol.IntValue(p.Dropped))
	e.AddField("rps", floatValue(p.RPS))
	if p.Streams != nil {
		e.AddField("streams_open", lineprotocol.IntValue(p.Streams.Open))
	}
	latencyFields(e, &p.Latency)
	g := &p.Generator
	e.AddField("cpu_percent", floatValue(g.CPUPercent))
	e.AddField("goroutines", lineprotocol.IntValue(int64(g.Goroutines)))
	e.AddField("heap_bytes", lineprotocol.IntValue(int64(g.HeapBytes)))
	e.AddField("lag_p99_ms", floatValue(g.LagP99Ms))
	e.AddField("gc_pause_ms", floatValue(g.GCPauseMs))
	e.EndLine(at)
}

func latencyFields(e *lineprotocol.Encoder, l *result.Percentiles) {
	e.AddField("p50_ms", floatValue(l.P50))
	e.AddField("p90_ms", floatValue(l.P90))
	e.AddField("p95_ms", floatValue(l.P95))
	e.AddField("p99_ms", floatValue(l.P99))
	e.AddField("max_ms", floatValue(l.Max))
	e.AddField("mean_ms", floatValue(l.Mean))
}

func floatValue(v float64) lineprotocol.Value {
	if x, ok := lineprotocol.FloatValue(v); ok {
		return x
	}
	return lineprotocol.MustNewValue(int64(0))
}
