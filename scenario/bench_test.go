package scenario_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/surge-load/surge/executor"
	"github.com/surge-load/surge/metrics"
	"github.com/surge-load/surge/scenario"
)

// BenchmarkTemplatedRequestWithCapture measures one iteration of a journey
// of one request: a URL and a JSON body rendered from templates, sent to a
// local server, its JSON response checked and a value captured and added
// to a pool. The server's own cost is in the figure; it is small.
func BenchmarkTemplatedRequestWithCapture(b *testing.B) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"id":12345,"items":[{"id":1,"name":"a"},{"id":2,"name":"b"}],"next":null}`)
	}))
	defer srv.Close()
	spec := &scenario.Spec{
		Target: srv.URL,
		Vars:   map[string]any{"userId": 7},
		Pools:  map[string][]any{"folders": {1, 2, 3}},
		Scenarios: []scenario.Scenario{{
			Name: "bench",
			Load: scenario.Users(1, 0, 1),
			Flow: []scenario.Step{{
				Name: "create folder",
				Request: &scenario.Request{Method: "POST", URL: "/api/v1/folders/{{ pick(folders) }}?userId={{ userId }}",
					JSON: map[string]any{"userId": "{{ userId }}", "parentFolderId": "{{ pick(folders) }}", "name": "folder {{ iteration }}"}},
				Expect:  &scenario.Expect{Status: []int{200}, That: []string{"json.items[0].id != nil"}},
				Capture: map[string]string{"lastId": "json.id"},
				Remove:  map[string]string{"folders": "json.id"},
				Append:  map[string]string{"folders": "json.id"},
			}},
		}},
	}
	plan, err := scenario.Compile(spec, scenario.Options{})
	if err != nil {
		b.Fatal(err)
	}
	rec := metrics.NewRecorder(1)
	if _, err := plan.Setup(context.Background(), rec); err != nil {
		b.Fatal(err)
	}
	u := plan.Scenarios[0].Users(rec)(0)
	ctx := context.Background()
	u.Iterate(ctx, executor.Iteration{}) // connect
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		u.Iterate(ctx, executor.Iteration{N: int64(i)})
	}
	b.StopTimer()
	rec.Begin(time.Now(), nil)
	rec.Finish(time.Now())
	if res := rec.Result(time.Second); res.Totals.Failures != 0 {
		b.Fatalf("%d failures: %+v", res.Totals.Failures, res.Errors)
	}
}
