package importer_test

import (
	"strings"
	"testing"

	"github.com/surge-load/surge/importer"
	"github.com/surge-load/surge/scenario"
)

// postmanCollection is a collection as Postman 10 exports it (v2.1): two
// folders, one with a subfolder, a request outside folders, collection
// variables, an environment variable the collection does not define, a
// dynamic variable, raw JSON, urlencoded and text bodies, bearer auth on
// the collection and a disabled header and query parameter.
const postmanCollection = `{
  "info": {
    "_postman_id": "6d1c6c9e-2f57-4c1a-9b0e-1f0f9d1c2a3b",
    "name": "surge demo",
    "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"
  },
  "auth": {"type": "bearer", "bearer": [{"key": "token", "value": "{{token}}", "type": "string"}]},
  "item": [
    {
      "name": "health",
      "request": {"method": "GET", "header": [], "url": {"raw": "{{baseUrl}}/healthz", "host": ["{{baseUrl}}"], "path": ["healthz"]}}
    },
    {
      "name": "folders",
      "item": [
        {
          "name": "create user",
          "event": [{"listen": "test", "script": {"exec": ["pm.test(\"201\", () => pm.response.to.have.status(201));"], "type": "text/javascript"}}],
          "request": {
            "method": "POST",
            "header": [{"key": "Content-Type", "value": "application/json"}, {"key": "X-Debug", "value": "1", "disabled": true}],
            "body": {"mode": "raw", "raw": "{\n  \"userName\": \"pm-{{$guid}}\"\n}", "options": {"raw": {"language": "json"}}},
            "url": {"raw": "{{baseUrl}}/api/v1/users", "host": ["{{baseUrl}}"], "path": ["api", "v1", "users"]}
          }
        },
        {
          "name": "pages",
          "item": [
            {
              "name": "list folder",
              "request": {
                "method": "GET",
                "header": [{"key": "X-Tenant", "value": "{{tenant-id}}"}],
                "url": {
                  "raw": "{{baseUrl}}/api/v1/folders/{{folderId}}?userId={{folderId}}&size=10&debug=1",
                  "host": ["{{baseUrl}}"], "path": ["api", "v1", "folders", "{{folderId}}"],
                  "query": [{"key": "userId", "value": "{{folderId}}"}, {"key": "size", "value": "10"}, {"key": "debug", "value": "1", "disabled": true}]
                }
              }
            }
          ]
        }
      ]
    },
    {
      "name": "logs",
      "item": [
        {
          "name": "ingest",
          "request": {"method": "POST", "header": [{"key": "Content-Type", "value": "text/plain"}],
            "body": {"mode": "raw", "raw": "GET / 200\nGET /x 404\n"},
            "url": "{{baseUrl}}/api/v1/logs"}
        },
        {
          "name": "login",
          "request": {"method": "POST", "auth": {"type": "noauth"},
            "body": {"mode": "urlencoded", "urlencoded": [{"key": "userName", "value": "ann"}, {"key": "password", "value": "secret"}]},
            "url": "{{baseUrl}}/api/v1/login"}
        }
      ]
    }
  ],
  "variable": [
    {"key": "baseUrl", "value": "BASE"},
    {"key": "folderId", "value": "1"},
    {"key": "token", "value": "t0k3n"}
  ]
}`

// TestPostmanAgainstDemo imports the collection, checks the folders became
// scenarios and the variables vars, and runs it against the demo, which
// must answer each request once.
func TestPostmanAgainstDemo(t *testing.T) {
	svc, url := newDemo(t)
	src := strings.Replace(postmanCollection, `"BASE"`, `"`+url+`"`, 1)
	f, err := importer.Postman("demo.postman_collection.json", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	s := spec(t, f)
	if len(s.Scenarios) != 3 || s.Scenarios[0].Name != "surge demo" || s.Scenarios[1].Name != "folders" || s.Scenarios[2].Name != "logs" {
		t.Fatalf("scenarios %+v, want surge demo, folders, logs:\n%s", s.Scenarios, f.YAML())
	}
	if s.Vars["baseUrl"] != url || s.Vars["folderId"] != "1" || s.Vars["tenantId"] != `{{ env("tenant-id", "") }}` {
		t.Errorf("vars %v", s.Vars)
	}
	list := s.Scenarios[1].Flow[1].Steps[0].Request
	if list.URL != "{{ baseUrl }}/api/v1/folders/{{ folderId }}?userId={{ folderId }}&size=10" ||
		list.Headers["Authorization"] != "Bearer {{ token }}" || list.Headers["X-Tenant"] != "{{ tenantId }}" {
		t.Errorf("list folder: %+v", list)
	}
	if login := s.Scenarios[2].Flow[1].Request; login.Headers["Authorization"] != "" || login.Form["userName"] != "ann" {
		t.Errorf("login: %+v", login)
	}
	if create := s.Scenarios[1].Flow[0].Request; create.JSON.(map[string]any)["userName"] != "pm-{{ uuid() }}" || create.Headers["X-Debug"] != "" {
		t.Errorf("create user: %+v", create)
	}
	if !strings.Contains(string(f.YAML()), "--env tenant-id=") || !strings.Contains(string(f.YAML()), "create user: its scripts") {
		t.Errorf("the header does not name the environment variable or the left-out script:\n%s", f.YAML())
	}
	res := runFile(t, f, "", scenario.Options{Env: map[string]string{"tenant-id": "acme"}}, 0)
	noFailures(t, res, f)
	for ep, code := range map[string]int{"GET /healthz": 200, "POST /api/v1/users": 201, "GET /api/v1/folders/{id}": 200,
		"POST /api/v1/logs": 202, "POST /api/v1/login": 200} {
		if n := svc.Requests(ep, code); n != 1 {
			t.Errorf("the demo answered %s %d times with %d, want once", ep, n, code)
		}
	}
}

func TestPostmanErrors(t *testing.T) {
	for name, c := range map[string]struct{ src, want string }{
		"broken":   {"{\n  \"info\": {\"name\": \"x\",\n}", "c.json:3:1: broken JSON"},
		"not":      {`{"log": {"entries": []}}`, "c.json: info: not a Postman collection"},
		"v1":       {`{"id": "x", "name": "old", "requests": []}`, "format v1, which is not supported; export it again from Postman as Collection v2.1"},
		"type":     {`{"info": {"name": 3}, "item": []}`, "c.json:1:20: info.name: must be string, not a JSON number"},
		"no url":   {`{"info": {"name": "x"}, "item": [{"name": "a", "request": {"method": "GET"}}]}`, `c.json: item[0].request.url: the request has no URL (request "a")`},
		"empty":    {`{"info": {"name": "x"}, "item": []}`, "the collection has no requests"},
		"bad item": {`{"info": {"name": "x"}, "item": [{"name": "a"}]}`, `item[0]: the item is neither a folder nor a request (request "a")`},
	} {
		_, err := importer.Postman("c.json", []byte(c.src))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v\nwant %q", name, err, c.want)
		}
	}
}
