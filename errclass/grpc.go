package errclass

// The classes of gRPC status codes other than OK: a call that ended with
// one failed with its class. A status the server sent and one the client
// made (a deadline, a connection that failed) are classed alike, as gRPC
// reports them alike.
const (
	GRPCCanceled           Class = "grpc_canceled"
	GRPCUnknown            Class = "grpc_unknown"
	GRPCInvalidArgument    Class = "grpc_invalid_argument"
	GRPCDeadlineExceeded   Class = "grpc_deadline_exceeded"
	GRPCNotFound           Class = "grpc_not_found"
	GRPCAlreadyExists      Class = "grpc_already_exists"
	GRPCPermissionDenied   Class = "grpc_permission_denied"
	GRPCResourceExhausted  Class = "grpc_resource_exhausted"
	GRPCFailedPrecondition Class = "grpc_failed_precondition"
	GRPCAborted            Class = "grpc_aborted"
	GRPCOutOfRange         Class = "grpc_out_of_range"
	GRPCUnimplemented      Class = "grpc_unimplemented"
	GRPCInternal           Class = "grpc_internal"
	GRPCUnavailable        Class = "grpc_unavailable"
	GRPCDataLoss           Class = "grpc_data_loss"
	GRPCUnauthenticated    Class = "grpc_unauthenticated"
)

// grpcClasses are the classes of the codes 1 to 16, in order.
var grpcClasses = []Class{GRPCCanceled, GRPCUnknown, GRPCInvalidArgument, GRPCDeadlineExceeded, GRPCNotFound,
	GRPCAlreadyExists, GRPCPermissionDenied, GRPCResourceExhausted, GRPCFailedPrecondition, GRPCAborted,
	GRPCOutOfRange, GRPCUnimplemented, GRPCInternal, GRPCUnavailable, GRPCDataLoss, GRPCUnauthenticated}

var grpcHints = map[Class]string{
	GRPCCanceled:           "the call was canceled (by the client, or a proxy)",
	GRPCUnknown:            "the server failed with an error that has no gRPC status: look at its logs",
	GRPCInvalidArgument:    "the server rejected the message: check its fields against the .proto",
	GRPCDeadlineExceeded:   "the call did not finish within its deadline: the server is slow, or the deadline too short",
	GRPCNotFound:           "the server did not find what the message names",
	GRPCAlreadyExists:      "what the call creates exists already",
	GRPCPermissionDenied:   "the caller may not do this: check the metadata's credentials",
	GRPCResourceExhausted:  "the server is out of a resource or rate-limited the call (or the message is too large)",
	GRPCFailedPrecondition: "the server is not in a state that allows the call",
	GRPCAborted:            "the call was aborted, often by a conflict (a transaction): retry logic is the caller's",
	GRPCOutOfRange:         "the message asks for something past a valid range",
	GRPCUnimplemented:      "the server does not implement the method: check the service and method names",
	GRPCInternal:           "the server failed internally: look at its logs",
	GRPCUnavailable:        "the server could not be reached or is shutting down (connection refused or reset, no listener): is it up?",
	GRPCDataLoss:           "the server reports lost or corrupt data",
	GRPCUnauthenticated:    "the call has no valid credentials: check the metadata",
}

func init() {
	for c, h := range grpcHints {
		hints[c] = h
	}
}

// FromGRPCCode returns the class of a gRPC status code: None for OK (0),
// Other for a code gRPC does not define.
func FromGRPCCode(code uint32) Class {
	switch {
	case code == 0:
		return None
	case int(code) <= len(grpcClasses):
		return grpcClasses[code-1]
	}
	return Other
}
