package grpcc

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/bufbuild/protocompile"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
)

// Files are compiled .proto files.
type Files struct {
	files *protoregistry.Files
}

// LoadProtos compiles the .proto files names, with their imports found
// under importPaths (the files' own directories when empty) and the
// well-known types built in; read reads a file.
func LoadProtos(names, importPaths []string, read func(name string) ([]byte, error)) (*Files, error) {
	if len(importPaths) == 0 {
		importPaths = []string{""}
	}
	c := protocompile.Compiler{
		Resolver: protocompile.WithStandardImports(&protocompile.SourceResolver{
			ImportPaths: importPaths,
			Accessor: func(path string) (io.ReadCloser, error) {
				b, err := read(path)
				if err != nil {
					return nil, err
				}
				return io.NopCloser(strings.NewReader(string(b))), nil
			},
		}),
	}
	fds, err := c.Compile(context.Background(), names...)
	if err != nil {
		return nil, fmt.Errorf("compile the .proto files: %w", err)
	}
	reg := new(protoregistry.Files)
	for _, fd := range fds {
		if err := reg.RegisterFile(fd); err != nil {
			return nil, fmt.Errorf("register %s: %w", fd.Path(), err)
		}
	}
	return &Files{files: reg}, nil
}

// Method finds a method by its full name, "package.Service/Method" (or
// with a dot before the method).
func (f *Files) Method(name string) (protoreflect.MethodDescriptor, error) {
	return findMethod(f.files, name)
}

// splitMethod splits "pkg.Svc/Method" into the service and method names.
func splitMethod(name string) (service, method string, err error) {
	name = strings.TrimPrefix(name, "/")
	if i := strings.LastIndexByte(name, '/'); i > 0 {
		return name[:i], name[i+1:], nil
	}
	if i := strings.LastIndexByte(name, '.'); i > 0 {
		return name[:i], name[i+1:], nil
	}
	return "", "", fmt.Errorf("method %q is not package.Service/Method", name)
}

func findMethod(files interface {
	FindDescriptorByName(protoreflect.FullName) (protoreflect.Descriptor, error)
}, name string) (protoreflect.MethodDescriptor, error) {
	service, method, err := splitMethod(name)
	if err != nil {
		return nil, err
	}
	d, err := files.FindDescriptorByName(protoreflect.FullName(service))
	if err != nil {
		return nil, fmt.Errorf("service %s is not described", service)
	}
	sd, ok := d.(protoreflect.ServiceDescriptor)
	if !ok {
		return nil, fmt.Errorf("%s is not a service", service)
	}
	md := sd.Methods().ByName(protoreflect.Name(method))
	if md == nil {
		var names []string
		for i := range sd.Methods().Len() {
			names = append(names, string(sd.Methods().Get(i).Name()))
		}
		slices.Sort(names)
		return nil, fmt.Errorf("service %s has no method %s; it has %s", service, method, strings.Join(names, ", "))
	}
	if md.IsStreamingClient() {
		return nil, errors.New("method " + name + " streams from the client: only unary and server-streaming methods can be called")
	}
	return md, nil
}

// Path returns the HTTP/2 path of a method, "/package.Service/Method".
func Path(md protoreflect.MethodDescriptor) string {
	return "/" + string(md.Parent().FullName()) + "/" + string(md.Name())
}
