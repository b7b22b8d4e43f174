package search_test

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/surge-load/surge"
	"github.com/surge-load/surge/executor"
	"github.com/surge-load/surge/search"
)

// A search for the most load a service sustains: each step is a real run
// of the plan Build makes for its level, judged on the objectives after
// its warm-up. (Not run here: a search takes minutes.)
func ExampleRun() {
	url := "http://127.0.0.1:8080/"
	cfg := search.Config{
		Model: search.Rate,
		Start: 50,
		Max:   2000,
		Build: func(level float64, d time.Duration) (*surge.Plan, error) {
			load := executor.Open{StartRate: level, Stages: []executor.Stage{{Duration: d, Target: level}},
				MaxUsers: executor.DefaultPool(2 * level)}
			return surge.SingleURL(surge.Request{URL: url}, load, nil)
		},
		Step:   30 * time.Second,
		Warmup: 5 * time.Second,
	}
	res, err := search.Run(context.Background(), cfg)
	if err != nil {
		log.Fatal(err)
	}
	v := res.Capacity.Verdict
	fmt.Printf("%s: at most %g/s (%.0f rps)\n", v.Reason, v.MaxLevel, v.MaxRPS)
}
