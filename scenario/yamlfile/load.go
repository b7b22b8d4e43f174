package yamlfile

import (
	"strings"
	"time"

	"github.com/goccy/go-yaml/ast"

	"github.com/surge-load/surge/executor"
	"github.com/surge-load/surge/scenario"
)

var loadKeys = []string{"users", "rate", "iterations", "every", "burst", "ramp", "duration", "stages", "max_users", "grace"}

// The load models of a scenario file: the key that chooses each, and the
// other keys it takes.
var models = []struct {
	key, name string
	keys      []string
}{
	{"every", "the burst model (every + burst)", []string{"every", "burst", "duration", "grace"}},
	{"iterations", "the iterations model", []string{"iterations", "users", "duration", "grace"}},
	{"rate", "the open model (rate)", []string{"rate", "ramp", "duration", "stages", "max_users", "grace"}},
	{"users", "the closed model (users)", []string{"users", "ramp", "duration", "stages", "grace"}},
}

// defaultIterationsDuration bounds the iterations model when the file does
// not say.
const defaultIterationsDuration = 10 * time.Minute

// load decodes a load model. The model is chosen by its key: every (with
// burst), iterations, rate or users; keys of other models contradict it.
func (d *decoder) load(n ast.Node, path string) executor.Load {
	fields, ok := d.mapping(n, path, loadKeys, "load")
	if !ok {
		return nil
	}
	vals := map[string]field{}
	for _, f := range fields {
		vals[f.key] = f
		d.recordKey(join(path, f.key), f.node)
	}
	if _, ok := vals["burst"]; ok {
		if _, ok := vals["every"]; !ok {
			d.fail(vals["burst"].node, join(path, "burst"), "add every: 10m, the period of the bursts", "burst needs every")
			return nil
		}
	}
	model := -1
	for i, m := range models {
		if _, ok := vals[m.key]; ok {
			model = i
			break
		}
	}
	if model < 0 {
		d.fail(n, path, "write users: N (closed), rate: R (open), iterations: N with users, or every: 10m with burst: N",
			"the load has no model")
		return nil
	}
	m := models[model]
	bad := false
	for _, f := range fields {
		if contains(m.keys, f.key) {
			continue
		}
		bad = true
		other := ""
		for _, o := range models {
			if o.key == f.key {
				other = o.name
			}
		}
		if other != "" {
			d.fail(f.node, join(path, f.key), "keep one model", "%s contradicts %s: %s and %s", f.key, m.key, other, m.name)
		} else {
			d.fail(f.node, join(path, f.key), "the keys of "+m.name+" are "+strings.Join(m.keys, ", "), "%s does not apply to %s", f.key, m.name)
		}
	}
	if bad {
		return nil
	}
	// Read every value first: a bad one is reported where it is, and the
	// checks of the whole below would only repeat it.
	invalid := false
	dur := func(key string) (time.Duration, bool) {
		return loadValue(d, vals, path, key, (*decoder).duration, &invalid)
	}
	count := func(key string) (int, bool) { return loadValue(d, vals, path, key, (*decoder).integer, &invalid) }
	grace, hasGrace := dur("grace")
	if !hasGrace {
		grace = scenario.DefaultGrace
	}
	every, _ := dur("every")
	size, hasSize := count("burst")
	total, _ := count("iterations")
	users, hasUsers := count("users")
	maxUsers, _ := count("max_users")
	ramp, hasRamp := dur("ramp")
	duration, hasDuration := dur("duration")
	var rate float64
	if f, ok := vals["rate"]; ok {
		var ok bool
		rate, ok = d.rate(f.val, join(path, "rate"))
		invalid = invalid || !ok
	}
	var stages []executor.Stage
	stagesField, hasStages := vals["stages"]
	if hasStages {
		n := len(d.errs)
		stages = d.stages(stagesField.val, join(path, "stages"), m.key == "rate")
		invalid = invalid || len(d.errs) > n
	}
	if invalid {
		return nil
	}
	switch m.key {
	case "every":
		if !hasSize {
			d.fail(n, path, "add burst: N, the arrivals of each burst", "every needs burst")
			return nil
		}
		if !hasDuration {
			d.fail(n, path, "add duration: 30m", "the burst model needs a duration")
			return nil
		}
		return executor.Burst{Every: every, Size: size, Length: duration, Grace: grace}
	case "iterations":
		if !hasUsers {
			d.fail(n, path, "add users: N, the users that share the iterations", "the iterations model needs users")
			return nil
		}
		if !hasDuration {
			duration = defaultIterationsDuration
		}
		return executor.Iterations{Total: total, Users: users, MaxDuration: duration, Grace: grace}
	}
	open := m.key == "rate"
	level := float64(users)
	if open {
		level = rate
	}
	switch {
	case hasStages && (hasRamp || hasDuration):
		key := "ramp"
		if hasDuration {
			key = "duration"
		}
		d.fail(vals[key].node, join(path, key), "remove it, or replace the stages by ramp and duration", "%s contradicts stages: the stages set the whole timeline", key)
		return nil
	case !hasStages && !hasDuration:
		d.fail(n, path, "add duration: 5m (and ramp: 1m to ramp up), or stages", "the load has no duration")
		return nil
	case hasRamp && ramp > duration:
		d.fail(vals["ramp"].node, join(path, "ramp"), "make the ramp shorter than the duration, which includes it", "ramp %v is longer than the duration %v", ramp, duration)
		return nil
	}
	if hasStages {
		if open {
			return executor.Open{StartRate: level, Stages: stages, MaxUsers: defaultPool(level, stages, maxUsers), Grace: grace}
		}
		return executor.Closed{Start: int(level), Stages: stages, Grace: grace}
	}
	if open {
		o := scenario.Rate(level, ramp, duration, maxUsers)
		o.Grace = grace
		return o
	}
	c := scenario.Users(int(level), ramp, duration)
	c.Grace = grace
	return c
}

// loadValue reads the value of key with read, if the load has the key; a
// bad value sets *invalid.
func loadValue[V any](d *decoder, vals map[string]field, path, key string, read reader[V], invalid *bool) (V, bool) {
	f, ok := vals[key]
	if !ok {
		var zero V
		return zero, false
	}
	v, ok := read(d, f.val, join(path, key), key)
	*invalid = *invalid || !ok
	return v, true
}

// defaultPool returns maxUsers, or the peak rate per second, at least 100.
func defaultPool(start float64, stages []executor.Stage, maxUsers int) int {
	if maxUsers > 0 {
		return maxUsers
	}
	return executor.DefaultPool(executor.Peak(start, stages))
}

// rate decodes an arrival rate: a number per second, or "100/s", "6000/1m".
func (d *decoder) rate(n ast.Node, path string) (float64, bool) {
	switch d.resolve(n).(type) {
	case *ast.IntegerNode, *ast.FloatNode:
		return d.number(n, path, "rate")
	}
	s, ok := d.str(n, path, "rate")
	if !ok {
		return 0, false
	}
	r, err := executor.ParseRate(s)
	if err != nil {
		d.fail(n, path, "write a rate such as 100, 100/s or 6000/1m", "%s", executor.Message(err))
		return 0, false
	}
	return r, true
}

// stageFields are the keys of a stage.
var stageFields = fieldsOf(
	custom("duration", func(d *decoder, f field, p string, st *stageDecoding) {
		st.Duration, st.hasDuration = d.duration(f.val, p, "duration")
	}),
	custom("target", func(d *decoder, f field, p string, st *stageDecoding) {
		if st.open {
			st.Target, st.hasTarget = d.rate(f.val, p)
			return
		}
		var u int
		u, st.hasTarget = d.integer(f.val, p, "target")
		st.Target = float64(u)
	}),
)

// A stageDecoding is a stage as it is decoded: whether its target is a
// rate, and whether its duration and target were read.
type stageDecoding struct {
	executor.Stage
	open, hasDuration, hasTarget bool
}

// stages decodes the stages of a model: targets are users, or rates when
// open.
func (d *decoder) stages(n ast.Node, path string, open bool) []executor.Stage {
	var out []executor.Stage
	d.mappings(n, path, "stages", stageFields.keys, "a stage", func(item ast.Node, p string, fields []field) {
		st := stageDecoding{open: open}
		stageFields.decodeFields(d, fields, p, &st)
		if !st.hasDuration || !st.hasTarget {
			d.fail(item, p, "write it as {duration: 30s, target: 100}", "a stage needs duration and target")
		}
		out = append(out, st.Stage)
	})
	return out
}
