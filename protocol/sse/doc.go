// Package sse subscribes to server-sent event streams (text/event-stream)
// and measures them, for load tests that hold tens of thousands of
// subscriptions open from one machine.
//
// # Parsing
//
// Parser decodes an event stream by the rules of the WHATWG HTML standard
// (fields, comments, CR, LF and CRLF line ends, a leading byte order mark,
// multi-line data, sticky event IDs, retry), from pieces of any size,
// without allocating once its buffers have grown. It is fuzzed against a
// literal reading of the standard (FuzzParse; seeds in testdata/fuzz).
//
// # Subscribing
//
// A Client is shared by all virtual users. Client.Subscribe runs one
// subscription on the calling goroutine: it dials (netdial: source
// addresses in turn, DNS, TCP and TLS timed), writes an HTTP/1.1 request
// by hand, reads the response header, and reads the stream through a
// small buffer, decoding chunked transfer coding in place. A held stream
// costs no goroutine beyond the caller's (whose stack stays at 4 KiB), no
// net/http machinery, and no allocation per event: a buffer of
// Options.BufferBytes, the parser's buffers and the socket.
// docs/performance.md has the measured cost: about 12 KiB of generator
// memory per open stream.
//
// A subscription ends when its Request says (a hold time, a number of
// events, an event matching Until), when the server closes it, when it
// fails, or when its context is cancelled; with Request.Reconnect it
// reconnects as an EventSource does, with Last-Event-ID and the server's
// retry time.
//
// # Measurements
//
// Every connection attempt is one operation (metrics.Sample) measured from
// its start to its response headers, classed like an HTTP request by
// errclass.Classify with the phase it failed in; a status other than 200
// or a response that is not text/event-stream fails it. Every attempt is
// also one metrics.Stream, with its connect time, time to headers, time to
// first event, events, gaps between them, delivery delays (Request.SentAt)
// and how it ended (metrics.StreamEnd): held to plan, closed by the
// server, reset, timeout, HTTP error, connect failure, interrupted.
package sse
