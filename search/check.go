package search

import (
	"fmt"
	"math"

	"github.com/surge-load/surge/scenario"
)

// A field is one of a search's settings that is checked: its key, as a
// scenario file's search section spells it.
type field string

// The checked settings. The first level is fieldStart whatever the model.
const (
	fieldModel      field = "model"
	fieldStart      field = "start"
	fieldFactor     field = "factor"
	fieldAdd        field = "add"
	fieldMax        field = "max"
	fieldStep       field = "step"
	fieldWarmup     field = "warmup"
	fieldBudget     field = "budget"
	fieldResolution field = "resolution"
)

// levels are the settings of a search that Run and ConfigFrom check, with
// the rules in one place: check.
type levels struct {
	scenario.Search
	resoln float64
	// factorGiven and addGiven say that factor or add was given, so that
	// zero is wrong rather than "not set".
	factorGiven, addGiven bool
}

// A problem is a setting that breaks a rule: which one, what is wrong
// (naming the setting as the caller's name function calls it) and, for a
// scenario file, how to fix it.
type problem struct {
	field field
	// other is the setting field is compared with, if any: a problem of a
	// default is the other setting's.
	other    field
	msg, fix string
}

// check returns the problems of l in the order of its fields; name says
// what a field is called where it came from (a flag, a file's key, a Go
// field). Zero durations and zero factor, add, max and resolution are
// taken as "not set"; defaults must be filled in before.
func (l *levels) check(name func(field) string) []problem {
	var ps []problem
	add := func(f field, fix, format string, args ...any) {
		ps = append(ps, problem{field: f, msg: fmt.Sprintf(format, args...), fix: fix})
	}
	against := func(other field) { ps[len(ps)-1].other = other }
	if l.Model != Users && l.Model != Rate {
		add(fieldModel, "give the first level as users: N (closed model) or rate: R (open model)", "%s %q: want %s or %s", name(fieldModel), l.Model, Users, Rate)
	}
	for _, f := range []struct {
		field field
		v     float64
	}{{fieldStart, l.Start}, {fieldFactor, l.Factor}, {fieldAdd, l.Add}, {fieldMax, l.Max}, {fieldResolution, l.resoln}} {
		if math.IsNaN(f.v) || math.IsInf(f.v, 0) {
			add(f.field, "give a finite number", "%s %v is not a finite number", name(f.field), f.v)
		}
	}
	if len(ps) > 0 {
		return ps
	}
	if l.Start <= 0 {
		add(fieldStart, "start from a positive level, such as rate: 50", "%s %v: the first level must be positive", name(fieldStart), l.Start)
	}
	switch {
	case (l.Factor != 0 || l.factorGiven) && (l.Add != 0 || l.addGiven):
		add(fieldAdd, "keep one: factor: 2 doubles the level, add: 50 adds to it", "choose %s or %s, not both", name(fieldFactor), name(fieldAdd))
		against(fieldFactor)
	case (l.Factor != 0 || l.factorGiven) && l.Factor <= 1:
		add(fieldFactor, "use a factor above 1, such as 1.5", "%s %v must be more than 1", name(fieldFactor), l.Factor)
	case l.Add < 0 || l.addGiven && l.Add == 0:
		add(fieldAdd, "use a positive step, such as add: 50", "%s %v must be positive", name(fieldAdd), l.Add)
	}
	if l.Max < 0 || l.Max != 0 && l.Start > 0 && l.Max < l.Start {
		add(fieldMax, "raise max or lower the first level", "%s %v is below the first level %v", name(fieldMax), l.Max, l.Start)
		against(fieldStart)
	}
	if l.resoln < 0 || l.resoln >= 1 {
		add(fieldResolution, "", "%s %v must be from 0 to below 1", name(fieldResolution), l.resoln)
	}
	switch {
	case l.Step <= 0:
		add(fieldStep, "give a duration such as step: 30s", "%s %v must be positive", name(fieldStep), l.Step)
	case l.Warmup < 0:
		add(fieldWarmup, "give a duration such as warmup: 5s, or 0s", "%s %v must not be negative", name(fieldWarmup), l.Warmup)
	case l.Warmup >= l.Step:
		add(fieldWarmup, "make warmup shorter than step", "%s %v must be shorter than %s %v, or nothing is judged", name(fieldWarmup), l.Warmup, name(fieldStep), l.Step)
		against(fieldStep)
	}
	if l.Step > 0 && l.Budget < l.Step {
		add(fieldBudget, "give a budget of several steps", "%s %v is shorter than one step (%s %v)", name(fieldBudget), l.Budget, name(fieldStep), l.Step)
		against(fieldStep)
	}
	return ps
}
