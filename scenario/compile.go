package scenario

import (
	"errors"
	"fmt"
	"maps"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/expr-lang/expr/types"

	"github.com/surge-load/surge"
	"github.com/surge-load/surge/analysis"
	"github.com/surge-load/surge/executor"
	"github.com/surge-load/surge/internal/expr"
	"github.com/surge-load/surge/internal/suggest"
	"github.com/surge-load/surge/monitor"
	"github.com/surge-load/surge/output"
	"github.com/surge-load/surge/protocol/httpc"
)

// Compile checks spec as a whole and compiles it into a plan: every
// template and expression is compiled here, once, and data files are read.
// It reports every problem it finds, up to MaxErrors, as Errors.
func Compile(spec *Spec, opts Options) (*surge.Plan, error) {
	_, plan, err := compile(spec, opts)
	if err != nil {
		return nil, err
	}
	return plan, nil
}

// A compiler holds the state of one Compile.
type compiler struct {
	opts   Options
	target string
	errs   Errors
	f      *expr.Funcs
	p      *program
	names  map[string]string // every name declared, and what declared it
	uses   map[string]bool   // names the current scenario's expressions use
	eps    map[string]int    // statistics rows by name
	scEps  []int             // the current scenario's rows

	specHeaders map[string]string // Defaults.Headers
}

func compile(spec *Spec, opts Options) (*program, *surge.Plan, error) {
	if spec == nil {
		return nil, nil, Errors{{Msg: "no spec"}}
	}
	c := &compiler{
		opts:  opts,
		f:     expr.NewFuncs(opts.Env),
		names: map[string]string{},
		eps:   map[string]int{},
		p: &program{
			http:    opts.HTTP,
			cookies: !spec.Defaults.NoCookies,
			seed:    opts.seed(),
			vars:    map[string]any{},
			pools:   map[string]*Pool{},
			initial: map[string][]any{},
			sources: map[string]*source{},
			globals: map[string]any{},
		},
	}
	c.p.funcs = c.f
	c.specHeaders = spec.Defaults.Headers
	for k := range spec.Defaults.Headers {
		if !validHeader(k) {
			c.fail("defaults.headers."+k, "%q is not a header name", "write names such as X-Request-Id", k)
		}
	}
	if spec.Defaults.Timeout < 0 {
		c.fail("defaults.timeout", "timeout %v is negative", "give a positive duration such as 20s", spec.Defaults.Timeout)
	} else if spec.Defaults.Timeout > 0 {
		c.p.http.Timeout = spec.Defaults.Timeout
	}
	if spec.Defaults.HTTP2 != httpc.HTTP2Auto {
		c.p.http.HTTP2 = spec.Defaults.HTTP2
	}
	c.p.http.HTTP3 = c.p.http.HTTP3 || spec.Defaults.HTTP3
	c.checkTarget(spec)
	c.declare(spec)
	base := c.baseScope()
	c.compileSetup(spec, base)
	selected := c.selected(spec)
	plan := &surge.Plan{Target: c.target, Warmup: spec.Warmup}
	scale := c.timeScale(spec, selected)
	seen := map[string]bool{}
	for i, sc := range spec.Scenarios {
		path := "scenarios." + sc.Name
		if sc.Name == "" {
			path = fmt.Sprintf("scenarios[%d]", i)
			c.fail(path, "the scenario has no name", "give every scenario a name")
		} else if seen[sc.Name] {
			c.fail(path, "scenario %s is defined twice", "give every scenario a name of its own", sc.Name)
		}
		seen[sc.Name] = true
		cs := c.compileScenario(sc, path, base, scale)
		if cs != nil && selected[sc.Name] {
			cs.index = i
			c.p.scenarios = append(c.p.scenarios, cs)
		}
	}
	if len(spec.Scenarios) == 0 {
		c.fail("scenarios", "there are no scenarios", "add one under scenarios, with a load and tasks or a flow")
	}
	c.checkUniques()
	plan.Warmup = time.Duration(float64(spec.Warmup) * scale)
	for _, name := range slices.Sorted(maps.Keys(spec.Monitor)) {
		if slices.ContainsFunc(opts.Monitors, func(m monitor.Spec) bool { return m.Name == name }) {
			continue // --monitor NAME=SPEC replaces the file's NAME
		}
		m, err := monitor.Parse(name, spec.Monitor[name])
		if err != nil {
			c.fail("monitor."+name, "%v", "a source is process:PID, process:NAME, cgroup:PATH, container:ID, host or prometheus:URL (docs/monitoring.md)", err)
			continue
		}
		plan.Monitors = append(plan.Monitors, m)
	}
	plan.Monitors = append(plan.Monitors, opts.Monitors...)
	for i, expr := range spec.Thresholds {
		t, err := analysis.ParseThreshold(expr)
		if err != nil {
			c.fail(fmt.Sprintf("thresholds[%d]", i), "%v", "", err)
			continue
		}
		if t.Source != "" {
			if _, ok := spec.Monitor[t.Source]; !ok && !slices.ContainsFunc(opts.Monitors, func(m monitor.Spec) bool { return m.Name == t.Source }) {
				c.fail(fmt.Sprintf("thresholds[%d]", i), "threshold %q names monitor %q, which the file does not have",
					"add it under monitor: (such as "+t.Source+": process:NAME), or pass --monitor "+t.Source+"=SPEC", expr, t.Source)
			}
		}
		if t.Endpoint != "" {
			if _, ok := c.eps[t.Endpoint]; !ok {
				c.fail(fmt.Sprintf("thresholds[%d]", i), "threshold %q names statistics row %q, which no request has",
					fixName(t.Endpoint, slices.Sorted(maps.Keys(c.eps)), "name a request's row: its name, or METHOD and URL template"), expr, t.Endpoint)
			}
		}
		plan.Thresholds = append(plan.Thresholds, t)
	}
	for i, spec := range spec.Outputs {
		o, err := output.Parse(spec)
		if err != nil {
			c.fail(fmt.Sprintf("outputs[%d]", i), "%v", "", err)
			continue
		}
		plan.Outputs = append(plan.Outputs, o)
	}
	if len(c.errs) > 0 {
		return nil, nil, c.errs.Sort()
	}
	c.p.build(plan, spec)
	if err := plan.Validate(); err != nil {
		path := "scenarios"
		if pe, ok := errors.AsType[*surge.PlanError](err); ok && pe.Field == "warmup" {
			path = "warmup"
		}
		return nil, nil, Errors{{Path: path, Msg: err.Error()}}
	}
	return c.p, plan, nil
}

// fail records a problem at path. fix says how to fix it and may be empty.
func (c *compiler) fail(path, format, fix string, args ...any) {
	c.errs = append(c.errs, &Error{Path: path, Msg: fmt.Sprintf(format, args...), Fix: fix})
}

// failKey records a problem with the name of the field at path.
func (c *compiler) failKey(path, format, fix string, args ...any) {
	c.fail(path, format, fix, args...)
	c.errs[len(c.errs)-1].Key = true
}

// report records err, an error of a template or an expression at path.
func (c *compiler) report(path string, err error) {
	var ee *expr.Error
	if errors.As(err, &ee) {
		c.errs = append(c.errs, &Error{Path: path, Offset: ee.Offset, Msg: ee.Msg, Fix: ee.Fix})
		return
	}
	c.errs = append(c.errs, &Error{Path: path, Msg: err.Error()})
}

// fixName suggests a name close to name, or says fix.
func fixName(name string, candidates []string, fix string) string {
	if s := suggest.DidYouMean(name, candidates); s != "" {
		return s
	}
	return fix
}

func (c *compiler) checkTarget(spec *Spec) {
	c.target = spec.Target
	if c.opts.Target != "" {
		c.target = c.opts.Target
	}
	if c.target == "" {
		return
	}
	u, err := url.Parse(c.target)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		c.fail("target", "target %q is not an absolute http:// or https:// URL", "write it as http://host:port", c.target)
		return
	}
	if err := httpc.CheckURL(c.target); err != nil {
		c.fail("target", "target %s", "write it as http://host:port", urlProblem(err))
		return
	}
	c.target = strings.TrimSuffix(c.target, "/")
}

// urlProblem returns what is wrong with a URL that httpc.CheckURL
// refused, without its "request URL" prefix.
func urlProblem(err error) string {
	if ue, ok := errors.AsType[*httpc.URLError](err); ok {
		return ue.Msg
	}
	return err.Error()
}

var identRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// declareName checks that name can be a variable, pool or data source and
// is not taken.
func (c *compiler) declareName(path, name, kind string) bool {
	switch {
	case !identRE.MatchString(name):
		c.failKey(path, "%q is not a name expressions can use", "use letters, digits and _, starting with a letter", name)
		return false
	case slices.Contains(expr.ReservedNames(), name):
		c.failKey(path, "%s is a reserved name", "pick another name", name)
		return false
	}
	if prev, ok := c.names[name]; ok && (prev != kind || kind != "variable") {
		c.failKey(path, "%s is already declared as a %s", "give it another name", name, prev)
		return false
	}
	c.names[name] = kind
	return true
}

// declare checks and compiles the vars, pools and data sources.
func (c *compiler) declare(spec *Spec) {
	empty := &expr.Scope{Types: types.Map{}}
	ev := expr.Evaluator{Env: map[string]any{expr.RandVar: expr.NewRand(c.p.seed, -2, 0)}}
	for _, name := range slices.Sorted(maps.Keys(spec.Vars)) {
		path := "vars." + name
		if !c.declareName(path, name, "variable") {
			continue
		}
		v := spec.Vars[name]
		if s, ok := v.(string); ok {
			t, err := c.f.CompileTemplate(s, empty)
			if err != nil {
				c.report(path, err)
				continue
			}
			if t.Whole != nil {
				v, err = ev.Eval(t.Whole)
			} else {
				var buf []byte
				v, err = t.String(&ev, &buf)
			}
			if err != nil {
				c.fail(path, "%v", "", err)
				continue
			}
		}
		c.p.vars[name] = v
	}
	for _, name := range slices.Sorted(maps.Keys(spec.Pools)) {
		if c.declareName("pools."+name, name, "pool") {
			c.p.pools[name] = newPool(name, spec.Pools[name])
			c.p.initial[name] = slices.Clone(spec.Pools[name])
		}
	}
	for _, name := range slices.Sorted(maps.Keys(spec.Data)) {
		path := "data." + name
		if !c.declareName(path, name, "data source") {
			continue
		}
		s, err := compileData(name, spec.Data[name], c.opts.readFile)
		if err != nil {
			c.fail(path, "%v", "", err)
			continue
		}
		c.p.sources[name] = s
	}
}

// The expression types of pools and data sources.
var (
	poolType   = types.TypeOf((*Pool)(nil))
	sourceType = types.TypeOf((*source)(nil))
)

// baseScope declares what every expression of a user may use: variables,
// pools, data sources, the user's id and iteration.
func (c *compiler) baseScope() *expr.Scope {
	t := types.Map{expr.NameUser: types.Int, expr.NameIter: types.Int}
	for name := range c.p.vars {
		t[name] = types.Any
	}
	for name := range c.p.pools {
		t[name] = poolType
	}
	for name := range c.p.sources {
		t[name] = sourceType
	}
	return &expr.Scope{Types: t}
}

// A stepList is a list of steps and its path.
type stepList struct {
	steps []Step
	path  string
}

// withVars returns sc with the variables that the steps of lists set
// declared.
func (c *compiler) withVars(sc *expr.Scope, lists ...stepList) (*expr.Scope, []string) {
	var vars []string
	var walk func(ss []Step, path string)
	walk = func(ss []Step, path string) {
		for i, s := range ss {
			p := fmt.Sprintf("%s[%d]", path, i)
			for _, m := range []struct {
				key  string
				vars map[string]string
			}{{"capture", s.Capture}, {"set", s.Set}} {
				for _, name := range slices.Sorted(maps.Keys(m.vars)) {
					if c.declareName(p+"."+m.key+"."+name, name, "variable") && !slices.Contains(vars, name) {
						vars = append(vars, name)
					}
				}
			}
			vars = c.streamVars(s, p, vars)
			walk(s.Steps, p+".steps")
		}
	}
	for _, l := range lists {
		walk(l.steps, l.path)
	}
	t := maps.Clone(sc.Types)
	for _, v := range vars {
		t[v] = types.Any
	}
	return &expr.Scope{Types: t}, vars
}

// compileSetup compiles the setup steps; their captures become variables
// of every user.
func (c *compiler) compileSetup(spec *Spec, base *expr.Scope) {
	sc, vars := c.withVars(base, stepList{spec.Setup, "setup"})
	for _, v := range vars {
		base.Types[v] = types.Any
	}
	c.p.captured = vars
	c.uses = map[string]bool{}
	c.p.setup = c.steps(spec.Setup, "setup", sc)
}

// selected returns the names of the scenarios to run.
func (c *compiler) selected(spec *Spec) map[string]bool {
	all := map[string]bool{}
	var names []string
	for _, sc := range spec.Scenarios {
		all[sc.Name] = len(c.opts.Scenarios) == 0
		names = append(names, sc.Name)
	}
	for _, n := range c.opts.Scenarios {
		if _, ok := all[n]; !ok {
			c.fail("scenarios", "there is no scenario %s", fixName(n, names, "the scenarios are "+strings.Join(names, ", ")), n)
			continue
		}
		all[n] = true
	}
	return all
}

// timeScale returns the factor that makes the selected scenarios last
// Options.Duration.
func (c *compiler) timeScale(spec *Spec, selected map[string]bool) float64 {
	if c.opts.Duration <= 0 {
		return 1
	}
	var total time.Duration
	for _, sc := range spec.Scenarios {
		if selected[sc.Name] && sc.Load != nil {
			total = max(total, sc.StartAfter+sc.Load.Duration())
		}
	}
	if total <= 0 {
		return 1
	}
	return float64(c.opts.Duration) / float64(total)
}

// compileScenario compiles one scenario; it returns nil if it has errors.
func (c *compiler) compileScenario(sc Scenario, path string, base *expr.Scope, scale float64) *compiled {
	n := len(c.errs)
	cs := &compiled{name: sc.Name, startAfter: time.Duration(float64(sc.StartAfter) * scale), uniques: map[string]int{}}
	if sc.StartAfter < 0 {
		c.fail(path+".start_after", "start offset %v is negative", "give a duration of 0s or more", sc.StartAfter)
	}
	cs.load = c.compileLoad(sc, path, scale)
	scope, vars := c.withVars(base, stepList{sc.OnStart, path + ".on_start"}, stepList{sc.Flow, path + ".flow"},
		stepList{taskSteps(sc.Tasks), path + ".tasks"})
	cs.vars = vars
	c.uses, c.scEps = map[string]bool{}, nil
	cs.onStart = c.steps(sc.OnStart, path+".on_start", scope)
	switch {
	case len(sc.Tasks) > 0 && len(sc.Flow) > 0:
		c.fail(path, "the scenario has both tasks and a flow", "keep tasks (one picked per iteration) or flow (all in order), not both")
	case len(sc.Tasks) == 0 && len(sc.Flow) == 0:
		c.fail(path, "the scenario has no tasks and no flow", "add tasks (one picked per iteration, by weight) or a flow (steps in order)")
	case len(sc.Tasks) > 0:
		total := 0
		for i, t := range sc.Tasks {
			p := fmt.Sprintf("%s.tasks[%d]", path, i)
			if t.Weight < 1 {
				c.fail(p+".weight", "weight %d is not positive", "give a weight of 1 or more; leave a task out to never run it", t.Weight)
			}
			total += max(t.Weight, 0)
			cs.tasks = append(cs.tasks, c.step(t.Step, p, scope))
			cs.cumWeights = append(cs.cumWeights, total)
		}
	default:
		cs.flow = c.steps(sc.Flow, path+".flow", scope)
	}
	cs.uses, cs.endpoints = c.uses, c.scEps
	if len(c.errs) > n {
		return nil
	}
	return cs
}

func taskSteps(tasks []Task) []Step {
	out := make([]Step, len(tasks))
	for i, t := range tasks {
		out[i] = t.Step
	}
	return out
}

// compileLoad applies the think time and the overrides to the scenario's
// load model and validates it.
func (c *compiler) compileLoad(sc Scenario, path string, scale float64) executor.Load {
	load := sc.Load
	if load == nil {
		c.fail(path+".load", "the scenario has no load", "give it one, such as load: {users: 10, duration: 1m}")
		return nil
	}
	var err error
	if t := c.opts.Think; t != nil {
		if _, loops := load.(executor.Looping); loops {
			sc.Think = *t
		}
	}
	if !sc.Think.IsZero() {
		if sc.Think.Min < 0 || sc.Think.Max < 0 || (sc.Think.Max > 0 && sc.Think.Max < sc.Think.Min) {
			c.fail(path+".think", "think time %v..%v is not a range of durations from low to high", "write it as 1s or 1s..3s", sc.Think.Min, sc.Think.Max)
		} else if load, err = withThink(load, sc.Think); err != nil {
			c.fail(path+".think", "%v", "remove think; use sleep steps for pauses inside an iteration", err)
			return nil
		}
	}
	if c.opts.Users > 0 {
		if load, err = withUsers(load, c.opts.Users); err != nil {
			c.fail(path+".load", "%v", "give this scenario's load as users:, search it by rate, or choose the scenarios the level applies to with --scenario", err)
			return nil
		}
	}
	if c.opts.Rate > 0 {
		if load, err = withRate(load, c.opts.Rate); err != nil {
			c.fail(path+".load", "%v", "give this scenario's load as rate:, search it by users, or choose the scenarios the level applies to with --scenario", err)
			return nil
		}
	}
	if scale != 1 {
		if load, err = scaleTime(load, scale); err != nil {
			c.fail(path+".load", "%v", "", err)
			return nil
		}
	}
	if err := load.Validate(); err != nil {
		c.fail(path+".load", "%s", "", executor.Message(err))
		return nil
	}
	return load
}

// checkUniques gives each scenario that uses a unique data source the
// offset of its users' items, and checks that there are enough items.
func (c *compiler) checkUniques() {
	for _, name := range slices.Sorted(maps.Keys(c.p.sources)) {
		s := c.p.sources[name]
		if s.order != Unique {
			continue
		}
		offset := 0
		for _, cs := range c.p.scenarios {
			if !cs.uses[name] {
				continue
			}
			cs.uniques[name] = offset
			offset += cs.load.PeakUsers()
		}
		if offset > s.n {
			c.fail("data."+name+".order", "order unique gives every virtual user an item of its own, but the scenarios run up to %d users and %s has %d items",
				"add items, run fewer users, or use order: sequential", offset, name, s.n)
		}
	}
}
