package grpcc

import (
	"context"
	"fmt"
	"sync"

	"google.golang.org/grpc"
	rpb "google.golang.org/grpc/reflection/grpc_reflection_v1"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"
)

// A Reflection finds methods by asking servers (gRPC server reflection,
// v1), once per target and method: every virtual user shares it.
type Reflection struct {
	mu    sync.Mutex
	found map[string]protoreflect.MethodDescriptor // by target and method name
}

// method finds name on the server of conn, target naming it.
func (r *Reflection) method(ctx context.Context, conn *grpc.ClientConn, target, name string) (protoreflect.MethodDescriptor, error) {
	key := target + " " + name
	r.mu.Lock()
	md := r.found[key]
	r.mu.Unlock()
	if md != nil {
		return md, nil
	}
	service, _, err := splitMethod(name)
	if err != nil {
		return nil, err
	}
	stream, err := rpb.NewServerReflectionClient(conn).ServerReflectionInfo(ctx)
	if err != nil {
		return nil, fmt.Errorf("server reflection: %w", err)
	}
	defer stream.CloseSend()
	if err := stream.Send(&rpb.ServerReflectionRequest{MessageRequest: &rpb.ServerReflectionRequest_FileContainingSymbol{FileContainingSymbol: service}}); err != nil {
		return nil, fmt.Errorf("server reflection: %w", err)
	}
	resp, err := stream.Recv()
	if err != nil {
		return nil, fmt.Errorf("server reflection: %w", err)
	}
	if e := resp.GetErrorResponse(); e != nil {
		return nil, fmt.Errorf("server reflection: service %s: %s", service, e.GetErrorMessage())
	}
	set := &descriptorpb.FileDescriptorSet{}
	seen := map[string]bool{}
	for _, b := range resp.GetFileDescriptorResponse().GetFileDescriptorProto() {
		fd := &descriptorpb.FileDescriptorProto{}
		if err := proto.Unmarshal(b, fd); err != nil {
			return nil, fmt.Errorf("server reflection: a file descriptor: %w", err)
		}
		if !seen[fd.GetName()] {
			seen[fd.GetName()] = true
			set.File = append(set.File, fd)
		}
	}
	files, err := protodesc.NewFiles(set)
	if err != nil {
		return nil, fmt.Errorf("server reflection: the descriptors of %s: %w", service, err)
	}
	md, err = findMethod(files, name)
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	if r.found == nil {
		r.found = map[string]protoreflect.MethodDescriptor{}
	}
	r.found[key] = md
	r.mu.Unlock()
	return md, nil
}
