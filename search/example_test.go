package search_test

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/surge-load/surge"
	"github.com/surge-load/surge/executor"
	"github.com/surge-load/surge/scenario"
	"github.com/surge-load/surge/search"
)

// A search for the most load a service sustains: each step is a real run
// of the plan Build makes for its level, judged on the objectives after
// its warm-up. (Not run here: a search takes minutes.)
func ExampleRun() {
	url := "http://127.0.0.1:8080/"
	cfg := search.Config{
		Search: scenario.Search{Model: search.Rate, Start: 50, Max: 2000, Step: 30 * time.Second, Warmup: 5 * time.Second},
		Build: func(level float64, d time.Duration) (*surge.Plan, error) {
			load := executor.Open{StartRate: level, Stages: []executor.Stage{{Duration: d, Target: level}},
				MaxUsers: executor.DefaultPool(2 * level)}
			return surge.SingleURL(surge.Request{URL: url}, load, nil)
		},
	}
	res, err := search.Run(context.Background(), cfg)
	if err != nil {
		log.Fatal(err)
	}
	v := res.Capacity.Verdict
	fmt.Printf("%s: at most %g/s (%.0f rps)\n", v.Reason, v.MaxLevel, v.MaxRPS)
}

// The levels of a search from a scenario file's search section and the
// command line: a flag wins over the file, the file over the defaults.
func ExampleConfigFrom() {
	file := &scenario.Search{Model: "rate", Start: 50, Factor: 1.5, Step: 30 * time.Second}
	max, warmup := "400/s", 5*time.Second // --max 400/s --warmup 5s
	cfg, err := search.ConfigFrom(file, search.Overrides{Max: &max, Warmup: &warmup})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(cfg.Model, cfg.Start, cfg.Factor, cfg.Max, cfg.Step, cfg.Warmup, cfg.Budget)

	// A problem of a flag names the flag.
	bad := "20"
	_, err = search.ConfigFrom(file, search.Overrides{Max: &bad})
	fmt.Println(err)
	// Output:
	// rate 50 1.5 400 30s 5s 5m0s
	// --max 20 is below the first level 50
}
