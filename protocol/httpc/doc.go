// Package httpc is the HTTP client of one virtual user. It performs HTTP
// exchanges and measures each one into a metrics.Sample: when it started and
// ended, how long each phase took, how many bytes crossed the wire and, when
// it failed, why.
//
// # Timings
//
// A Sample's Timing splits the service time, End minus Start, into phases
// that add up to it exactly:
//
//   - Blocked: waiting for a connection, other than resolving, dialing and
//     handshaking; on a reused connection it is nearly all of the time
//     before the request is sent.
//   - DNS, Connect, TLS: resolving the host, the TCP handshake and the TLS
//     handshake, when this request opened the connection it used; zero on a
//     reused connection.
//   - Send: writing the request, headers and body.
//   - Wait: request written until the first byte of the final response
//     (TTFB): informational responses (1xx, such as 100 Continue or 103
//     Early Hints) are inside it, and counted (Response.Interim,
//     Sample.Interim).
//   - Receive: first response byte until the body is fully read.
//
// # Bytes
//
// BytesIn and BytesOut count what crossed the TCP connections of the client,
// headers, TLS records and HTTP/2 framing included: the counting happens
// below TLS. Bytes exchanged between two requests (a late TLS session
// ticket, HTTP/2 control frames) are charged to the next request, so the
// samples of a client add up to all of its traffic. Written bytes are
// counted as a write starts, because the answer to them can be read before
// the writing goroutine returns; a write that then fails takes back what it
// did not write, from the next exchanges if its own is over.
//
// # Failures
//
// A failed exchange is classed with errclass.Classify and the phase it had
// reached: resolving (DNS), dialing (Connect), handshaking (TLS) or, once it
// had a connection, the request itself. A timeout that fires while dialing
// is therefore errclass.ConnectTimeout and one after it errclass.Timeout. A
// response with a status of 400 or more is errclass.HTTP4xx or
// errclass.HTTP5xx with a nil Err.
//
// # One attempt, one sample
//
// A request is never re-sent by the client. net/http re-sends an idempotent
// request whose reused connection failed, and an HTTP/2 request the server
// refused; here the connection that would carry the second attempt is
// refused instead, so that Do reports the first attempt's failure
// (a NotResentError, classed by its cause: errclass.Closed for a
// connection the server closed). Every request that reached the wire is
// one sample. A request of which nothing was written may be retried,
// since that is still one attempt.
//
// # Use
//
// A Transport belongs to one virtual user and serves one Do at a time.
// HTTP/1.1 (http URLs, and https ones whose TLS handshake settles on
// HTTP/1.1) runs on a lean client of its own, on the goroutine that calls
// Do, with reused buffers and the wire format of protocol/http1: a
// prepared request whose response headers are not wanted
// (Request.NoHeader) allocates nothing on a reused connection. Before it
// reuses an idle connection it peeks at the socket, so a connection the
// server closed while idle is replaced rather than failing a request the
// server never saw. An https host whose handshake chooses HTTP/2 is served
// by net/http from then on, the connection handed over. Requests are
// shared: Request.Prepare parses a Request once, and Do only reads it.
//
// # Redirects and proxies
//
// Redirects are not followed: a 3xx is a response like any other and counts
// as a success, so every request surge reports is one exchange with one
// server. Proxy settings in the environment are ignored; requests go
// straight to the target.
package httpc
