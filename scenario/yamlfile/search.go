package yamlfile

import (
	"github.com/goccy/go-yaml/ast"

	"github.com/surge-load/surge/scenario"
)

var searchKeys = []string{"users", "rate", "factor", "add", "max", "step", "warmup", "budget"}

// search decodes the search section: the first level as users or rate
// (which also names the model), and the steps.
func (d *decoder) search(n ast.Node) *scenario.Search {
	fields, ok := d.mapping(n, "search", searchKeys, "search")
	if !ok {
		return nil
	}
	s := &scenario.Search{}
	for _, f := range fields {
		p := join("search", f.key)
		d.recordKey(p, f.node)
		switch f.key {
		case "users":
			if s.Model == "rate" {
				d.fail(f.node, p, "keep one: users searches the closed model, rate the open one", "users contradicts rate")
				continue
			}
			s.Model = "users"
			if n, ok := d.integer(f.val, p, "users"); ok {
				s.Start = float64(n)
			}
		case "rate":
			if s.Model == "users" {
				d.fail(f.node, p, "keep one: users searches the closed model, rate the open one", "rate contradicts users")
				continue
			}
			s.Model = "rate"
			if r, ok := d.rate(f.val, p); ok {
				s.Start = r
			}
		case "factor":
			s.Factor, _ = d.number(f.val, p, "factor")
		case "add":
			s.Add, _ = d.number(f.val, p, "add")
		case "max":
			s.Max, _ = d.number(f.val, p, "max")
		case "step":
			s.Step, _ = d.duration(f.val, p, "step")
		case "warmup":
			s.Warmup, _ = d.duration(f.val, p, "warmup")
		case "budget":
			s.Budget, _ = d.duration(f.val, p, "budget")
		}
	}
	return s
}
