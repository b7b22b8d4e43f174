package surge_test

import (
	"context"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/surge-load/surge"
	"github.com/surge-load/surge/executor"
	"github.com/surge-load/surge/result"
)

// BenchmarkClosedLoop drives SURGE_BENCH_URL (nginx, say) with 64 users
// for b.N requests' worth of a closed-model run, so that the generator's
// request path can be profiled:
//
//	SURGE_BENCH_URL=http://127.0.0.1:8080/ go test -run '^$' -bench ClosedLoop -cpuprofile cpu.out .
//
// It reports the generator's CPU time per request (user + system, the
// whole process) beside requests per second.
func BenchmarkClosedLoop(b *testing.B) {
	url := os.Getenv("SURGE_BENCH_URL")
	if url == "" {
		b.Skip("set SURGE_BENCH_URL to the URL of a fast local server, such as nginx")
	}
	load := executor.Closed{Start: 64, Stages: []executor.Stage{{Duration: 5 * time.Second, Target: 64}}, Grace: time.Second}
	benchRun(b, url, load, func(res *result.Result) {
		b.ReportMetric(res.Totals.RPS, "req/s")
	})
}

// benchRun runs load against url once an iteration, reporting the
// generator's CPU time per request and what report adds.
func benchRun(b *testing.B, url string, load executor.Load, report func(*result.Result)) {
	b.Helper()
	plan, err := surge.SingleURL(surge.Request{URL: url}, load, nil)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		cpu0 := cpuTime()
		res, err := surge.Run(context.Background(), plan, surge.Options{})
		if err != nil {
			b.Fatal(err)
		}
		cpu := cpuTime() - cpu0
		report(res)
		b.ReportMetric(float64(cpu.Microseconds())/float64(res.Totals.Requests), "cpu-µs/req")
	}
}

// cpuTime returns the process's CPU time so far, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkOpenModel is BenchmarkClosedLoop for the open model: 5,000
// arrivals per second for 5 s, a pool of 1,000 users.
func BenchmarkOpenModel(b *testing.B) {
	url := os.Getenv("SURGE_BENCH_URL")
	if url == "" {
		b.Skip("set SURGE_BENCH_URL to the URL of a fast local server, such as nginx")
	}
	load := executor.Open{StartRate: 5000, Stages: []executor.Stage{{Duration: 5 * time.Second, Target: 5000}}, MaxUsers: 1000, Grace: time.Second}
	benchRun(b, url, load, func(res *result.Result) {
		b.ReportMetric(float64(res.Totals.Dropped), "dropped")
		b.ReportMetric(res.Totals.Latency.P99, "p99-ms")
	})
}
