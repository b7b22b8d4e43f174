package scenario_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/surge-load/surge"
	"github.com/surge-load/surge/scenario"
	"github.com/surge-load/surge/scenario/yamlfile"
)

// TestSeedRepeatsRun runs a file whose requests carry random values twice
// with one seed and once with another, and compares what the server
// received from each scenario's user: the same seed sends the same values,
// in the same order, task choices and data picks included.
func TestSeedRepeatsRun(t *testing.T) {
	var mu sync.Mutex
	var got map[string][]string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got[r.URL.Query().Get("sc")] = append(got[r.URL.Query().Get("sc")], r.URL.RawQuery)
		mu.Unlock()
	}))
	defer srv.Close()
	const src = `
data:
  names: {list: [ann, bob, cid, dan]}
scenarios:
  a:
    load: {iterations: 30, users: 1}
    tasks:
      - get: "/x?sc=a&t=1&z={{ zipf(1000, 1.1) }}&n={{ normal(100, 15) }}&p={{ pick(names) }}"
      - get: "/x?sc=a&t=2&w={{ pickw(['x', 'y'], [3, 1]) }}&e={{ exponential(2) }}&u={{ uuid() }}"
  b:
    load: {iterations: 30, users: 1}
    flow:
      - get: "/x?sc=b&l={{ lognormal(0, 1) }}&r={{ randInt(1, 1000000) }}&f={{ randFloat(0, 1) }}"
`
	run := func(seed uint64) map[string][]string {
		mu.Lock() // the handler's last read is ordered before only by the network
		got = map[string][]string{}
		mu.Unlock()
		plan, err := yamlfile.Compile("seed.yaml", []byte(src), scenario.Options{Target: srv.URL, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		if s := plan.Spec.(map[string]any)["seed"]; s != seed {
			t.Errorf("the plan records seed %v, want %d", s, seed)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if _, err := surge.Run(ctx, plan, surge.Options{}); err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		defer mu.Unlock()
		return got
	}
	first, again, other := run(42), run(42), run(43)
	for _, sc := range []string{"a", "b"} {
		if len(first[sc]) != 30 {
			t.Fatalf("scenario %s: the server saw %d requests, want 30", sc, len(first[sc]))
		}
		if !slices.Equal(first[sc], again[sc]) {
			t.Errorf("scenario %s: seed 42 sent different values the second time:\n%v\n%v", sc, first[sc][:3], again[sc][:3])
		}
		if slices.Equal(first[sc], other[sc]) {
			t.Errorf("scenario %s: seeds 42 and 43 sent the same values", sc)
		}
	}
	if slices.Equal(first["a"][:5], first["b"][:5]) {
		t.Error("two scenarios' users drew the same values")
	}
}
