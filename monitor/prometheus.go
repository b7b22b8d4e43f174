package monitor

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
)

// maxSeries bounds the series one prometheus source keeps; the rest are
// counted in a note.
const maxSeries = 10000

// maxScrapeBytes bounds the body of one scrape.
const maxScrapeBytes = 64 << 20

// scrapeAccept asks for OpenMetrics or the Prometheus text format.
const scrapeAccept = "application/openmetrics-text;version=1.0.0;q=0.8,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1"

// minQuantileObservations is the fewest observations in an interval that
// give a scraped histogram's quantiles for it.
const minQuantileObservations = 5

// histogramQuantiles are the quantiles a scraped histogram becomes, per
// interval.
var histogramQuantiles = []float64{0.5, 0.95, 0.99}

// A promSampler scrapes a Prometheus text or OpenMetrics endpoint. Counters
// become per-second rates (between the samples' own timestamps where the
// endpoint gives them, else the scrape times), gauges their values, and
// histograms the 0.5, 0.95 and 0.99 quantiles of the interval's
// observations (labelled quantile="…", as a summary's are).
type promSampler struct {
	spec   Spec
	client *http.Client
	prev   map[string]counterValue
	hist   map[string][]bucket
	kept   map[string]bool
	mu     sync.Mutex
	left   map[string]bool // series left out by maxSeries
}

type counterValue struct {
	v  float64
	ms int64 // milliseconds since the epoch
}

type bucket struct {
	upper, count float64
}

func newPromSampler(s Spec) *promSampler {
	return &promSampler{spec: s, client: &http.Client{}, prev: map[string]counterValue{},
		hist: map[string][]bucket{}, kept: map[string]bool{}, left: map[string]bool{}}
}

func (p *promSampler) notes() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.left) == 0 {
		return nil
	}
	return []string{fmt.Sprintf("%d series left out beyond the first %d; keep fewer with metrics=NAME,PATTERN*", len(p.left), maxSeries)}
}

func (p *promSampler) sample(ctx context.Context) ([]reading, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, p.spec.URL, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", scrapeAccept)
	resp, err := p.client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		var ue interface{ Unwrap() error }
		if errors.As(err, &ue) {
			err = ue.Unwrap()
		}
		return nil, fmt.Errorf("scrape %s: %w", p.spec.URL, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("scrape %s: status %s", p.spec.URL, resp.Status)
	}
	now := time.Now().UnixMilli()
	rs, err := p.decode(io.LimitReader(resp.Body, maxScrapeBytes), expfmt.ResponseFormat(resp.Header), now)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("scrape %s: %w", p.spec.URL, err)
	}
	return rs, nil
}

// decode reads one exposition and turns it into readings; now is the
// scrape's time in milliseconds since the epoch, for samples without a
// timestamp.
func (p *promSampler) decode(r io.Reader, format expfmt.Format, now int64) ([]reading, error) {
	if format == expfmt.FmtUnknown {
		format = expfmt.FmtText
	}
	dec := expfmt.NewDecoder(r, format)
	var rs []reading
	for {
		var mf dto.MetricFamily
		if err := dec.Decode(&mf); err != nil {
			if errors.Is(err, io.EOF) {
				return rs, nil
			}
			return nil, err
		}
		name := mf.GetName()
		if !p.wanted(name) {
			continue
		}
		for _, m := range mf.GetMetric() {
			ts := now
			if m.TimestampMs != nil {
				ts = m.GetTimestampMs()
			}
			key := seriesKey(name, m.Label, "", "")
			switch mf.GetType() {
			case dto.MetricType_COUNTER:
				rs = p.rate(rs, key, m.GetCounter().GetValue(), ts)
			case dto.MetricType_GAUGE:
				rs = p.gauge(rs, key, m.GetGauge().GetValue())
			case dto.MetricType_UNTYPED:
				rs = p.gauge(rs, key, m.GetUntyped().GetValue())
			case dto.MetricType_SUMMARY:
				s := m.GetSummary()
				for _, q := range s.GetQuantile() {
					rs = p.gauge(rs, seriesKey(name, m.Label, "quantile", formatQuantile(q.GetQuantile())), q.GetValue())
				}
				rs = p.rate(rs, seriesKey(name+"_count", m.Label, "", ""), float64(s.GetSampleCount()), ts)
				rs = p.rate(rs, seriesKey(name+"_sum", m.Label, "", ""), s.GetSampleSum(), ts)
			case dto.MetricType_HISTOGRAM, dto.MetricType_GAUGE_HISTOGRAM:
				rs = p.histogram(rs, name, m, ts)
			}
		}
	}
}

// wanted reports whether the metric family name passes the filter.
func (p *promSampler) wanted(name string) bool {
	if len(p.spec.Metrics) == 0 {
		return true
	}
	for _, pat := range p.spec.Metrics {
		if ok, _ := path.Match(pat, name); ok {
			return true
		}
	}
	return false
}

// keep reports whether series key may be recorded (maxSeries).
func (p *promSampler) keep(key string) bool {
	if p.kept[key] {
		return true
	}
	if len(p.kept) >= maxSeries {
		p.mu.Lock()
		p.left[key] = true
		p.mu.Unlock()
		return false
	}
	p.kept[key] = true
	return true
}

func (p *promSampler) gauge(rs []reading, key string, v float64) []reading {
	if !p.keep(key) {
		return rs
	}
	return append(rs, reading{key, "", v})
}

// rate records counter key at v, time ts, and appends its rate since the
// previous scrape. A counter that went down was reset: its increase is its
// new value.
func (p *promSampler) rate(rs []reading, key string, v float64, ts int64) []reading {
	if !p.keep(key) {
		return rs
	}
	old, ok := p.prev[key]
	p.prev[key] = counterValue{v, ts}
	if !ok || ts <= old.ms {
		return rs
	}
	inc := v - old.v
	if inc < 0 {
		inc = v
	}
	// The difference of the times is taken in integer milliseconds, so
	// that a known rate comes back exact.
	return append(rs, reading{key, "/s", inc / (float64(ts-old.ms) / 1e3)})
}

// histogram appends the quantiles of the observations since the previous
// scrape, and the rate of observations.
func (p *promSampler) histogram(rs []reading, name string, m *dto.Metric, ts int64) []reading {
	h := m.GetHistogram()
	rs = p.rate(rs, seriesKey(name+"_count", m.Label, "", ""), float64(h.GetSampleCount()), ts)
	rs = p.rate(rs, seriesKey(name+"_sum", m.Label, "", ""), h.GetSampleSum(), ts)
	key := seriesKey(name, m.Label, "", "")
	cur := make([]bucket, 0, len(h.GetBucket())+1)
	for _, b := range h.GetBucket() {
		cur = append(cur, bucket{b.GetUpperBound(), float64(b.GetCumulativeCount())})
	}
	if n := len(cur); n == 0 || !math.IsInf(cur[n-1].upper, 1) {
		cur = append(cur, bucket{math.Inf(1), float64(h.GetSampleCount())})
	}
	old, ok := p.hist[key]
	p.hist[key] = cur
	if !ok || len(old) != len(cur) {
		return rs
	}
	delta := make([]bucket, len(cur))
	for i := range cur {
		delta[i] = bucket{cur[i].upper, cur[i].count - old[i].count}
		if old[i].upper != cur[i].upper || delta[i].count < 0 {
			return rs // the buckets changed or the histogram was reset
		}
	}
	if delta[len(delta)-1].count < minQuantileObservations {
		return rs // too few observations for a quantile to mean anything
	}
	for _, q := range histogramQuantiles {
		k := seriesKey(name, m.Label, "quantile", formatQuantile(q))
		if v := bucketQuantile(q, delta); !math.IsNaN(v) && p.keep(k) {
			rs = append(rs, reading{k, "", v})
		}
	}
	return rs
}

// bucketQuantile estimates quantile q from cumulative buckets by linear
// interpolation inside the bucket, as Prometheus's histogram_quantile
// does: NaN without observations; the highest finite bound if the
// quantile falls in the +Inf bucket.
func bucketQuantile(q float64, bs []bucket) float64 {
	total := bs[len(bs)-1].count
	if total <= 0 {
		return math.NaN()
	}
	rank := q * total
	i, _ := slices.BinarySearchFunc(bs, rank, func(b bucket, r float64) int {
		if b.count < r {
			return -1
		}
		return 1
	})
	if i >= len(bs) {
		i = len(bs) - 1
	}
	if math.IsInf(bs[i].upper, 1) {
		if len(bs) > 1 {
			return bs[len(bs)-2].upper
		}
		return math.NaN()
	}
	lower, below := 0.0, 0.0
	if i > 0 {
		lower, below = bs[i-1].upper, bs[i-1].count
	} else if bs[i].upper <= 0 {
		return bs[i].upper
	}
	in := bs[i].count - below
	if in <= 0 {
		return bs[i].upper
	}
	return lower + (bs[i].upper-lower)*(rank-below)/in
}

// labelEscaper escapes a label value as the text format does.
var labelEscaper = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)

func formatQuantile(q float64) string { return strconv.FormatFloat(q, 'g', -1, 64) }

// seriesKey names a scraped series: m:NAME{label="v",…}, labels sorted by
// name, with extra (if not empty) added.
func seriesKey(name string, labels []*dto.LabelPair, extra, extraValue string) string {
	type kv struct{ k, v string }
	ls := make([]kv, 0, len(labels)+1)
	for _, l := range labels {
		if l.GetName() == extra {
			continue
		}
		ls = append(ls, kv{l.GetName(), l.GetValue()})
	}
	if extra != "" {
		ls = append(ls, kv{extra, extraValue})
	}
	var b strings.Builder
	b.WriteString("m:")
	b.WriteString(name)
	if len(ls) == 0 {
		return b.String()
	}
	slices.SortFunc(ls, func(a, b kv) int { return strings.Compare(a.k, b.k) })
	b.WriteByte('{')
	for i, l := range ls {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(l.k)
		b.WriteString(`="`)
		b.WriteString(labelEscaper.Replace(l.v))
		b.WriteByte('"')
	}
	b.WriteByte('}')
	return b.String()
}
