package live_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/surge-load/surge/live"
)

// TestNonLoopbackNeedsAToken: listening off loopback without --ui-token is
// refused with the way to set one; with a token, even reading needs it.
func TestNonLoopbackNeedsAToken(t *testing.T) {
	_, err := live.New(live.Config{Addr: "0.0.0.0:0"})
	if err == nil || !strings.Contains(err.Error(), "--ui-token") {
		t.Fatalf("0.0.0.0 without a token: %v; want an error naming --ui-token", err)
	}
	srv, err := live.New(live.Config{Addr: "0.0.0.0:0", Token: "s3cret"})
	if err != nil {
		t.Fatal(err)
	}
	srv.Serve()
	defer srv.Close(time.Second)
	port := srv.Addr()[strings.LastIndex(srv.Addr(), ":"):]
	base := "http://127.0.0.1" + port // the test talks over loopback only
	get := func(path, auth string) int { return call(t, http.MethodGet, base+path, auth, nil) }
	if code := get("/api/status", ""); code != http.StatusUnauthorized {
		t.Errorf("status without the token: %d, want 401", code)
	}
	if code := get("/api/status", "s3cret"); code != http.StatusOK {
		t.Errorf("status with the token: %d, want 200", code)
	}
	if code := get("/api/status?token=s3cret", ""); code != http.StatusOK {
		t.Errorf("status with ?token=: %d, want 200", code)
	}
	if !strings.Contains(srv.URL(), "token=s3cret") {
		t.Errorf("URL %q lacks the token", srv.URL())
	}
}
