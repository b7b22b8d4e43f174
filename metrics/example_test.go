package metrics_test

import (
	"context"
	"fmt"
	"log"
	"sync"
	"time"

	"github.com/surge-load/surge"
	"github.com/surge-load/surge/demo"
	"github.com/surge-load/surge/executor"
	"github.com/surge-load/surge/metrics"
	"github.com/surge-load/surge/result"
)

// startDemo starts the built-in demo service on a loopback port: the
// service to load.
func startDemo() *demo.Server {
	srv, err := demo.Start(context.Background(), "127.0.0.1:0", demo.DefaultConfig())
	if err != nil {
		log.Fatal(err)
	}
	return srv
}

// A plan split in two segments, run side by side as two machines would,
// with a common start; Merge adds their results up into the result of the
// whole plan (analysis.Merge also judges it once, by the parts'
// thresholds).
func ExampleMerge() {
	srv := startDemo()
	defer srv.Close()

	load := executor.Iterations{Total: 100, Users: 4, MaxDuration: 10 * time.Second}
	plan, err := surge.SingleURL(surge.Request{URL: srv.URL + "/"}, load, nil)
	if err != nil {
		log.Fatal(err)
	}
	start := time.Now().Add(200 * time.Millisecond)
	parts := make([]*result.Result, 2)
	var wg sync.WaitGroup
	for i := range parts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			opts := surge.Options{StartAt: start, Segment: executor.Segment{Index: i, Count: 2}}
			res, err := surge.Run(context.Background(), plan, opts)
			if err != nil {
				log.Fatal(err)
			}
			parts[i] = res
		}()
	}
	wg.Wait()
	whole, err := metrics.Merge(parts...)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("segments: %d + %d requests\n", parts[0].Totals.Requests, parts[1].Totals.Requests)
	fmt.Printf("merged: %d requests of %d segments\n", whole.Totals.Requests, whole.Run.Segment.Count)
	// Output:
	// segments: 50 + 50 requests
	// merged: 100 requests of 2 segments
}
