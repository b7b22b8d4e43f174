package importer_test

import (
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/surge-load/surge/importer"
	"github.com/surge-load/surge/scenario"
)

// Commands as the API documentation of Stripe, GitHub and Elasticsearch
// write them.
const docsCommands = `$ curl https://api.stripe.com/v1/customers \
  -u "sk_test_4eC39HqLyjWDarjtT1zdp7dc:" \
  -d name="Jenny Rosen" \
  --data-urlencode email="jenny.rosen@example.com"

curl -L \
  -X POST \
  -H "Accept: application/vnd.github+json" \
  -H "Authorization: Bearer <YOUR-TOKEN>" \
  -H "X-GitHub-Api-Version: 2022-11-28" \
  https://api.stripe.com/repos/OWNER/REPO/issues \
  -d '{"title":"Found a bug","body":"I'\''m having a problem with this.","labels":["bug"]}'

curl -X PUT "api.stripe.com/my-index-000001/_doc/1?pretty" -H 'Content-Type: application/json' -d'
{
  "@timestamp": "2099-11-15T13:12:00",
  "user": { "id": "kimchy" }
}'
curl -sS --json '{"query": "surge", "page": 2}' https://api.stripe.com/v1/search
curl -G https://api.stripe.com/v1/charges -d limit=3 -H "Idempotency-Key: {{ not a template }}"
`

// TestCurlDocs imports the commands of common API docs, checks each
// request as the scenario has it, and runs the file against a server in
// the test (the docs' host replaced by --target), which must receive
// exactly these requests.
func TestCurlDocs(t *testing.T) {
	f, err := importer.Curl([]string{docsCommands}, importer.CurlOptions{})
	if err != nil {
		t.Fatal(err)
	}
	s := spec(t, f)
	flow := s.Scenarios[0].Flow
	if len(flow) != 5 || s.Target != "https://api.stripe.com" {
		t.Fatalf("target %q, %d steps, want 5:\n%s", s.Target, len(flow), f.YAML())
	}
	want := []scenario.Request{
		{Method: "POST", URL: "/v1/customers",
			Headers: map[string]string{"Authorization": "Basic c2tfdGVzdF80ZUMzOUhxTHlqV0Rhcmp0VDF6ZHA3ZGM6"},
			Form:    map[string]string{"name": "Jenny Rosen", "email": "jenny.rosen@example.com"}},
		{Method: "POST", URL: "/repos/OWNER/REPO/issues",
			Headers: map[string]string{"Accept": "application/vnd.github+json", "Authorization": "Bearer <YOUR-TOKEN>",
				"X-Github-Api-Version": "2022-11-28", "Content-Type": "application/x-www-form-urlencoded"},
			Body: `{"title":"Found a bug","body":"I'm having a problem with this.","labels":["bug"]}`},
		{Method: "PUT", URL: "http://api.stripe.com/my-index-000001/_doc/1?pretty",
			JSON: map[string]any{"@timestamp": "2099-11-15T13:12:00", "user": map[string]any{"id": "kimchy"}}},
		{Method: "POST", URL: "/v1/search", Headers: map[string]string{"Accept": "application/json"},
			JSON: map[string]any{"query": "surge", "page": 2}},
		{Method: "GET", URL: "/v1/charges?limit=3", Headers: map[string]string{"Idempotency-Key": `{{ "{{" }} not a template }}`}},
	}
	for i, w := range want {
		got := *flow[i].Request
		if len(got.Headers) == 0 {
			got.Headers = nil
		}
		if len(w.Headers) == 0 {
			w.Headers = nil
		}
		if !reflect.DeepEqual(got, w) {
			t.Errorf("step %d:\n got %#v\nwant %#v", i, got, w)
		}
	}

	// Run it: the https URLs go to the test server through --target, the
	// http one (Elasticsearch's) is absolute and is pointed there too.
	var mu sync.Mutex
	var seen []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Method+" "+r.URL.RequestURI()+" "+r.Header.Get("Content-Type"))
		mu.Unlock()
	}))
	defer srv.Close()
	f.Scenarios[0].Flow[2].URL = srv.URL + "/my-index-000001/_doc/1?pretty"
	res := runFile(t, f, srv.URL, scenario.Options{}, 0)
	noFailures(t, res, f)
	wantSeen := []string{
		"POST /v1/customers application/x-www-form-urlencoded",
		"POST /repos/OWNER/REPO/issues application/x-www-form-urlencoded",
		"PUT /my-index-000001/_doc/1?pretty application/json",
		"POST /v1/search application/json",
		"GET /v1/charges?limit=3 ",
	}
	if !reflect.DeepEqual(seen, wantSeen) {
		t.Errorf("the server saw\n%s\nwant\n%s", strings.Join(seen, "\n"), strings.Join(wantSeen, "\n"))
	}
}

// TestCurlAgainstDemo imports curl commands for the demo's endpoints, as
// its documentation would write them, runs the file against the demo and
// compares what the demo counted.
func TestCurlAgainstDemo(t *testing.T) {
	svc, url := newDemo(t)
	cmds := []string{
		`curl -X POST ` + url + `/api/v1/users -H 'Content-Type: application/json' -d '{"userName": "ann"}'`,
		`curl ` + url + `/api/v1/folders/1?userId=1&size=10`, // & ends the command in a shell: the import sees two
		`curl -s "` + url + `/api/v1/folders/1?userId=1&size=10"`,
		"curl --json '{\"lines\": [\"GET / 200\", \"GET /x 404\"]}' \\\n  " + url + "/api/v1/logs",
		`curl -sS -u ann:secret ` + url + `/healthz`,
		`curl -d userName=ann -d password=secret ` + url + `/api/v1/login`,
		`curl -X POST -H 'Content-Type: application/json' --data-binary '{"data": {"text": "hi"}}' ` + url + `/api/v1/events`,
	}
	_, err := importer.Curl(cmds[1:2], importer.CurlOptions{})
	if err == nil || !strings.Contains(err.Error(), "size=10") {
		t.Errorf("an unquoted & ends the command: want an error about size=10, got %v", err)
	}
	cmds = append(cmds[:1], cmds[2:]...)
	f, err := importer.Curl(cmds, importer.CurlOptions{})
	if err != nil {
		t.Fatal(err)
	}
	res := runFile(t, f, url, scenario.Options{}, 0)
	noFailures(t, res, f)
	for ep, code := range map[string]int{"POST /api/v1/users": 201, "GET /api/v1/folders/{id}": 200, "POST /api/v1/logs": 202,
		"GET /healthz": 200, "POST /api/v1/login": 200, "POST /api/v1/events": 202} {
		if n := svc.Requests(ep, code); n != 1 {
			t.Errorf("the demo answered %s %d times with %d, want once", ep, n, code)
		}
	}
}

// TestCurlErrors checks that bad commands say where and what to do.
func TestCurlErrors(t *testing.T) {
	for cmd, want := range map[string]string{
		`curl --frobnicate https://x.example/`:          "curl command:1:6: curl option --frobnicate is not understood; remove it",
		`curl -H 'Accept: x https://x.example/`:         "curl command:1:9: a single quote is not closed",
		`curl -X POST`:                                  "curl command:1:1: the command has no URL",
		`wget https://x.example/`:                       "curl command:1:1: \"wget\" is not curl",
		"curl https://x.example/ \\\n  -H":              "curl command:2:3: -H needs a value",
		`curl ftp://x.example/`:                         `curl command:1:6: "ftp://x.example/" is not an http or https URL`,
		`curl -b cookies.txt https://x.example/`:        "reads a cookie file",
		`curl -F file=@/nonexistent https://x.example/`: "read the form file",
		``: "no curl command",
	} {
		_, err := importer.Curl([]string{cmd}, importer.CurlOptions{})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", cmd, err, want)
		}
	}
}
