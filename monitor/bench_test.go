package monitor

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"syscall"
	"testing"
	"time"
)

// exposition5000 is a /metrics page of 5,050 series: 2,000 counters, 2,000
// gauges, and 50 histograms of 19 buckets with their _sum and _count
// (1,050 series), as a large application's endpoint is.
func exposition5000(tick int) string {
	var b strings.Builder
	b.WriteString("# TYPE app_requests_total counter\n")
	for i := range 2000 {
		fmt.Fprintf(&b, "app_requests_total{route=\"/r%d\",code=\"%d\"} %d\n", i/5, 200+i%5, 1000*tick+i)
	}
	b.WriteString("# TYPE app_queue_depth gauge\n")
	for i := range 2000 {
		fmt.Fprintf(&b, "app_queue_depth{pool=\"p%d\",shard=\"%d\"} %d\n", i/40, i%40, (i*7+tick)%100)
	}
	b.WriteString("# TYPE app_latency_seconds histogram\n")
	for h := range 50 {
		c := 0
		for k := range 18 {
			c += 10*tick + k
			fmt.Fprintf(&b, "app_latency_seconds_bucket{route=\"/r%d\",le=\"%g\"} %d\n", h, 0.001*float64(int(1)<<k), c)
		}
		fmt.Fprintf(&b, "app_latency_seconds_bucket{route=\"/r%d\",le=\"+Inf\"} %d\n", h, c)
		fmt.Fprintf(&b, "app_latency_seconds_sum{route=\"/r%d\"} %g\napp_latency_seconds_count{route=\"/r%d\"} %d\n", h, float64(c)*0.01, h, c)
	}
	return b.String()
}

// BenchmarkScrape5000 scrapes a 5,000-series endpoint over loopback HTTP and
// records the sample, as a prometheus: source does every second. The
// endpoint's pages are made beforehand, so the cost measured is the
// scraper's (and the test server's writing, in the same process). cpu%@1s
// is the share of one core that one scrape a second costs: the process's
// CPU time (user and system) per scrape.
func BenchmarkScrape5000(b *testing.B) {
	pages := make([]string, 16)
	for i := range pages {
		pages[i] = exposition5000(i)
	}
	n := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; version=0.0.4")
		w.Write([]byte(pages[n%len(pages)]))
		n++
	}))
	defer srv.Close()
	spec, err := Parse("app", "prometheus:"+srv.URL)
	if err != nil {
		b.Fatal(err)
	}
	p := newPromSampler(spec)
	tr := &track{spec: spec, index: map[string]int{}}
	if _, err := p.sample(context.Background()); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime()
	for i := range b.N {
		rs, err := p.sample(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		if i == 0 && len(rs) != 4250 {
			// 4,000 counters and gauges, and 50 histograms' three
			// quantiles, _count and _sum
			b.Fatalf("%d readings, want 4,250", len(rs))
		}
		tr.record(i, rs)
	}
	perScrape := (cpuTime() - cpu0) / time.Duration(b.N)
	b.ReportMetric(100*perScrape.Seconds(), "cpu%@1s")
}

// cpuTime is the CPU time this process has used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
