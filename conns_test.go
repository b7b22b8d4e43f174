package surge_test

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/surge-load/surge/executor"
	"github.com/surge-load/surge/internal/leaktest"
)

// Virtual users close their connections when they stop: runs of 40 users
// one after the other in one process, in every model, leave no
// connections behind, however many runs there are.
func TestUsersCloseTheirConnections(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	t.Cleanup(srv.Close)
	const users = 40
	hold := []executor.Stage{{Duration: 500 * time.Millisecond, Target: users}}
	loads := map[string]executor.Load{
		"closed":     executor.Closed{Start: users, Stages: hold, Grace: 5 * time.Second},
		"open":       executor.Open{StartRate: 400, Stages: []executor.Stage{{Duration: 500 * time.Millisecond, Target: 400}}, MaxUsers: users, Grace: 5 * time.Second},
		"iterations": executor.Iterations{Total: 400, Users: users, MaxDuration: 10 * time.Second, Grace: 5 * time.Second},
	}
	for name, load := range loads {
		base := leaktest.OpenFDs(t)
		for run := 1; run <= 3; run++ {
			res := runPlan(t, srv.URL, load)
			if res.Totals.Requests == 0 {
				t.Fatalf("%s run %d sent nothing", name, run)
			}
			// A few descriptors may come and go (the runtime, the server's
			// accept loop); a leak is one or more per user per run.
			if n := leaktest.SettledFDs(t, base+users/4); n > base+users/4 {
				t.Errorf("%s: after run %d, %d open file descriptors, %d before the first: the users' connections were left open", name, run, n, base)
			}
		}
	}
}
