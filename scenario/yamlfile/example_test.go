package yamlfile_test

import (
	"fmt"

	"github.com/surge-load/surge/scenario"
	"github.com/surge-load/surge/scenario/yamlfile"
)

// A scenario file compiles to the same plan as the Spec it describes;
// its problems come with file:line:col.
func ExampleCompile() {
	src := []byte(`target: http://127.0.0.1:8080
pools:
  folders: [1]
scenarios:
  browse:
    load: {users: 10, ramp: 10s, duration: 1m}
    think: 1s..3s
    tasks:
      - weight: 6
        get: /api/v1/folders/{{ pick(folders) }}
        expect: {status: 200}
      - wieght: 2
        post: /api/v1/folders
        json: {parentFolderId: "{{ pick(folders) }}"}
        append: {folders: json.id}
`)
	_, err := yamlfile.Compile("browse.yaml", src, scenario.Options{})
	fmt.Println(err)

	plan, err := yamlfile.Compile("browse.yaml", []byte(`target: http://127.0.0.1:8080
scenarios:
  poll:
    load: {rate: 50/s, duration: 10m}
    flow: [{get: /status}]
`), scenario.Options{})
	fmt.Println(plan.Scenarios[0].Describe, plan.Endpoints(), err)
	// Output:
	// browse.yaml:12:9: unknown key "wieght" in a task; did you mean weight?
	// open model: 50/s for 10m0s, up to 100 users [GET /status] <nil>
}
