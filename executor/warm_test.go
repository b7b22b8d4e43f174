package executor

import (
	"context"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/surge-load/surge/metrics"
)

// warmUser records when it was warmed and serves its iterations.
type warmUser struct {
	id     int
	mu     *sync.Mutex
	warmed map[int]time.Time
	first  *[]int // users of the iterations, in the order they began
}

func (u *warmUser) Warm(context.Context) {
	u.mu.Lock()
	u.warmed[u.id] = time.Now()
	u.mu.Unlock()
}

func (u *warmUser) Iterate(_ context.Context, it Iteration) {
	u.mu.Lock()
	*u.first = append(*u.first, u.id)
	u.mu.Unlock()
}

// TestOpenStartIsNotAConnectionStorm: before the clock starts, the users
// that the first arrivals go to (the top of the idle stack) get ready
// (Warmer: open their connections), and only they; the first arrivals are
// served by them, so the first second opens no storm of connections.
func TestOpenStartIsNotAConnectionStorm(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var (
			mu     sync.Mutex
			warmed = map[int]time.Time{}
			order  []int
		)
		o := Open{StartRate: 2000, Stages: []Stage{{Duration: 300 * time.Millisecond, Target: 2000}}, MaxUsers: 500}
		e := Env{NewUser: func(id int) User { return &warmUser{id: id, mu: &mu, warmed: warmed, first: &order} }, Rec: metrics.NewRecorder(0)}
		out, err := o.Run(e)
		if err != nil {
			t.Fatal(err)
		}
		want := o.warmUsers(Segment{})
		if want < 2 || want >= o.MaxUsers {
			t.Fatalf("%d users warmed of %d", want, o.MaxUsers)
		}
		if len(warmed) != want {
			t.Errorf("%d users warmed, want %d", len(warmed), want)
		}
		for id, at := range warmed {
			if at.After(out.Started) {
				t.Errorf("user %d warmed %v after the start", id, at.Sub(out.Started))
			}
		}
		if len(order) == 0 {
			t.Fatal("no iterations")
		}
		// At the first arrival every user is idle: it goes to the top of the
		// stack, a warm user.
		if _, ok := warmed[order[0]]; !ok {
			t.Errorf("the first arrival went to user %d, which was not warmed", order[0])
		}
	})
}

// TestOpenBusyCollector: a collector with many endpoints to merge does not
// hold up the dispatcher: every arrival is handed out, none dropped, and
// every sample recorded, across a fold. (That recording never waits for a
// fold is TestRecordingNeverWaitsForTheCollector in metrics.)
func TestOpenBusyCollector(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rec := metrics.NewRecorder(0)
		const endpoints = 100
		ids := make([]metrics.EndpointID, endpoints)
		for i := range ids {
			ids[i] = rec.Endpoint("GET /" + string(rune('a'+i%26)) + time.Duration(i).String())
		}
		o := Open{StartRate: 2000, Stages: []Stage{{Duration: 1500 * time.Millisecond, Target: 2000}}, MaxUsers: 1000}
		s, _ := NewSchedule(o.StartRate, o.Stages)
		e := Env{Rec: rec, NewUser: func(id int) User {
			sh := rec.Shard(id)
			n := id
			return userFunc(func(_ context.Context, it Iteration) {
				now := time.Now()
				for range 5 { // fill many endpoints' intervals
					n = (n + 97) % endpoints
					sh.Record(&metrics.Sample{Endpoint: ids[n], Intended: it.Intended, Start: now, End: now})
				}
			})
		}}
		rec.Begin(time.Now(), nil)
		out, err := o.Run(e)
		rec.Finish(time.Now())
		if err != nil {
			t.Fatal(err)
		}
		if out.Dropped != 0 || out.Iterations != s.Len() {
			t.Errorf("%d arrivals: %d handed out, %d dropped", s.Len(), out.Iterations, out.Dropped)
		}
		if res := rec.Result(o.Duration()); res.Totals.Requests != 5*s.Len() {
			t.Errorf("%d samples recorded, want %d", res.Totals.Requests, 5*s.Len())
		}
	})
}

// TestOpenStallNeedsNoNewConnections: a dispatcher that falls behind by
// less than warmWindow (here it starts 15 ms late) hands the arrivals
// already due to warm users only, so catching up opens no connection
// (a user's first, which costs about three requests' CPU, would make the
// stall longer).
func TestOpenStallNeedsNoNewConnections(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var (
			mu     sync.Mutex
			warmed = map[int]time.Time{}
			order  []int
		)
		o := Open{StartRate: 10000, Stages: []Stage{{Duration: 100 * time.Millisecond, Target: 10000}}, MaxUsers: 1000}
		e := Env{NewUser: func(id int) User { return &warmUser{id: id, mu: &mu, warmed: warmed, first: &order} }, Rec: metrics.NewRecorder(0)}
		e.Start = time.Now().Add(-15 * time.Millisecond)
		out, err := o.Run(e)
		if err != nil {
			t.Fatal(err)
		}
		if out.Dropped != 0 || out.Iterations != 1000 {
			t.Fatalf("%d iterations, %d dropped; want 1000, 0", out.Iterations, out.Dropped)
		}
		if len(warmed) != o.warmUsers(Segment{}) || len(warmed) <= 150 {
			t.Fatalf("%d users warmed, want %d, more than the 150 arrivals due at the start", len(warmed), o.warmUsers(Segment{}))
		}
		for i, id := range order {
			if _, ok := warmed[id]; !ok {
				t.Fatalf("arrival %d went to user %d, which was not warmed", i, id)
			}
		}
	})
}

// TestOpenReadyBeforeBegin: with Env.Ready, the open model makes its
// whole pool and warms its users before it says it is ready, and counts
// its schedule from the start it is given afterwards on Env.Begin, so the
// time the making took is not the first arrivals' lateness.
func TestOpenReadyBeforeBegin(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var (
			mu      sync.Mutex
			warmed  = map[int]time.Time{}
			order   []int
			made    int
			journal []time.Time
		)
		o := Open{StartRate: 1000, Stages: []Stage{{Duration: 100 * time.Millisecond, Target: 1000}}, MaxUsers: 50}
		ready, begin := make(chan struct{}, 1), make(chan time.Time, 1)
		e := Env{Rec: metrics.NewRecorder(0), Ready: ready, Begin: begin, NewUser: func(id int) User {
			mu.Lock()
			made++
			mu.Unlock()
			return &warmUser{id: id, mu: &mu, warmed: warmed, first: &order}
		}}
		e.NewUser = func(newUser NewUser) NewUser {
			return func(id int) User {
				u := newUser(id).(*warmUser)
				return recordingWarmUser{u, &journal}
			}
		}(e.NewUser)
		type result struct {
			out Outcome
			err error
		}
		done := make(chan result, 1)
		go func() {
			out, err := o.Run(e)
			done <- result{out, err}
		}()
		<-ready
		mu.Lock()
		if made != o.MaxUsers || len(warmed) != o.warmUsers(Segment{}) || len(order) != 0 {
			t.Errorf("ready with %d of %d users made, %d warmed (want %d), %d iterations begun", made, o.MaxUsers, len(warmed), o.warmUsers(Segment{}), len(order))
		}
		mu.Unlock()
		time.Sleep(50 * time.Millisecond) // the caller takes its time
		start := time.Now()
		begin <- start
		r := <-done
		if r.err != nil {
			t.Fatal(r.err)
		}
		if !r.out.Started.Equal(start) || r.out.Iterations != 100 || r.out.Dropped != 0 {
			t.Errorf("outcome %+v, want started at the start given, 100 iterations, none dropped", r.out)
		}
		for i, at := range journal {
			if at.Before(start) {
				t.Fatalf("iteration %d intended %v before the start", i, start.Sub(at))
			}
		}
	})
}

// recordingWarmUser is a warmUser that also notes each iteration's
// intended time.
type recordingWarmUser struct {
	*warmUser
	intended *[]time.Time
}

func (u recordingWarmUser) Iterate(ctx context.Context, it Iteration) {
	u.mu.Lock()
	*u.intended = append(*u.intended, it.Intended)
	u.mu.Unlock()
	u.warmUser.Iterate(ctx, it)
}
