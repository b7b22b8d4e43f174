package scenario

import "time"

// A GRPC step makes one gRPC call, unary or server streaming. Its
// statistics row is by default "GRPC package.Service/Method". The call
// succeeds when its status is OK (or one of Expect.Status, as gRPC codes);
// otherwise it fails with the class of its code, such as
// grpc_unavailable. Capture, Expect.That, Append and Remove see status
// (the code), json and body (the last response message), headers (the
// response metadata) and messages (how many messages arrived).
type GRPC struct {
	// Method is the full name of the method, "package.Service/Method".
	Method string
	// Target is where the service is, a template: http://host:port for
	// plaintext, https://host:port for TLS. Empty means Spec.Target.
	Target string
	// Message is the request message, a JSON tree like Request.JSON,
	// read as protobuf JSON (field names as in the .proto or in
	// lowerCamelCase; 64-bit integers as numbers or strings).
	Message any
	// Metadata are request metadata, templates; Defaults.Headers are sent
	// too.
	Metadata map[string]string
	// Deadline bounds the call; zero means Defaults.Timeout.
	Deadline time.Duration
	// Proto lists the .proto files that describe the service, compiled
	// when the plan is (relative names under Options.Dir, or ImportPaths).
	// Empty means the methods are found by server reflection, once per
	// target.
	Proto       []string
	ImportPaths []string
}
