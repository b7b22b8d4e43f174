// Package demo implements surge's built-in demo target: a small but
// realistic HTTP service whose behaviour under load is known, used by the
// quickstart ("surge demo") and by surge's own tests.
//
// It serves workloads taken from field reports, all in memory and
// safe under concurrent use:
//
//   - a folder service (users own folder trees; creates and moves take a
//     per-tree lock with a bounded wait, so contention shows up as 503
//     "lock wait timeout exceeded"; moves cost time per moved folder);
//   - log ingestion into a bounded buffer drained by a background bulk
//     inserter, which degrades to waits and then 503 past its rate;
//   - server-sent events with ticks, broadcasts, Last-Event-ID replay and
//     a "sent_at" timestamp for measuring delivery delay;
//   - a WebSocket echo endpoint, whose "close CODE" message makes it close
//     with that code.
//
// GET / lists the endpoints, GET /healthz answers "ok" and GET /metrics
// serves Prometheus metrics from a registry private to each Service.
//
// # Failure knobs
//
// Config also holds failure knobs, all off by default, that apply to every
// endpoint except /metrics and /healthz (for the event stream, only to its
// setup): added latency from a distribution, periodic stalls that hold
// arriving requests (for testing coordinated omission), a failure rate, a
// limit on requests in flight with a bounded queue (giving a known
// capacity of about MaxInFlight divided by the service time) and a CPU
// cost per request. RegisterFlags exposes every knob as a command-line
// flag.
//
// Use New for an http.Handler, or Start to listen on an address:
//
//	srv, err := demo.Start(ctx, "127.0.0.1:0", demo.Config{MaxInFlight: 4})
//	if err != nil { ... }
//	defer srv.Close()
//	// load-test srv.URL
package demo
