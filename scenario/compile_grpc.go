package scenario

import (
	"fmt"
	"strings"

	exprtypes "github.com/expr-lang/expr/types"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/surge-load/surge/internal/expr"
	"github.com/surge-load/surge/protocol/grpcc"
)

// A compiled gRPC step. Its request, the step's req, carries the target
// and method as its URL, the metadata as headers and the message as JSON.
type grpcStep struct {
	method protoreflect.MethodDescriptor // nil: by reflection
	name   string                        // package.Service/Method
}

// nameMessages is the number of response messages, after a gRPC call.
const nameMessages = "messages"

// grpcMetadataSkipped are headers a request would carry that are not
// metadata of a call.
var grpcMetadataSkipped = []string{"content-type", "cookie", "user-agent", "host", "te", "connection", "content-length"}

func (c *compiler) grpcStep(s Step, st *step, path string, sc *expr.Scope) *expr.Scope {
	g := s.GRPC
	gs := &grpcStep{name: strings.TrimPrefix(g.Method, "/")}
	st.grpc = gs
	name := s.Name
	if name == "" {
		name = "GRPC " + gs.name
	}
	if g.Method == "" {
		c.fail(path+".method", "the call has no method", "give one, such as method: helloworld.Greeter/SayHello")
	}
	if g.Deadline < 0 {
		c.fail(path+".deadline", "deadline %v is negative", "give a positive duration such as 2s", g.Deadline)
	}
	if len(g.Proto) > 0 && g.Method != "" {
		files, err := c.protos(g.Proto, g.ImportPaths)
		if err != nil {
			c.fail(path+".proto", "%v", "fix the .proto files, or leave proto out to use server reflection", err)
		} else if md, err := files.Method(g.Method); err != nil {
			c.fail(path+".method", "%v", "name a method of the .proto files, as package.Service/Method", err)
		} else {
			gs.method = md
		}
	}
	msg := g.Message
	if msg == nil {
		msg = map[string]any{}
	}
	url := strings.TrimRight(g.Target, "/") + "/" + gs.name
	st.req = c.request(Step{Name: name, Request: &Request{Method: "POST", URL: url, Headers: g.Metadata, JSON: msg, Timeout: g.Deadline}}, path, sc)
	after := sc.WithResponse()
	after.Types[nameMessages] = exprtypes.Int
	if e := s.Expect; e != nil {
		http := *e
		http.Status = nil // gRPC codes, checked here
		st.expect = c.expect(&http, path+".expect", after)
		for i, code := range e.Status {
			if code < 0 || code > 16 {
				c.fail(fmt.Sprintf("%s.expect.status[%d]", path, i), "%d is not a gRPC status code", "give codes from 0 (OK) to 16, such as [0, 5] for OK or NOT_FOUND", code)
			}
		}
		st.expect.status = e.Status
	}
	return after
}

// protos compiles a set of .proto files once per plan.
func (c *compiler) protos(names, importPaths []string) (*grpcc.Files, error) {
	key := strings.Join(names, "\x00") + "\x01" + strings.Join(importPaths, "\x00")
	if f, ok := c.p.protoSets[key]; ok {
		return f, nil
	}
	read := c.opts.readFile
	f, err := grpcc.LoadProtos(names, importPaths, func(name string) ([]byte, error) { return read(name) })
	if err != nil {
		return nil, err
	}
	if c.p.protoSets == nil {
		c.p.protoSets = map[string]*grpcc.Files{}
	}
	c.p.protoSets[key] = f
	return f, nil
}
