// Package http1 is the wire format of HTTP/1.1 as surge's clients speak
// it: the end and parsing of a response head (status line and header
// fields) and the framing of a response body (Content-Length, chunked,
// or until the connection closes). It holds no connections and allocates
// nothing; protocol/httpc's transport and protocol/sse's client both read
// responses with it.
//
// A response that breaks the protocol (a malformed status line or header,
// a head longer than the limit, bad chunk framing) fails with an error
// that matches errclass.ErrProtocol, so that it is classed
// errclass.Protocol rather than as a connection the server closed.
package http1
