// Package grpcc is one virtual user's gRPC client: unary and server
// streaming calls of methods described by .proto files (compiled at load
// time with bufbuild/protocompile) or found by server reflection, with
// messages as JSON (protojson), metadata and deadlines, over TLS or
// plaintext. Each Client owns its connections. A call is measured into a
// metrics.Sample: connect and TLS when the call opened the connection,
// the wait for the first response message, the receipt of the rest, the
// bytes on the wire, and its status code as an error class
// (errclass.FromGRPCCode).
package grpcc
