package importer_test

import (
	"bytes"
	"net/http"
	"strings"
	"testing"

	"github.com/surge-load/surge/demo"
	"github.com/surge-load/surge/importer"
	"github.com/surge-load/surge/scenario"
)

// TestOpenAPIDemo imports the demo's own description (demo/openapi.yaml),
// runs it against a demo with one user for 300 iterations, and compares
// every operation's row with what the demo answered: each task ran, passed,
// and arrived as often as surge counted it.
func TestOpenAPIDemo(t *testing.T) {
	svc, url := newDemo(t)
	if resp, err := http.Post(url+"/api/v1/users", "application/json", strings.NewReader(`{"userName":"first"}`)); err != nil || resp.StatusCode != 201 {
		t.Fatalf("create the first user: %v %v", resp, err)
	}
	f, err := importer.OpenAPI("openapi.yaml", demo.OpenAPI, importer.OpenAPIOptions{Target: url})
	if err != nil {
		t.Fatal(err)
	}
	s := spec(t, f)
	if got := len(s.Scenarios[0].Tasks); got != 9 {
		t.Fatalf("%d tasks, want one per operation (9):\n%s", got, f.YAML())
	}
	res := runFile(t, f, url, scenario.Options{Seed: 1}, 300)
	noFailures(t, res, f)
	ops := map[string]struct {
		endpoint string
		code     int
	}{
		"health": {"GET /healthz", 200}, "createUser": {"POST /api/v1/users", 201}, "listFolder": {"GET /api/v1/folders/{id}", 200},
		"createFolder": {"POST /api/v1/folders", 201}, "seedTree": {"POST /api/v1/seed", 201}, "ingestLogs": {"POST /api/v1/logs", 202},
		"logStats": {"GET /api/v1/logs/stats", 200}, "broadcast": {"POST /api/v1/events", 202}, "login": {"POST /api/v1/login", 200},
	}
	total := 0
	for name, op := range ops {
		e := row(res, name)
		seen := svc.Requests(op.endpoint, op.code)
		if name == "createUser" {
			seen-- // the first user
		}
		if e.Requests == 0 || int(e.Requests) != seen {
			t.Errorf("%s: surge counted %d, the demo answered %s %d times with %d", name, e.Requests, op.endpoint, seen, op.code)
		}
		total += int(e.Requests)
	}
	if total != 300 {
		t.Errorf("%d requests, want 300", total)
	}
}

// TestOpenAPIErrors checks that a description that cannot be imported says
// where and what to do.
func TestOpenAPIErrors(t *testing.T) {
	noServer := bytes.Replace(demo.OpenAPI, []byte("servers:\n  - url: http://127.0.0.1:8080\n"), nil, 1)
	for name, c := range map[string]struct {
		src, want string
	}{
		"no server":  {string(noServer), "openapi.yaml:12:5: paths./healthz.get: the operation has no server: neither it, its path nor the description lists servers; add servers: [{url: https://api.example.com}] to the description, or pass --target URL"},
		"swagger":    {"swagger: '2.0'\npaths: {}\n", "openapi.yaml:1:1: swagger: Swagger 2.0 is not supported, only OpenAPI 3.0 and 3.1; convert it to OpenAPI 3"},
		"broken":     {"openapi: 3.0.0\npaths:\n  /x: {get: [}\n", "openapi.yaml:3:"},
		"json":       {`{"openapi": "3.0.3", "paths": {"/x": {"get": {"responses": {"200": {}}}}}}`, "paths./x.get: the operation has no server"},
		"no paths":   {"openapi: 3.0.0\ninfo: {title: x}\n", "the description has no paths"},
		"version":    {"openapi: 2.5.0\npaths: {/x: {get: {}}}\n", "openapi.yaml:1:1: openapi: OpenAPI 2.5.0 is not supported"},
		"not a map":  {"- 1\n- 2\n", "not an OpenAPI description"},
		"path param": {"openapi: 3.0.0\nservers: [{url: 'http://h'}]\npaths:\n  /x/{id}:\n    get: {}\n", "openapi.yaml:5:5: paths./x/{id}.get: path /x/{id} has a parameter that is not described"},
	} {
		_, err := importer.OpenAPI("openapi.yaml", []byte(c.src), importer.OpenAPIOptions{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v\nwant %q", name, err, c.want)
		}
	}
}
