// Package scenario describes user journeys and the load to run them at, and
// compiles them into a surge.Plan: what a Locust file or a k6 script does,
// as Go values. A scenario file (package yamlfile) is parsed into the same
// values, so everything a file can say, Go code can say too.
//
// A Spec holds the scenarios that run concurrently, each under its own load
// model (executor.Closed, Open, Iterations or Burst; Users, Rate,
// Iterations and Bursts build the common shapes). A scenario's iteration
// runs one Task picked by weight, or a Flow of steps in order. A Step is a
// Request, a Sleep, a group of Steps (repeated with Repeat and While), or
// changes to variables (Set) and shared pools (Append, Remove); a request's
// response is judged by Expect, and Capture, Append and Remove read it. An
// SSE step subscribes to a server-sent event stream and holds it, and a
// WebSocket step runs a conversation on a WebSocket connection; both are
// measured as streams (connect time, time to first event, events, delivery
// delay, how they ended) beside the request statistics.
//
// # Templates and expressions
//
// Text fields are templates: expressions in double braces, as in
// "/folders/{{ pick(folders) }}". When, While, Expect.That and the values of
// Capture, Set, Append and Remove are expressions without braces. They are
// expr-lang expressions (https://expr-lang.org), compiled once by Compile
// with a declaration of every name they may use, so that a misspelled name
// is an error before any request. The names are the variables (Spec.Vars,
// the setup's captures, and what the scenario's steps capture or set), the
// pools and data sources, user and iteration, and, after a request, status,
// headers, json, body and duration_ms. The functions pick, len, randInt,
// randFloat, uuid, seq, env and regex come with expr-lang's own. A string
// that is one template and nothing else keeps its value's type in a JSON
// body.
//
// Per request nothing is parsed: templates are pre-split into text and
// compiled programs, the constant parts of a JSON body are encoded once,
// and simple paths into the response such as json.items[0].id are read
// straight from the body (gjson); the body is decoded in full only for a
// step whose expressions use json otherwise.
//
// # Measurement
//
// Each virtual user has its own HTTP client and records one sample per
// request, in the statistics row named by the step. In the open and burst
// models the first request of an iteration measures its latency from the
// arrival's scheduled time (executor.Iteration.LatencyFrom); every other
// request from its own start. Think time, and a user's lateness after it,
// are never part of a latency. Failed expectations are failures of class
// check.
//
// # Reading the package
//
// The files say which part they belong to. spec*.go is what a scenario
// means: the types a Spec is made of and their documentation. compile*.go
// is the compiler: Compile checks a Spec (every problem an Error at its
// path) and turns it into a program, the compiled form in program.go;
// program_build.go makes the plan's scenarios and setup of it. run*.go is
// how a compiled step runs: the virtual user (run_user.go) and its
// requests, streams, gRPC calls, cookies and pools. The expression engine
// is package internal/expr.
//
// docs/scenarios.md is the reference of the file format and of these
// concepts.
package scenario
