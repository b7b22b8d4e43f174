// Package grpctest serves a small gRPC service for tests: echo.proto's
// Echo (unary Say with metadata, server-streaming Count, Sleep for
// deadlines, Missing unimplemented), the standard health service and
// server reflection, counting what it received and sent.
package grpctest

import (
	"context"
	"crypto/tls"
	_ "embed"
	"net"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bufbuild/protocompile"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/reflection"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/dynamicpb"
)

// Server is a grpc-go server of testdata/echo.proto, its messages
// dynamic, with the standard health service and server reflection. It
// counts the calls it received and the messages it sent.
type Server struct {
	Addr        string
	Srv         *grpc.Server
	Calls, Sent atomic.Int64 // calls received, messages sent
}

// Proto is testdata's echo.proto, the service of the server.
//
//go:embed echo.proto
var Proto []byte

// compile compiles Proto.
func compile(t testing.TB) protoreflect.FileDescriptor {
	t.Helper()
	c := protocompile.Compiler{Resolver: protocompile.WithStandardImports(&protocompile.SourceResolver{
		Accessor: protocompile.SourceAccessorFromMap(map[string]string{"echo.proto": string(Proto)}),
	})}
	fds, err := c.Compile(context.Background(), "echo.proto")
	if err != nil {
		t.Fatal(err)
	}
	return fds[0]
}

var registerOnce atomic.Bool

// Start serves the echo service on 127.0.0.1, over TLS (a self-signed
// certificate) if useTLS, until the test ends.
func Start(t testing.TB, useTLS bool) *Server {
	t.Helper()
	fd := compile(t)
	if registerOnce.CompareAndSwap(false, true) { // for reflection
		if err := protoregistry.GlobalFiles.RegisterFile(fd); err != nil {
			t.Fatal(err)
		}
	}
	svc := fd.Services().ByName("Echo")
	es := &Server{}
	handler := func(_ any, stream grpc.ServerStream) error {
		full, _ := grpc.MethodFromServerStream(stream)
		es.Calls.Add(1)
		name := full[len("/surge.test.Echo/"):]
		md := svc.Methods().ByName(protoreflect.Name(name))
		if md == nil || name == "Missing" {
			return status.Errorf(codes.Unimplemented, "method %s not implemented", full)
		}
		in := dynamicpb.NewMessage(md.Input())
		if err := stream.RecvMsg(in); err != nil {
			return err
		}
		reply := func(text string, n int64) error {
			out := dynamicpb.NewMessage(md.Output())
			out.Set(md.Output().Fields().ByName("text"), protoreflect.ValueOfString(text))
			out.Set(md.Output().Fields().ByName("n"), protoreflect.ValueOfInt64(n))
			es.Sent.Add(1)
			return stream.SendMsg(out)
		}
		switch name {
		case "Say":
			user := ""
			if m, ok := metadata.FromIncomingContext(stream.Context()); ok && len(m["x-user"]) > 0 {
				user = " from " + m["x-user"][0]
			}
			_ = stream.SetHeader(metadata.Pairs("x-served-by", "echo"))
			return reply(in.Get(md.Input().Fields().ByName("text")).String()+user, in.Get(md.Input().Fields().ByName("id")).Int())
		case "Count":
			n := in.Get(md.Input().Fields().ByName("n")).Int()
			for i := range n {
				if err := reply("tick", i+1); err != nil {
					return err
				}
			}
			return nil
		case "Sleep":
			select {
			case <-time.After(time.Duration(in.Get(md.Input().Fields().ByName("ms")).Int()) * time.Millisecond):
			case <-stream.Context().Done():
				return stream.Context().Err()
			}
			return reply("awake", 0)
		}
		return nil
	}
	opts := []grpc.ServerOption{grpc.UnknownServiceHandler(handler)}
	if useTLS {
		cert := httptest.NewUnstartedServer(nil)
		cert.StartTLS()
		c := cert.TLS.Certificates[0]
		cert.Close()
		opts = append(opts, grpc.Creds(credentials.NewTLS(&tls.Config{Certificates: []tls.Certificate{c}})))
	}
	es.Srv = grpc.NewServer(opts...)
	hs := health.NewServer()
	hs.SetServingStatus("surge.test.Echo", healthpb.HealthCheckResponse_SERVING)
	healthpb.RegisterHealthServer(es.Srv, hs)
	reflection.Register(es.Srv)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	es.Addr = ln.Addr().String()
	go es.Srv.Serve(ln)
	t.Cleanup(es.Srv.Stop)
	return es
}
