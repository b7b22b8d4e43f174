// Package ws is surge's WebSocket client, built on github.com/coder/websocket:
// connect, send text or JSON, await a message that matches, hold the
// connection while counting what arrives, and close, with every step
// measured.
//
// # Measurements
//
//   - The handshake is one operation (metrics.Sample): from the start of
//     connecting to the 101 response, with DNS, connect and TLS times; a
//     refused handshake fails it (errclass.HTTP4xx, HTTP5xx, or Check for
//     another status).
//   - The connection is one metrics.Stream: StreamOpened after the
//     handshake, StreamEvent for every message received (with the gap
//     since the previous one), StreamEnded with how it ended and the close
//     code: EndHeld when the client closed it, EndServerClosed with the
//     server's code when the server did, or the failure.
//   - An awaited reply can be an operation of its own: the round trip from
//     the last message sent to the matching message (Await.Record).
//
// Bytes are counted on the wire, below TLS. Unlike protocol/sse, the
// handshake goes through net/http and each connection keeps coder's
// buffered reader and writer, so a connection costs more memory than an
// event stream; docs/performance.md has the figure.
package ws
