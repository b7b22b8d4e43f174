package collect_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/surge-load/surge/collect"
)

// TestRefusals: a collector of two segments that has not begun refuses
// each runner request that does not fit it with the status code and the
// message that say why.
func TestRefusals(t *testing.T) {
	c, err := collect.New(collect.Config{Parts: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path, body string
		code       int
		says       string
	}{
		{"/v1/join", `{"index":0,"count":3}`, http.StatusConflict, "joined a collector of 2 parts"},
		{"/v1/join", `{"index":2,"count":2}`, http.StatusBadRequest, "segment 2 is not one of the 2 segments"},
		{"/v1/join", `{"index":0,"count":2,"bogus":1}`, http.StatusBadRequest, "decode the request"},
		{"/v1/start", `{"index":1}`, http.StatusConflict, "without joining first"},
		{"/v1/ticks", `{"index":-1}`, http.StatusBadRequest, "segment -1 is not one of"},
		{"/v1/ticks", `{"index":0}`, http.StatusConflict, "sent ticks before it started"},
		{"/v1/sofar", `{"index":0}`, http.StatusBadRequest, "segment 0 sent no result"},
		{"/v1/sofar", `{"index":0,"result":{}}`, http.StatusConflict, "outside the run"},
		{"/v1/part", `{"index":1}`, http.StatusBadRequest, "segment 1 sent no result"},
		{"/v1/part", `{"index":1,"result":{"run":{"segment":{"index":0,"count":2}}}}`, http.StatusBadRequest, "sent the result of segment 0/2"},
		{"/v1/part", `{"index":1,"result":{"run":{"segment":{"index":1,"count":2}}}}`, http.StatusConflict, "sent a part without starting"},
		{"/v1/fail", `{"index":0,"error":"boom"}`, http.StatusConflict, "reported a failure without joining"},
	} {
		w := httptest.NewRecorder()
		c.ServeHTTP(w, httptest.NewRequest(http.MethodPost, tc.path, strings.NewReader(tc.body)))
		if w.Code != tc.code || !strings.Contains(w.Body.String(), tc.says) {
			t.Errorf("POST %s %s: %d %s; want %d saying %q", tc.path, tc.body, w.Code, strings.TrimSpace(w.Body.String()), tc.code, tc.says)
		}
	}
}
