package scenario_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"time"

	"github.com/surge-load/surge"
	"github.com/surge-load/surge/scenario"
)

// A journey in Go: a setup step creates a user and seeds a shared pool;
// then 2 virtual users share 20 iterations, each picking a task by weight.
func ExampleCompile() {
	var ids atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		switch r.Method {
		case http.MethodPost:
			w.WriteHeader(http.StatusCreated)
			fmt.Fprintf(w, `{"id": %d}`, ids.Add(1))
		default:
			fmt.Fprint(w, `{"items": []}`)
		}
	}))
	defer srv.Close()

	spec := &scenario.Spec{
		Target: srv.URL,
		Pools:  map[string][]any{"folders": nil},
		Setup: []scenario.Step{{
			Request: &scenario.Request{Method: "POST", URL: "/users", JSON: map[string]any{"name": "test"}},
			Expect:  &scenario.Expect{Status: []int{201}},
			Capture: map[string]string{"userId": "json.id"},
			Append:  map[string]string{"folders": "json.id"},
		}},
		Scenarios: []scenario.Scenario{{
			Name: "browse",
			Load: scenario.Iterations(20, 2, time.Minute),
			Tasks: []scenario.Task{
				{Weight: 3, Step: scenario.Step{
					Name:    "list folder",
					Request: &scenario.Request{Method: "GET", URL: "/folders/{{ pick(folders) }}?user={{ userId }}"},
					Expect:  &scenario.Expect{Status: []int{200}, That: []string{"json.items != nil"}},
				}},
				{Weight: 1, Step: scenario.Step{
					Name: "create folder",
					Request: &scenario.Request{Method: "POST", URL: "/folders",
						JSON: map[string]any{"parent": "{{ pick(folders) }}", "owner": "{{ userId }}"}},
					Expect: &scenario.Expect{Status: []int{201}},
					Append: map[string]string{"folders": "json.id"},
				}},
			},
		}},
	}
	// A fixed seed repeats the draws of the tasks: both are picked.
	plan, err := scenario.Compile(spec, scenario.Options{Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := surge.Run(context.Background(), plan, surge.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	var tasks int64
	for _, e := range res.Endpoints {
		if e.Name != "POST /users" {
			tasks += e.Requests
		}
	}
	fmt.Printf("%d rows, %d tasks, %d failures\n", len(res.Endpoints), tasks, res.Totals.Failures)
	// Output: 3 rows, 20 tasks, 0 failures
}

// Compile reports every problem at once, each with the path of its field
// and a fix.
func ExampleCompile_errors() {
	spec := &scenario.Spec{
		Target: "http://127.0.0.1:8080",
		Pools:  map[string][]any{"folders": nil},
		Scenarios: []scenario.Scenario{{
			Name: "browse",
			Load: scenario.Users(10, 0, time.Minute),
			Tasks: []scenario.Task{
				{Weight: 0, Step: scenario.Step{Request: &scenario.Request{Method: "GET", URL: "/folders/{{ pick(folder) }}"}}},
				{Weight: 1, Step: scenario.Step{When: "status == 200", Request: &scenario.Request{Method: "GET", URL: "/"}}},
			},
		}},
	}
	_, err := scenario.Compile(spec, scenario.Options{})
	for _, line := range strings.Split(err.Error(), "\n") {
		fmt.Println(line)
	}
	// Output:
	// scenarios.browse.tasks[0].url: folder is not defined; did you mean folders?
	// scenarios.browse.tasks[0].weight: weight 0 is not positive; give a weight of 1 or more; leave a task out to never run it
	// scenarios.browse.tasks[1].when: status is not defined; status is known only after a request: use it in expect, capture, append or remove
}

// The load models, built from the shapes a scenario file writes.
func ExampleUsers() {
	fmt.Println(scenario.Users(150, time.Minute, 10*time.Minute))
	fmt.Println(scenario.Rate(200, 0, 5*time.Minute, 0))
	fmt.Println(scenario.Iterations(1000, 10, 10*time.Minute))
	fmt.Println(scenario.Bursts(10*time.Minute, 100, time.Hour))
	// Output:
	// closed model: 0 users, then 1m0s→150, 9m0s→150
	// open model: 200/s for 5m0s, up to 200 users
	// 1000 iterations shared by 10 users, within 10m0s
	// bursts of 100 every 10m0s for 1h0m0s
}
