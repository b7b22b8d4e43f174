package grpcc

import (
	"context"
	"testing"

	"github.com/surge-load/surge/errclass"
	"github.com/surge-load/surge/metrics"
)

// BenchmarkUnary makes unary calls to the grpc-go server of the tests on
// loopback, each goroutine a virtual user with its own connection, and
// reports calls per second, as ghz's "Requests/sec" does.
//
//	go test -run XXX -bench Unary -benchtime 5s ./protocol/grpcc/
func BenchmarkUnary(b *testing.B) {
	files := loadEcho(b)
	es := startEcho(b, false)
	md, err := files.Method("surge.test.Echo/Say")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		c := New(Options{})
		defer c.Close()
		call := &Call{Target: es.Addr, Method: md, Message: []byte(`{"text": "hello", "id": 7}`)}
		var s metrics.Sample
		for pb.Next() {
			c.Do(context.Background(), call, &s)
			if s.Class != errclass.None {
				b.Fatal(s.Err)
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "calls/s")
}
