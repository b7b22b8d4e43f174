package scenario

import (
	"fmt"
	"github.com/surge-load/surge/protocol/httpc"
	"strings"
	"time"

	"github.com/surge-load/surge/executor"
)

// A Spec is a whole load test: where to send requests, the values and data
// the journeys use, the steps run once before the load, the scenarios that
// run concurrently, and the thresholds that judge the result. Compile turns
// it into a runnable plan; a scenario file (package yamlfile) is parsed into
// a Spec.
//
// Strings marked "template" may hold expressions in double braces, as in
// "/folders/{{ pick(folders) }}"; fields marked "expression" are one
// expression without braces, as in "len(folders) > 100". See the package
// documentation for the names and functions they may use.
type Spec struct {
	// Target is the base URL that request URLs starting with "/" are
	// relative to, such as "http://127.0.0.1:8080".
	Target   string
	Defaults Defaults
	// Vars are the variables every virtual user starts with. A string
	// value may be a template, evaluated once when the plan is compiled;
	// it may use env() and the functions, not other variables.
	Vars map[string]any
	// Pools are shared lists of values, such as ids created during the
	// run, with the values they start with. Every virtual user sees the
	// same pool; steps add to it (Step.Append) and take from it (Remove,
	// and pick in expressions).
	Pools map[string][]any
	// Data are read-only data sources, such as names or accounts, picked
	// from in expressions with pick.
	Data map[string]Data
	// Setup runs once, before the load, as a virtual user of its own. Its
	// captures become variables of every virtual user; a failed setup
	// request stops the run.
	Setup []Step
	// Scenarios run concurrently, each under its own load.
	Scenarios []Scenario
	// Warmup is the warm-up period at the start of the run: requests meant
	// to start in it are kept out of the summary and the thresholds, and
	// counted in the result's warmup block.
	Warmup time.Duration
	// Thresholds judge the result, such as "p95<1000ms" or "errors<1%"
	// (see analysis.ParseThreshold).
	Thresholds []string
	// Monitor names the servers watched during the run: source name →
	// spec, such as api: process:nginx or db: prometheus:http://db:9187/metrics
	// (see monitor.Parse). Thresholds name them as NAME.SERIES.
	Monitor map[string]string
	// Outputs stream the run while it goes, each as KIND=URL, such as
	// "influxdb=http://127.0.0.1:8086/write?db=surge" (see output.Parse).
	Outputs []string
	// Search, if not nil, makes the file a breaking-point search (surge
	// find-max) rather than one run at the scenarios' loads.
	Search *Search
}

// Defaults apply to every request.
type Defaults struct {
	// Headers are sent with every request unless the request sets the
	// same header. Values are templates.
	Headers map[string]string
	// Timeout bounds each request, from connecting to reading the whole
	// body; zero means 30s. Request.Timeout overrides it.
	Timeout time.Duration
	// NoCookies turns off the virtual users' cookie jars. By default each
	// user keeps the cookies its responses set, as a browser does (RFC
	// 6265, public-suffix aware), and sends them with its later requests,
	// SSE subscriptions and WebSocket handshakes.
	NoCookies bool
	// HTTP2, when not httpc.HTTP2Auto, replaces Options.HTTP's: when the
	// users speak HTTP/2 (httpc.HTTP2Off for HTTP/1.1 only,
	// httpc.HTTP2PriorKnowledge for h2c on http URLs).
	HTTP2 httpc.HTTP2
	// HTTP3, if true, sends the requests to https URLs over HTTP/3
	// (QUIC), as Options.HTTP.HTTP3 does.
	HTTP3 bool
}

// A Scenario is one journey run by virtual users under one load model.
// Each iteration of a user runs either one of Tasks, picked at random by
// weight, or all of Flow in order.
type Scenario struct {
	Name string
	// Load is the load model: executor.Closed, executor.Open,
	// executor.Iterations or executor.Burst. Users, Rate, Iterations and
	// Bursts build the common shapes.
	Load executor.Load
	// StartAfter delays the scenario's start relative to the run's.
	StartAfter time.Duration
	// Think is the pause after each iteration, in the models whose users
	// loop (closed and iterations). It is never part of any latency.
	Think Pause
	// OnStart runs once per virtual user, before its first iteration. If
	// it fails, it runs again at the user's next iteration.
	OnStart []Step
	Tasks   []Task
	Flow    []Step
}

// A Task is a step picked at random, with probability proportional to its
// Weight, once per iteration: a request, or a group of steps.
type Task struct {
	Weight int // positive
	Step
}

// A Step is one thing a virtual user does: exactly one of a request
// (Request), a pause (Sleep), a group of steps (Steps, possibly repeated), or
// changes to variables and pools (Set, Append, Remove). A step that fails
// ends the iteration.
type Step struct {
	// Name names the statistics row of a request; requests with the same
	// name share a row. The default is the method and the URL template
	// without its query, as in "GET /folders/{{ pick(folders) }}".
	Name string
	// When, an expression, makes the step run only when it is true.
	When string

	Request *Request
	// SSE subscribes to a server-sent event stream; WebSocket opens a
	// WebSocket connection and runs its actions (see stream.go). Capture,
	// Append and Remove see the last event or awaited message.
	SSE       *SSE
	WebSocket *WebSocket
	// GRPC makes a gRPC call (see grpc.go).
	GRPC *GRPC
	// Expect, Capture, Append and Remove after a request are evaluated
	// against its response. Failed expectations fail the request with
	// error class "check".
	Expect *Expect

	Sleep Pause

	Steps []Step
	// Repeat runs Steps this many times; zero means once, or, with While,
	// as long as While holds.
	Repeat int
	// While, an expression, is checked before each pass through Steps.
	While string
	// OnFailure says what a failure of this step does to the iteration:
	// "stop" (the default) skips the iteration's later steps except its
	// sleeps, which still pace the user; "continue" goes on with the next
	// step, as k6 and Locust do after an unchecked response.
	OnFailure string
	// ErrorKey, such as "json.error", groups the failures of the step's
	// request by a field of the response body: their message becomes
	// "status 409: json.error = <the field's value>", so the causes a
	// server names in its error bodies are counted apart. It is a path
	// into the body's JSON, after "json.".
	ErrorKey string

	// Capture sets user variables to expressions evaluated against the
	// response of the step's request.
	Capture map[string]string
	// Set sets user variables to expressions, in a step without a request.
	Set map[string]string
	// Append adds the value of an expression to a pool; Remove takes it
	// out. They are applied after Capture and Set, so they may use the
	// variables those just set.
	Append map[string]string
	Remove map[string]string
}

// The values of Step.OnFailure.
const (
	OnFailureStop     = "stop"
	OnFailureContinue = "continue"
)

// A Request is an HTTP request. URL, the values of Query, Headers and Form,
// the strings in JSON, and Body are templates.
type Request struct {
	Method string // GET, POST, or any other method
	// URL is a path relative to Spec.Target, such as "/api/v1/users", or
	// an absolute http or https URL.
	URL     string
	Query   map[string]string // added to the URL's query
	Headers map[string]string
	// At most one of JSON, Form and Body is the body. JSON is a tree of
	// map[string]any, []any, strings, numbers, booleans and nil; a string
	// that is one template and nothing else, such as "{{ userId }}", keeps
	// the type of its value: a number stays a number.
	JSON any
	Form map[string]string
	Body string
	// Timeout overrides Defaults.Timeout for this request.
	Timeout time.Duration
}

// Expect says what a response must be like. A response that is not fails
// with error class "check"; its status, if unexpected, with http_4xx or
// http_5xx.
type Expect struct {
	// Status lists the acceptable status codes; a status in it succeeds
	// even if it is 4xx or 5xx. Empty means any status below 400.
	Status []int
	// Contains must occur in the body.
	Contains string
	// MaxDuration bounds the request's latency.
	MaxDuration time.Duration
	// That lists expressions that must be true, such as
	// "json.items[0].id != nil".
	That []string
}

// A Pause is a wait of Min, or, when Max is greater than Min, of a length
// picked uniformly from Min to Max.
type Pause struct {
	Min, Max time.Duration
}

// ParsePause parses a pause written as a duration, "1s", or a range of
// durations, "1s..3s".
func ParsePause(s string) (Pause, error) {
	lo, hi, isRange := strings.Cut(s, "..")
	min, err := time.ParseDuration(strings.TrimSpace(lo))
	if err != nil || min < 0 {
		return Pause{}, fmt.Errorf("%q is not a duration such as 1s or a range such as 1s..3s", s)
	}
	if !isRange {
		return Pause{Min: min}, nil
	}
	max, err := time.ParseDuration(strings.TrimSpace(hi))
	if err != nil || max < min {
		return Pause{}, fmt.Errorf("%q is not a range of durations low..high with low <= high, such as 1s..3s", s)
	}
	return Pause{Min: min, Max: max}, nil
}

// IsZero reports whether p waits not at all.
func (p Pause) IsZero() bool { return p.Min <= 0 && p.Max <= 0 }

// A Data source is a list of items picked from in expressions with pick:
// exactly one of List, Range, CSV and JSONL.
type Data struct {
	List []any
	// Range is the integers From, From+Step, ... up to To inclusive,
	// formatted with Format if it is not empty.
	Range *Range
	// CSV is a CSV file whose first row names the columns: each item is
	// a map from column name to value.
	CSV string
	// JSONL is a file of one JSON value per line: each line is an item.
	JSONL string
	Order Order
}

// A Range is a sequence of integers.
type Range struct {
	From, To int
	Step     int    // zero means 1
	Format   string // fmt verb for each number, such as "folder_%d"; empty for numbers
}

// An Order says which item pick returns from a data source.
type Order string

const (
	// Random picks an item at random each time; the default.
	Random Order = "random"
	// Sequential takes the items in order, one after the other across all
	// virtual users, starting again after the last.
	Sequential Order = "sequential"
	// Unique gives each virtual user an item of its own for its whole
	// life: user ids map to items one to one across all scenarios, and
	// Compile checks that there are enough items for the most users the
	// scenarios can run.
	Unique Order = "unique"
)
