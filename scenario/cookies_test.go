package scenario_test

import (
	"bytes"
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/surge-load/surge"
	"github.com/surge-load/surge/demo"
	"github.com/surge-load/surge/scenario"
	"github.com/surge-load/surge/scenario/yamlfile"
)

// TestLoginJourney runs examples/login-session.yaml against the demo: every
// request after the login needs the session cookie the login set, so every
// one succeeding, counted by the demo as well, shows each user kept its own
// session. With cookies: false, the same journey fails at its first
// request that needs the session, with 401s the demo counted.
func TestLoginJourney(t *testing.T) {
	for _, cookies := range []bool{true, false} {
		svc := demo.New(demo.Config{})
		srv := httptest.NewServer(svc)
		src, err := os.ReadFile(filepath.Join("..", "examples", "login-session.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		src = bytes.Replace(src, []byte("load: {users: 10, duration: 30s}"), []byte("load: {iterations: 40, users: 4, duration: 20s}"), 1)
		if !cookies {
			src = append(src, []byte("\ndefaults: {cookies: false}\n")...)
		}
		const iterations = 40
		plan, err := yamlfile.Compile("login-session.yaml", src, scenario.Options{Target: srv.URL, Think: &scenario.Pause{}})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		res, err := surge.Run(ctx, plan, surge.Options{})
		cancel()
		srv.Close()
		svc.Close()
		if err != nil {
			t.Fatal(err)
		}
		login, who := endpoint(res, "login"), endpoint(res, "who am I")
		if got := svc.Requests("POST /api/v1/login", 200); got != iterations || int(login.Requests) != iterations {
			t.Fatalf("cookies %v: logins: demo saw %d, surge counted %d, want %d", cookies, got, int(login.Requests), iterations)
		}
		if !cookies {
			if who.Failures != iterations || svc.Requests("GET /api/v1/session", 401) != iterations {
				t.Fatalf("cookies off: who am I: %d failures, demo answered %d 401s; want %d each", who.Failures, svc.Requests("GET /api/v1/session", 401), iterations)
			}
			if n := endpoint(res, "add note").Requests; n != 0 {
				t.Fatalf("cookies off: add note ran %d times after a failed step", n)
			}
			continue
		}
		for _, row := range []struct {
			name, endpoint string
			code           int
		}{
			{"who am I", "GET /api/v1/session", 200},
			{"add note", "POST /api/v1/notes", 201},
			{"read note", "GET /api/v1/notes/{id}", 200},
			{"logout", "POST /api/v1/logout", 204},
		} {
			e := endpoint(res, row.name)
			seen := svc.Requests(row.endpoint, row.code)
			if e.Requests != iterations || e.Failures != 0 || seen != iterations {
				t.Errorf("%s: surge counted %d (%d failed), the demo answered %d with %d; want %d, all passing",
					row.name, e.Requests, e.Failures, seen, row.code, iterations)
			}
		}
	}
}
