package yamlfile

import (
	"time"

	"github.com/goccy/go-yaml/ast"

	"github.com/surge-load/surge/scenario"
)

// searchFields are the keys of the search section: the first level as
// users or rate (which also names the model), and the steps.
var searchFields = fieldsOf(
	custom("users", func(d *decoder, f field, p string, s *scenario.Search) {
		if d.searchModel(f, p, s, "users", "rate") {
			if n, ok := d.integer(f.val, p, "users"); ok {
				s.Start = float64(n)
			}
		}
	}),
	custom("rate", func(d *decoder, f field, p string, s *scenario.Search) {
		if d.searchModel(f, p, s, "rate", "users") {
			if r, ok := d.rate(f.val, p); ok {
				s.Start = r
			}
		}
	}),
	scalar("factor", "factor", (*decoder).positiveNumber, func(s *scenario.Search) *float64 { return &s.Factor }),
	scalar("add", "add", (*decoder).positiveNumber, func(s *scenario.Search) *float64 { return &s.Add }),
	scalar("max", "max", (*decoder).positiveNumber, func(s *scenario.Search) *float64 { return &s.Max }),
	scalar("step", "step", (*decoder).positiveDuration, func(s *scenario.Search) *time.Duration { return &s.Step }),
	scalar("warmup", "warmup", (*decoder).duration, func(s *scenario.Search) *time.Duration { return &s.Warmup }),
	scalar("budget", "budget", (*decoder).positiveDuration, func(s *scenario.Search) *time.Duration { return &s.Budget }),
)

// search decodes the search section.
func (d *decoder) search(n ast.Node) *scenario.Search {
	s := &scenario.Search{}
	if !searchFields.decode(d, n, "search", "search", s) {
		return nil
	}
	return s
}

// searchModel sets the search's model to model, the key of f, unless the
// other one is already set; it reports whether it did.
func (d *decoder) searchModel(f field, p string, s *scenario.Search, model, other scenario.SearchModel) bool {
	if s.Model == other {
		d.fail(f.node, p, "keep one: users searches the closed model, rate the open one", "%s contradicts %s", model, other)
		return false
	}
	s.Model = model
	return true
}
