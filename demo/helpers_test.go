package demo

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// newTestService returns a Service closed at the end of the test.
func newTestService(t *testing.T, cfg Config) *Service {
	t.Helper()
	if err := cfg.Validate(); err != nil {
		t.Fatalf("invalid test config: %v", err)
	}
	s := New(cfg)
	t.Cleanup(s.Close)
	return s
}

// do sends a request straight to h and returns the recorded response.
// A string body is sent as is; any other non-nil body is JSON-encoded.
func do(t *testing.T, h http.Handler, method, path string, body any) *httptest.ResponseRecorder {
	t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		buf, err := json.Marshal(b)
		if err != nil {
			t.Fatalf("encode body: %v", err)
		}
		rd = bytes.NewReader(buf)
	}
	req := httptest.NewRequest(method, path, rd)
	if body != nil {
		if _, isString := body.(string); !isString {
			req.Header.Set("Content-Type", "application/json")
		}
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// decodeAs decodes a JSON response body into a T.
func decodeAs[T any](t *testing.T, rec *httptest.ResponseRecorder) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil {
		t.Fatalf("decode %q: %v", rec.Body.String(), err)
	}
	return v
}

// wantStatus fails the test unless rec has the given status.
func wantStatus(t *testing.T, rec *httptest.ResponseRecorder, status int) {
	t.Helper()
	if rec.Code != status {
		t.Fatalf("status %d, want %d; body %s", rec.Code, status, rec.Body.String())
	}
}

// wantError fails the test unless rec has the status and a JSON error
// containing substr.
func wantError(t *testing.T, rec *httptest.ResponseRecorder, status int, substr string) {
	t.Helper()
	wantStatus(t, rec, status)
	e := decodeAs[errorBody](t, rec)
	if !strings.Contains(e.Error, substr) {
		t.Fatalf("error %q does not contain %q", e.Error, substr)
	}
}

// createUser creates a user and returns its id and root folder id.
func createUser(t *testing.T, h http.Handler, name string) (userID, rootID int64) {
	t.Helper()
	rec := do(t, h, "POST", "/api/v1/users", map[string]any{"userName": name})
	wantStatus(t, rec, http.StatusCreated)
	v := decodeAs[map[string]int64](t, rec)
	return v["id"], v["rootFolderId"]
}

// createFolder creates a folder and returns its id.
func createFolder(t *testing.T, h http.Handler, userID, parentID int64, name string) int64 {
	t.Helper()
	rec := do(t, h, "POST", "/api/v1/folders", map[string]any{
		"userId": userID, "parentFolderId": parentID, "uploadFolderName": name, "creatorId": userID,
	})
	wantStatus(t, rec, http.StatusCreated)
	return decodeAs[map[string]int64](t, rec)["id"]
}

// moveFolder sends a move and returns the response.
func moveFolder(t *testing.T, h http.Handler, userID, id, targetID int64) *httptest.ResponseRecorder {
	t.Helper()
	return do(t, h, "PATCH", fmt.Sprintf("/api/v1/folders/%d", id), map[string]any{"userId": userID, "targetFolderId": targetID})
}

// eventually polls cond every few milliseconds until it holds or timeout
// passes.
func eventually(t *testing.T, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", timeout, what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}
