package scenario

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"sort"

	"github.com/surge-load/surge"
	"github.com/surge-load/surge/executor"
	"github.com/surge-load/surge/internal/expr"
	"github.com/surge-load/surge/metrics"
	"github.com/surge-load/surge/protocol/httpc"
)

// scriptErrors names the statistics row of failures outside requests: an
// expression that fails in when, set, while, append or remove.
const scriptErrors = "script errors"

// build fills plan with the program's scenarios and setup.
func (p *program) build(plan *surge.Plan, spec *Spec) {
	plan.Setup = p.begin
	plan.Adopt = p.adopt
	plan.Spec = describe(spec, plan.Target, p)
	for _, cs := range p.scenarios {
		var names []string
		for _, i := range cs.endpoints {
			names = append(names, p.endpoints[i])
		}
		describeLoad := cs.load.String()
		if s, ok := cs.load.(fmt.Stringer); ok {
			describeLoad = s.String()
		}
		plan.Scenarios = append(plan.Scenarios, surge.Scenario{
			Name:        cs.name,
			Load:        cs.load,
			StartAfter:  cs.startAfter,
			Users:       p.users(cs),
			Conns:       cs.load.PeakUsers(),
			SourceAddrs: len(p.http.LocalAddrs),
			Describe:    describeLoad,
			Endpoints:   names,
		})
	}
}

// endpointIDs registers the program's statistics rows with rec.
func (p *program) endpointIDs(rec *metrics.Recorder) (ids []metrics.EndpointID, script metrics.EndpointID) {
	ids = make([]metrics.EndpointID, len(p.endpoints))
	for i, name := range p.endpoints {
		ids[i] = rec.Endpoint(name)
	}
	return ids, rec.Endpoint(scriptErrors)
}

// users returns the factory of the virtual users of cs.
func (p *program) users(cs *compiled) func(rec *metrics.Recorder) executor.NewUser {
	return func(rec *metrics.Recorder) executor.NewUser {
		ids, script := p.endpointIDs(rec)
		return func(id int) executor.User {
			u := p.newUser(cs.index, id, rec.Shard(id), ids, script)
			u.sc = cs
			for _, v := range cs.vars {
				if _, ok := u.Env[v]; !ok {
					u.Env[v] = nil
				}
			}
			for name, offset := range cs.uniques {
				u.Env[name] = p.sources[name].forUser(offset, id)
			}
			return u
		}
	}
}

// newUser makes virtual user id of scenario sc (-1 for the setup) with the
// variables every user starts with.
func (p *program) newUser(sc, id int, shard *metrics.Shard, ids []metrics.EndpointID, script metrics.EndpointID) *vuser {
	env := make(map[string]any, len(p.vars)+len(p.globals)+len(p.pools)+len(p.sources)+8)
	for k, v := range p.vars {
		env[k] = v
	}
	for k, v := range p.globals {
		env[k] = v
	}
	for k, v := range p.pools {
		env[k] = v
	}
	for k, v := range p.sources {
		env[k] = v
	}
	env[expr.NameUser] = id
	env[expr.NameIter] = 0
	rng := expr.NewRand(p.seed, sc, id)
	env[expr.RandVar] = rng
	var jar *cookieJar
	if p.cookies {
		jar = newCookieJar()
	}
	return &vuser{
		jar:       jar,
		rng:       rng,
		Evaluator: expr.Evaluator{Env: env},
		p:         p,
		id:        id,
		ids:       ids,
		script:    script,
		shard:     shard,
		tr:        httpc.New(p.http),
	}
}

// begin prepares a run: it empties the pools to their first values and
// runs the setup steps, whose captures become every user's variables. It
// returns the captures, encoded as JSON, for adopt.
func (p *program) begin(ctx context.Context, rec *metrics.Recorder) (json.RawMessage, error) {
	p.reset()
	if len(p.setup) == 0 {
		return p.setupState()
	}
	ids, script := p.endpointIDs(rec)
	u := p.newUser(-1, -1, rec.Shard(0), ids, script)
	defer u.Close()
	for _, v := range p.captured {
		u.Env[v] = nil
	}
	if !u.steps(ctx, p.setup) {
		if u.failure == nil {
			return nil, context.Cause(ctx)
		}
		return nil, u.failure
	}
	for _, v := range p.captured {
		p.globals[v] = u.Env[v]
	}
	return p.setupState()
}

// adopt prepares a run like begin, with the state a setup left in another
// process (another segment of a split run) instead of running the setup
// steps here: its captures and the pools as it left them.
func (p *program) adopt(captured json.RawMessage) error {
	p.reset()
	if len(p.setup) == 0 {
		return nil
	}
	v, err := expr.DecodeJSON(captured)
	if err != nil {
		return fmt.Errorf("decode the setup's state: %w", err)
	}
	m, _ := v.(map[string]any)
	vars, _ := m["vars"].(map[string]any)
	pools, _ := m["pools"].(map[string]any)
	if vars == nil || pools == nil {
		return fmt.Errorf("the setup's state is not an object of vars and pools")
	}
	for _, name := range p.captured {
		val, ok := vars[name]
		if !ok {
			return fmt.Errorf("the setup's state lacks the capture %s", name)
		}
		p.globals[name] = val
	}
	for name, pool := range p.pools {
		items, ok := pools[name].([]any)
		if !ok {
			return fmt.Errorf("the setup's state lacks the pool %s", name)
		}
		pool.mu.Lock()
		pool.items = items
		pool.mu.Unlock()
	}
	return nil
}

// reset empties the pools to their first values, rewinds the data sources
// and forgets the setup's captures.
func (p *program) reset() {
	for name, pool := range p.pools {
		pool.mu.Lock()
		pool.items = append(pool.items[:0:0], p.initial[name]...)
		pool.mu.Unlock()
	}
	for _, s := range p.sources {
		s.next.Store(0)
	}
	p.globals = map[string]any{}
}

// setupState encodes what the setup left for the users, as one JSON
// object: {"vars": its captures, "pools": every pool's values}.
func (p *program) setupState() (json.RawMessage, error) {
	b := append([]byte(nil), `{"vars":{`...)
	var err error
	for i, name := range p.captured {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(expr.AppendJSONString(b, name), ':')
		if b, err = expr.AppendJSON(b, p.globals[name]); err != nil {
			return nil, fmt.Errorf("encode the setup's capture %s: %w", name, err)
		}
	}
	b = append(b, `},"pools":{`...)
	for i, name := range slices.Sorted(maps.Keys(p.pools)) {
		if i > 0 {
			b = append(b, ',')
		}
		pool := p.pools[name]
		pool.mu.RLock()
		items := slices.Clone(pool.items)
		pool.mu.RUnlock()
		b = append(expr.AppendJSONString(b, name), ':', '[')
		for j, v := range items {
			if j > 0 {
				b = append(b, ',')
			}
			if b, err = expr.AppendJSON(b, v); err != nil {
				return nil, fmt.Errorf("encode pool %s: %w", name, err)
			}
		}
		b = append(b, ']')
	}
	return append(b, '}', '}'), nil
}

// pick returns the task of cs to run, by weight.
func (cs *compiled) pick(r *rand.Rand) int {
	total := cs.cumWeights[len(cs.cumWeights)-1]
	return sort.SearchInts(cs.cumWeights, r.IntN(total)+1)
}
