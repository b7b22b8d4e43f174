package scenario

import (
	"context"
	"fmt"
	"github.com/surge-load/surge/protocol/grpcc"
	"math/rand/v2"
	"time"

	"github.com/surge-load/surge/errclass"
	"github.com/surge-load/surge/executor"
	"github.com/surge-load/surge/internal/expr"
	"github.com/surge-load/surge/metrics"
	"github.com/surge-load/surge/protocol/httpc"
)

// A vuser is a virtual user running a compiled scenario: its variables, its
// own HTTP client, and the shard its samples go to.
type vuser struct {
	expr.Evaluator
	p      *program
	sc     *compiled // nil for the setup
	id     int
	ids    []metrics.EndpointID // by request.ep
	script metrics.EndpointID
	shard  *metrics.Shard
	tr     httpc.Transport
	jar    *cookieJar    // nil without cookies
	grpc   *grpcc.Client // made at the first gRPC call
	rng    *rand.Rand    // every random draw of the user's

	req httpc.Request // reused for every request
	// smp is the sample of the request in flight, reused: one of its
	// own would escape through the transport, an allocation per request.
	smp      metrics.Sample
	urlBuf   []byte
	scratch  []byte
	intended time.Time // for the iteration's first request
	started  bool      // OnStart has run
	streams  userStreams
	// failure says why the last step that failed did, for the setup.
	failure error
}

// testHookTask, if not nil, is called with every task a user picks.
var testHookTask func(scenario string, task int)

// Close closes the user's idle connections when it stops (executor.Closer).
func (u *vuser) Close() {
	u.tr.Close()
	if u.grpc != nil {
		u.grpc.Close()
	}
}

// Iterate runs one iteration: the user's start steps if they have not run
// yet, then one task picked by weight, or the flow.
func (u *vuser) Iterate(ctx context.Context, it executor.Iteration) {
	u.Env[expr.NameIter] = int(it.N)
	u.intended = it.LatencyFrom()
	if !u.started {
		if !u.steps(ctx, u.sc.onStart) {
			return
		}
		u.started = true
	}
	if len(u.sc.tasks) > 0 {
		i := u.sc.pick(u.rng)
		if testHookTask != nil {
			testHookTask(u.sc.name, i)
		}
		u.step(ctx, u.sc.tasks[i])
		return
	}
	u.steps(ctx, u.sc.flow)
}

// steps runs ss in order; it reports false if one failed without
// on_failure: continue. A failure ends the iteration's requests, not its
// pacing: the sleeps after the failed step still run, so a failing user
// keeps the pace of a succeeding one instead of retrying at once.
func (u *vuser) steps(ctx context.Context, ss []*step) bool {
	ok := true
	for _, s := range ss {
		switch {
		case ok:
			ok = u.step(ctx, s) || s.goOn && ctx.Err() == nil
		default:
			u.pace(ctx, s)
		}
	}
	return ok
}

// pace runs only the sleeps of s, after a failure earlier in the
// iteration: a sleep step, or the sleeps of a group, pass by pass (one pass
// for a group repeated while a condition holds).
func (u *vuser) pace(ctx context.Context, s *step) {
	if ctx.Err() != nil {
		return
	}
	if s.when != nil {
		if ok, err := u.cond(s.when); err != nil || !ok {
			return
		}
	}
	switch s.kind {
	case kindSleep:
		u.intended = time.Time{}
		executor.Pause(ctx, s.sleep.Draw(u.rng))
	case kindGroup:
		for range max(s.repeat, 1) {
			for _, in := range s.steps {
				u.pace(ctx, in)
			}
		}
	}
}

// step runs s; it reports whether the iteration may go on.
func (u *vuser) step(ctx context.Context, s *step) bool {
	if ctx.Err() != nil {
		return false
	}
	if s.when != nil {
		ok, err := u.cond(s.when)
		if err != nil {
			return u.scriptError(s.path+".when", err)
		}
		if !ok {
			return true
		}
	}
	switch s.kind {
	case kindRequest:
		return u.request(ctx, s)
	case kindSleep:
		u.intended = time.Time{} // the next request counts from its own start
		_, ok := executor.Pause(ctx, s.sleep.Draw(u.rng))
		return ok
	case kindGroup:
		return u.group(ctx, s)
	case kindSSE:
		return u.sse(ctx, s)
	case kindGRPC:
		return u.grpcCall(ctx, s)
	case kindWS:
		return u.ws(ctx, s)
	}
	if err := u.effects(s); err != nil {
		return u.scriptError(s.path, err)
	}
	return true
}

// group runs the steps of s, repeated as it says.
func (u *vuser) group(ctx context.Context, s *step) bool {
	passes := s.repeat
	if passes == 0 && s.while == nil {
		passes = 1
	}
	for i := 0; passes == 0 || i < passes; i++ {
		if ctx.Err() != nil {
			return false
		}
		if s.while != nil {
			ok, err := u.cond(s.while)
			if err != nil {
				return u.scriptError(s.path+".while", err)
			}
			if !ok {
				return true
			}
		}
		if !u.steps(ctx, s.steps) {
			return false
		}
	}
	return true
}

// cond evaluates a condition.
func (u *vuser) cond(x *expr.Expression) (bool, error) {
	v, err := u.Eval(x)
	if err != nil {
		return false, err
	}
	ok, err := expr.IsTrue(v)
	if err != nil {
		return false, fmt.Errorf("%s: %w", x.Src, err)
	}
	return ok, nil
}

// effects applies the captures or sets of s, then its appends and removes.
func (u *vuser) effects(s *step) error {
	for _, as := range [][]assign{s.capture, s.set} {
		for _, a := range as {
			v, err := u.Eval(a.x)
			if err != nil {
				return fmt.Errorf("%s: %w", a.name, err)
			}
			u.Env[a.name] = v
		}
	}
	for _, a := range s.append {
		v, err := u.Eval(a.x)
		if err != nil {
			return fmt.Errorf("append to %s: %w", a.name, err)
		}
		if v != nil { // pools hold values, never nil
			a.pool.Add(v)
		}
	}
	for _, a := range s.remove {
		v, err := u.Eval(a.x)
		if err != nil {
			return fmt.Errorf("remove from %s: %w", a.name, err)
		}
		a.pool.Remove(v)
	}
	return nil
}

// scriptError records a failure outside a request, in the row
// scriptErrors, and ends the iteration. Nothing was sent: it is not a
// request (errclass.NotSent).
func (u *vuser) scriptError(path string, err error) bool {
	now := time.Now()
	u.failure = fmt.Errorf("%s: %w", path, err)
	s := metrics.Sample{Endpoint: u.script, Start: now, End: now, Class: errclass.NotSent, Err: u.failure}
	u.shard.Record(&s)
	return false
}
