package yamlfile

import (
	"fmt"

	"github.com/goccy/go-yaml/ast"

	"github.com/surge-load/surge/scenario"
)

var grpcKeys = []string{"method", "target", "message", "metadata", "deadline", "proto", "import_paths"}

// grpc decodes a grpc step.
func (d *decoder) grpc(n ast.Node, path string) *scenario.GRPC {
	g := &scenario.GRPC{}
	fields, ok := d.mapping(n, path, grpcKeys, "grpc")
	if !ok {
		return g
	}
	for _, f := range fields {
		p := join(path, f.key)
		d.recordKey(p, f.node)
		switch f.key {
		case "method":
			g.Method, _ = d.str(f.val, p, "the method")
		case "target":
			g.Target, _ = d.str(f.val, p, "the target")
		case "message":
			g.Message = d.value(f.val, p)
		case "metadata":
			g.Metadata, _ = d.stringMap(f.val, p, "metadata")
		case "deadline":
			g.Deadline, _ = d.duration(f.val, p, "deadline")
		case "proto", "import_paths":
			var list []string
			if _, isList := d.resolve(f.val).(*ast.SequenceNode); isList {
				items, _ := d.list(f.val, p, f.key)
				for i, item := range items {
					if s, ok := d.str(item, fmt.Sprintf("%s[%d]", p, i), "a file name"); ok {
						list = append(list, s)
					}
				}
			} else if s, ok := d.str(f.val, p, "a file name"); ok {
				list = []string{s}
			}
			if f.key == "proto" {
				g.Proto = list
			} else {
				g.ImportPaths = list
			}
		}
	}
	return g
}
