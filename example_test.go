package surge_test

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/surge-load/surge"
	"github.com/surge-load/surge/analysis"
	"github.com/surge-load/surge/demo"
	"github.com/surge-load/surge/executor"
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

// A single-URL test: 100 iterations shared by 4 users, each one GET. This
// is the README's Go example.
func ExampleSingleURL() {
	srv := startDemo()
	defer srv.Close()

	load := executor.Iterations{Total: 100, Users: 4, MaxDuration: 10 * time.Second}
	plan, err := surge.SingleURL(surge.Request{Method: "GET", URL: srv.URL + "/"}, load, nil)
	if err != nil {
		log.Fatal(err)
	}
	res, err := surge.Run(context.Background(), plan, surge.Options{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Run.Load)
	fmt.Printf("%d requests, %d failures\n", res.Totals.Requests, res.Totals.Failures)
	for _, e := range res.Endpoints {
		fmt.Printf("%s: %d\n", e.Name, e.Requests)
	}
	// Output:
	// 100 iterations shared by 4 users, within 10s
	// 100 requests, 0 failures
	// GET /: 100
}

// Run with thresholds: each is judged on the result, and Run records the
// verdicts in it.
func ExampleRun() {
	srv := startDemo()
	defer srv.Close()

	var ts []analysis.Threshold
	for _, expr := range []string{"errors<1%", "requests>=50", "GET /:p99<5s"} {
		t, err := analysis.ParseThreshold(expr)
		if err != nil {
			log.Fatal(err)
		}
		ts = append(ts, t)
	}
	load := executor.Iterations{Total: 50, Users: 2, MaxDuration: 10 * time.Second}
	plan, err := surge.SingleURL(surge.Request{URL: srv.URL + "/"}, load, ts)
	if err != nil {
		log.Fatal(err)
	}
	res, err := surge.Run(context.Background(), plan, surge.Options{})
	if err != nil {
		log.Fatal(err)
	}
	for _, t := range res.Thresholds {
		fmt.Printf("%s: ok %v\n", t.Expr, t.OK)
	}
	// Output:
	// errors<1%: ok true
	// requests>=50: ok true
	// GET /:p99<5s: ok true
}
