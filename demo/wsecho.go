package demo

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/coder/websocket"
)

// The WebSocket echo endpoint sends every message back as it came, text
// or binary. A text message "close CODE [REASON]" makes the server close
// the connection with that code instead, so that clients can be tested
// against every kind of close.

// wsReadLimit bounds a message the echo endpoint accepts.
const wsReadLimit = 1 << 20

// handleWSEcho serves GET /api/v1/ws/echo.
func (s *Service) handleWSEcho(w http.ResponseWriter, r *http.Request) {
	c, err := websocket.Accept(w, r, nil)
	if err != nil {
		return // Accept has answered the request
	}
	if rec, ok := w.(*responseRecorder); ok {
		rec.stream = true
		rec.leaveInFlight()
	}
	c.SetReadLimit(wsReadLimit)
	// Hijacked connections outlive http.Server.Shutdown: end them when
	// the service closes.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		select {
		case <-s.done:
			_ = c.Close(websocket.StatusGoingAway, "service closed")
		case <-ctx.Done():
		}
	}()
	for {
		typ, msg, err := c.Read(ctx)
		if err != nil {
			return
		}
		if code, reason, ok := closeCommand(typ, msg); ok {
			_ = c.Close(code, reason)
			return
		}
		if err := c.Write(ctx, typ, msg); err != nil {
			if !errors.Is(err, context.Canceled) {
				_ = c.CloseNow()
			}
			return
		}
	}
}

// closeCommand parses a "close CODE [REASON]" text message.
func closeCommand(typ websocket.MessageType, msg []byte) (websocket.StatusCode, string, bool) {
	if typ != websocket.MessageText {
		return 0, "", false
	}
	rest, ok := strings.CutPrefix(string(msg), "close ")
	if !ok {
		return 0, "", false
	}
	codeText, reason, _ := strings.Cut(rest, " ")
	code, err := strconv.Atoi(codeText)
	if err != nil || code < 1000 || code > 4999 {
		return 0, "", false
	}
	return websocket.StatusCode(code), reason, true
}
