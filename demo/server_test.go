package demo

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("read %s: %v", url, err)
	}
	return resp.StatusCode, string(b)
}

func TestStartAndClose(t *testing.T) {
	srv, err := Start(t.Context(), "127.0.0.1:0", Config{EventInterval: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	if !strings.HasPrefix(srv.URL, "http://127.0.0.1:") || !strings.HasSuffix(srv.URL, srv.Addr) {
		t.Fatalf("URL %q, Addr %q", srv.URL, srv.Addr)
	}
	if code, body := get(t, srv.URL+"/healthz"); code != http.StatusOK || strings.TrimSpace(body) != "ok" {
		t.Fatalf("healthz: %d %q", code, body)
	}
	code, body := get(t, srv.URL+"/")
	if code != http.StatusOK {
		t.Fatalf("index: %d", code)
	}
	for _, ep := range []string{"/api/v1/users", "/api/v1/folders/{id}", "/api/v1/seed", "/api/v1/logs", "/api/v1/logs/stats", "/api/v1/events", "/metrics", "/healthz"} {
		if !strings.Contains(body, ep) {
			t.Errorf("index does not list %s", ep)
		}
	}
	if code, _ := get(t, srv.URL+"/nope"); code != http.StatusNotFound {
		t.Errorf("unknown path: %d, want 404", code)
	}

	// Close ends open event streams and returns promptly.
	c := subscribe(t, srv.URL, "")
	c.expectStart(t)
	start := time.Now()
	if err := srv.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if el := time.Since(start); el > time.Second {
		t.Errorf("Close took %v with an open stream", el)
	}
	select {
	case f := <-c.frames:
		if f.err == nil {
			t.Fatalf("got %+v after Close, want the end of the stream", f)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("stream still open after Close")
	}
	select {
	case <-srv.Done():
	default:
		t.Error("Done not closed after Close")
	}
	if _, err := http.Get(srv.URL + "/healthz"); err == nil {
		t.Error("server still answering after Close")
	}
	if err := srv.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

func TestStartStopsWithContext(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	srv, err := Start(ctx, "127.0.0.1:0", Config{})
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	select {
	case <-srv.Done():
	case <-time.After(3 * time.Second):
		t.Fatal("server still running after its context ended")
	}
}

func TestStartErrors(t *testing.T) {
	if _, err := Start(t.Context(), "127.0.0.1:0", Config{FailRate: 2}); err == nil || !strings.Contains(err.Error(), "fail rate") {
		t.Errorf("invalid config: %v", err)
	}
	if _, err := Start(t.Context(), "256.0.0.1:http", Config{}); err == nil {
		t.Error("bad address: want an error")
	}
}
