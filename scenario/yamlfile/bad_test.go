package yamlfile

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/surge-load/surge/scenario"
)

// good is a valid file the bad cases below start from.
const good = `target: http://127.0.0.1:8080
pools:
  folders: [1]
scenarios:
  browse:
    load: {users: 5, duration: 10s}
    tasks:
      - get: /api/v1/folders/{{ pick(folders) }}
`

// compileString compiles src, a file called test.yaml, with no data files
// but data.csv.
func compileString(src string) error {
	fs := fstest.MapFS{"data.csv": {Data: []byte("email,password\na@x,1\nb@x,2\n")}}
	_, err := Compile("test.yaml", []byte(src), scenario.Options{FS: fs})
	return err
}

// laughs is a few lines that aliases would expand to 10^8 values.
var laughs = func() string {
	s := "vars:\n  l0: &l0 [x, x, x, x, x, x, x, x, x, x]\n"
	for i := 1; i < 8; i++ {
		s += fmt.Sprintf("  l%d: &l%d [%s]\n", i, i, strings.Repeat(fmt.Sprintf("*l%d, ", i-1), 9)+fmt.Sprintf("*l%d", i-1))
	}
	return s
}()

func TestBadFiles(t *testing.T) {
	cases := []struct {
		name string
		src  string
		want string // "line:col: message" prefix of the first error
	}{
		{"unknown top-level key", strings.Replace(good, "pools:", "pool:", 1),
			"2:1: unknown key \"pool\" in a scenario file; did you mean pools?"},
		{"unknown step key", good + "        expct: {status: 200}\n",
			"9:9: unknown key \"expct\" in a task; did you mean expect?"},
		{"unknown scenario key", strings.Replace(good, "    tasks:", "    taks:", 1),
			"7:5: unknown key \"taks\" in a scenario; did you mean tasks?"},
		{"function name in the wrong case", strings.Replace(good, "pick(folders) }}", "pick(folders) }}?n={{ randint(1, 5) }}", 1),
			"8:55: randint is not defined; did you mean randInt?"},
		{"unknown output kind", good + "outputs: [influxdb=http://127.0.0.1:8086/write, prom=http://x]\n",
			"9:49: output \"prom=http://x\": unknown kind \"prom\"; want one of prometheus-rw"},
		{"yaml syntax", "target: [http://x\nscenarios: {}\n",
			"2:1: ',' or ']' must be specified"},
		{"bad duration", strings.Replace(good, "duration: 10s", "duration: 10 seconds", 1),
			"6:32: duration must be a duration, not \"10 seconds\""},
		{"users not a number", strings.Replace(good, "users: 5", "users: five", 1),
			"6:19: users must be a whole number, not \"five\""},
		{"users and rate", strings.Replace(good, "users: 5,", "users: 5, rate: 10/s,", 1),
			"6:12: users contradicts rate: the closed model (users) and the open model (rate)"},
		{"ramp longer than duration", strings.Replace(good, "users: 5,", "users: 5, ramp: 1m,", 1),
			"6:22: ramp 1m0s is longer than the duration 10s"},
		{"stages and duration", strings.Replace(good, "duration: 10s", "duration: 10s, stages: [{duration: 5s, target: 1}]", 1),
			"6:22: duration contradicts stages"},
		{"no load model", strings.Replace(good, "users: 5, duration: 10s", "duration: 10s", 1),
			"6:11: the load has no model"},
		{"max_users in closed model", strings.Replace(good, "users: 5,", "users: 5, max_users: 9,", 1),
			"6:22: max_users does not apply to the closed model (users)"},
		{"search step of zero", good + "search: {users: 5, step: 0s}\n",
			"9:26: step 0s must be above zero; give a duration such as 30s, or leave step out for its default"},
		{"search budget of zero", good + "search: {users: 5, budget: 0s}\n",
			"9:28: budget 0s must be above zero"},
		{"search factor of zero", good + "search: {users: 5, factor: 0}\n",
			"9:28: factor 0 must be above zero"},
		{"search max below zero", good + "search: {users: 5, max: -3}\n",
			"9:25: max -3 must be above zero"},
		{"think in open model", strings.Replace(good, "users: 5,", "rate: 5,", 1) + "    think: 1s\n",
			"9:12: think applies to the models whose users loop"},
		{"bad think range", strings.Replace(good, "    tasks:", "    think: 3s..1s\n    tasks:", 1),
			"7:12: think \"3s..1s\" is not a range of durations"},
		{"weight not positive", strings.Replace(good, "      - get:", "      - weight: 0\n        get:", 1),
			"8:17: weight 0 is not positive"},
		{"undefined variable", strings.Replace(good, "pick(folders) }}", "pick(folders) }}?u={{ userID }}", 1),
			"8:55: userID is not defined"},
		{"undefined pool with suggestion", strings.Replace(good, "pick(folders)", "pick(folder)", 1),
			"8:38: folder is not defined; did you mean folders?"},
		{"expression syntax", strings.Replace(good, "      - get:", "      - when: len(folders) >\n        get:", 1),
			"8:28: unexpected token EOF"},
		{"response field outside a response", strings.Replace(good, "      - get:", "      - when: status == 200\n        get:", 1),
			"8:15: status is not defined; status is known only after a request"},
		{"append to an undeclared pool", good + "        append: {foldrs: json.id}\n",
			"9:18: there is no pool foldrs; did you mean folders?"},
		{"expect status out of range", good + "        expect: {status: [200, 2001]}\n",
			"9:32: 2001 is not an HTTP status"},
		{"unclosed template", strings.Replace(good, "pick(folders) }}", "pick(folders)", 1),
			"8:30: {{ is not closed"},
		{"relative URL without target", strings.Replace(good, "target: http://127.0.0.1:8080\n", "", 1),
			"7:14: the URL \"/api/v1/folders/{{ pick(folders) }}\" is relative and there is no target"},
		{"bad target", strings.Replace(good, "http://127.0.0.1:8080", "127.0.0.1:8080", 1),
			"1:9: target \"127.0.0.1:8080\" is not an absolute http:// or https:// URL"},
		{"tasks and flow", good + "    flow:\n      - get: /x\n",
			"5:3: the scenario has both tasks and a flow"},
		{"step doing two things", good + "        sleep: 1s\n",
			"8:9: the step has a request and sleep"},
		{"capture without request", strings.Replace(good, "      - get: /api/v1/folders/{{ pick(folders) }}", "      - sleep: 1s\n        capture: {x: json.id}", 1),
			"9:9: capture applies to the response of a request"},
		{"two methods", good + "        post: /x\n",
			"9:9: the step has two requests: get and post"},
		{"unknown data order", good + "data:\n  names: {list: [a], order: randon}\n",
			"10:29: order \"randon\" is not one of random, sequential, unique; did you mean random?"},
		{"missing data file", good + "data:\n  accounts: {csv: nope.csv}\n",
			"10:3: open nope.csv: file does not exist"},
		{"unique data with too few items", strings.Replace(good, "pick(folders)", "pick(accounts).email", 1) + "data:\n  accounts: {csv: data.csv, order: unique}\n",
			"10:36: order unique gives every virtual user an item of its own, but the scenarios run up to 5 users and accounts has 2 items"},
		{"bad threshold", good + "thresholds: [\"p95<100\"]\n",
			"9:14: threshold \"p95<100\": give the latency a unit"},
		{"threshold on an unknown row", good + "thresholds: [\"GET /x:p95<1s\"]\n",
			"9:14: threshold \"GET /x:p95<1s\" names statistics row \"GET /x\", which no request has"},
		{"bad monitor spec", good + "monitor:\n  api: \"process:\"\n",
			"10:8: monitor api=\"process:\": give a process id or name"},
		{"unknown monitor source", good + "monitor:\n  api: proc:nginx\n",
			"10:8: monitor api=\"proc:nginx\": unknown source \"proc\""},
		{"threshold on an unknown monitor", good + "monitor:\n  api: host\nthresholds: [\"db.cpu<30%\"]\n",
			"11:14: threshold \"db.cpu<30%\" names monitor \"db\", which the file does not have"},
		{"threshold on a monitor without a unit", good + "monitor:\n  api: host\nthresholds: [\"api.cpu<30\"]\n",
			"11:14: threshold \"api.cpu<30\": give cpu as a percentage"},
		{"regex with a bad pattern", good + "        capture: {id: 'regex(body, \"(\")'}\n",
			"9:36: bad regular expression"},
		{"env not set", strings.Replace(good, "pick(folders) }}", "pick(folders) }}?k={{ env(\"SURGE_TEST_UNSET\") }}", 1),
			"8:59: environment value SURGE_TEST_UNSET is not set"},
		{"variable named like a function", good + "vars: {uuid: 1}\n",
			"9:8: uuid is a reserved name"},
		{"empty file", "", "1:1: the file is empty"},
		{"aliases of aliases", good + laughs, "11:52: the file expands to more than 200000 values"},
		{"two documents", good + "---\ntarget: x\n", "10:7: the file has more than one YAML document"},
		{"warm-up as long as the run", good + "warmup: 10s\n", "9:9: warm-up 10s is not shorter than the run"},
	}
	if len(cases) < 20 {
		t.Fatalf("only %d cases", len(cases))
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := compileString(c.src)
			if err == nil {
				t.Fatalf("no error; want %s", c.want)
			}
			var es scenario.Errors
			if !errors.As(err, &es) || len(es) == 0 {
				t.Fatalf("error %v is not scenario.Errors", err)
			}
			e := es[0]
			if e.File != "test.yaml" || e.Line == 0 {
				t.Errorf("error %v has no position", e)
			}
			got := fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg)
			if e.Fix != "" {
				got += "; " + e.Fix
			}
			if !strings.HasPrefix(got, c.want) {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
		})
	}
}

// Many problems are reported at once, in the order of their positions.
func TestManyErrorsAtOnce(t *testing.T) {
	src := `target: http://127.0.0.1:8080
scenarios:
  a:
    load: {users: 5, duration: 10x}
    tasks:
      - weight: -1
        get: /{{ nope }}
      - get: /x
        expct: {}
`
	err := compileString(src)
	var es scenario.Errors
	if !errors.As(err, &es) {
		t.Fatalf("error %v", err)
	}
	var lines []int
	for _, e := range es {
		lines = append(lines, e.Line)
	}
	if !slices.Equal(lines, []int{4, 6, 7, 9}) {
		t.Errorf("errors at lines %v:\n%v", lines, err)
	}
	if !strings.HasPrefix(err.Error(), "test.yaml:4:") {
		t.Errorf("message %q does not start with the file and position", err.Error())
	}
}
