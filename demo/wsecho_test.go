package demo

import (
	"context"
	"errors"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/coder/websocket"
)

func dialEcho(t *testing.T, baseURL string) *websocket.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, baseURL+"/api/v1/ws/echo", nil)
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	t.Cleanup(func() { _ = c.CloseNow() })
	return c
}

func TestWSEchoSendsEveryMessageBack(t *testing.T) {
	srv := httptest.NewServer(newTestService(t, Config{}))
	defer srv.Close()
	c := dialEcho(t, srv.URL)
	ctx := t.Context()
	for i, m := range []struct {
		typ websocket.MessageType
		msg string
	}{{websocket.MessageText, `{"id":1}`}, {websocket.MessageBinary, "\x00\x01"}, {websocket.MessageText, "close"}, {websocket.MessageText, ""}} {
		if err := c.Write(ctx, m.typ, []byte(m.msg)); err != nil {
			t.Fatal(err)
		}
		typ, got, err := c.Read(ctx)
		if err != nil || typ != m.typ || string(got) != m.msg {
			t.Fatalf("message %d: got %v %q %v, want %v %q", i, typ, got, err, m.typ, m.msg)
		}
	}
	if err := c.Close(websocket.StatusNormalClosure, ""); err != nil {
		t.Fatalf("close: %v", err)
	}
}

func TestWSEchoClosesWithTheCodeAskedFor(t *testing.T) {
	srv := httptest.NewServer(newTestService(t, Config{}))
	defer srv.Close()
	c := dialEcho(t, srv.URL)
	if err := c.Write(t.Context(), websocket.MessageText, []byte("close 4001 go away")); err != nil {
		t.Fatal(err)
	}
	_, _, err := c.Read(t.Context())
	var ce websocket.CloseError
	if !errors.As(err, &ce) || ce.Code != 4001 || ce.Reason != "go away" {
		t.Fatalf("read after the close command: %v, want close 4001 go away", err)
	}
}

func TestWSEchoEndsWithTheService(t *testing.T) {
	svc := New(Config{})
	srv := httptest.NewServer(svc)
	defer srv.Close()
	c := dialEcho(t, srv.URL)
	if err := c.Write(t.Context(), websocket.MessageText, []byte("hi")); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.Read(t.Context()); err != nil {
		t.Fatal(err)
	}
	svc.Close()
	if _, _, err := c.Read(t.Context()); websocket.CloseStatus(err) != websocket.StatusGoingAway {
		t.Fatalf("read after the service closed: %v, want going away (1001)", err)
	}
}
