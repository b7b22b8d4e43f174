package yamlfile

import (
	"time"

	"github.com/goccy/go-yaml/ast"

	"github.com/surge-load/surge/scenario"
)

// grpcFields are the keys of a grpc step.
var grpcFields = fieldsOf(
	scalar("method", "the method", (*decoder).str, func(g *scenario.GRPC) *string { return &g.Method }),
	scalar("target", "the target", (*decoder).str, func(g *scenario.GRPC) *string { return &g.Target }),
	scalar("message", "message", (*decoder).plain, func(g *scenario.GRPC) *any { return &g.Message }),
	scalar("metadata", "metadata", (*decoder).stringMap, func(g *scenario.GRPC) *map[string]string { return &g.Metadata }),
	scalar("deadline", "deadline", (*decoder).duration, func(g *scenario.GRPC) *time.Duration { return &g.Deadline }),
	scalar("proto", "a file name", oneOrList("a file name", (*decoder).str), func(g *scenario.GRPC) *[]string { return &g.Proto }),
	scalar("import_paths", "a file name", oneOrList("a file name", (*decoder).str), func(g *scenario.GRPC) *[]string { return &g.ImportPaths }),
)

// grpc decodes a grpc step.
func (d *decoder) grpc(n ast.Node, path string) *scenario.GRPC {
	g := &scenario.GRPC{}
	grpcFields.decode(d, n, path, "grpc", g)
	return g
}
