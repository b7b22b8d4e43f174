package collect_test

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/surge-load/surge/collect"
)

// FuzzCollectorRequests sends whatever body to every path of a collector
// that has not begun: it answers, never panics, and refuses what it cannot
// use with a 4xx.
func FuzzCollectorRequests(f *testing.F) {
	paths := []string{"/v1/join", "/v1/start", "/v1/ticks", "/v1/sofar", "/v1/part", "/v1/fail", "/v1/live", "/v1/result"}
	for _, seed := range []string{
		`{"index":0,"count":2,"plan":"p","host":"h","planned_s":4}`,
		`{"index":1,"setup":{"vars":{},"pools":{}}}`,
		`{"index":0,"ticks":[{"Point":{"t":0,"duration_s":1,"requests":3,"latency_histogram":"x"}}]}`,
		`{"index":0,"result":{"schema_version":1,"run":{"segment":{"index":0,"count":2}}}}`,
		`{"index":-1,"error":"boom"}`,
		`{"index":99}`,
		`[]`, `null`, `{"index":0,"unknown":1}`, ``,
	} {
		for i := range paths {
			f.Add(uint8(i), []byte(seed))
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, body []byte) {
		c, err := collect.New(collect.Config{Parts: 2, JoinWait: 1})
		if err != nil {
			t.Fatal(err)
		}
		path := paths[int(which)%len(paths)]
		method := http.MethodPost
		if path == "/v1/live" || path == "/v1/result" {
			method = http.MethodGet
		}
		req := httptest.NewRequest(method, path, bytes.NewReader(body))
		if path == "/v1/join" {
			// A join waits for the barrier: give up at once.
			ctx, cancel := contextDone()
			defer cancel()
			req = req.WithContext(ctx)
		}
		rec := httptest.NewRecorder()
		c.ServeHTTP(rec, req)
		if code := rec.Code; code >= 500 && code != http.StatusServiceUnavailable {
			t.Errorf("%s %q: %d %s", path, body, code, rec.Body)
		}
	})
}

// contextDone returns a context already cancelled.
func contextDone() (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return ctx, cancel
}
