package live

import (
	"bytes"
	"crypto/subtle"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/surge-load/surge/executor"
	"github.com/surge-load/surge/internal/report"
	"github.com/surge-load/surge/result"
)

//go:embed assets/live.js
var liveJS string

func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.read(s.page))
	mux.HandleFunc("GET /events", s.read(s.events))
	mux.HandleFunc("GET /api/status", s.read(s.getStatus))
	mux.HandleFunc("POST /api/stop", s.control(s.postStop))
	mux.HandleFunc("POST /api/load", s.control(s.postLoad))
	if s.cfg.Metrics != nil {
		h := s.cfg.Metrics.Handler()
		mux.HandleFunc("GET /metrics", s.read(h.ServeHTTP))
	}
	return mux
}

// token is the token a request carries: Authorization: Bearer, or, for
// what a browser fetches without headers (the page, its event stream),
// the token query parameter.
func token(r *http.Request, query bool) string {
	if t, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok {
		return t
	}
	if query {
		return r.URL.Query().Get("token")
	}
	return ""
}

func (s *Server) valid(t string) bool {
	return subtle.ConstantTimeCompare([]byte(t), []byte(s.cfg.Token)) == 1
}

// read lets a request read the run: anyone on loopback, others with the
// token.
func (s *Server) read(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !s.loopback && !s.valid(token(r, true)) {
			writeError(w, http.StatusUnauthorized, errUnauthorized)
			return
		}
		h(w, r)
	}
}

// control lets a request change the run only with the token in its
// Authorization header.
func (s *Server) control(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !s.valid(token(r, false)) {
			writeError(w, http.StatusForbidden, errUnauthorized)
			return
		}
		h(w, r)
	}
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, code int, err error) {
	writeJSON(w, code, map[string]string{"error": err.Error()})
}

func (s *Server) page(w http.ResponseWriter, r *http.Request) {
	var b bytes.Buffer
	empty := &result.Result{Run: result.Run{Load: "waiting for the first second of the run"}}
	if err := report.LivePage(&b, empty, liveJS); err != nil {
		writeError(w, http.StatusInternalServerError, err)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write(b.Bytes())
}

// events streams the updates as Server-Sent Events: an "update" event
// every second with the status and the report data, and "done" at the end.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	fl, ok := w.(http.Flusher)
	if !ok {
		writeError(w, http.StatusInternalServerError, fmt.Errorf("streaming unsupported"))
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	ch, latest, cancel := s.subscribe()
	defer cancel()
	w.WriteHeader(http.StatusOK)
	fl.Flush()
	send := func(event string, data []byte) bool {
		if _, err := fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, data); err != nil {
			return false
		}
		fl.Flush()
		return true
	}
	if latest != nil && !send("update", latest) {
		return
	}
	keepalive := time.NewTicker(15 * time.Second)
	defer keepalive.Stop()
	for {
		select {
		case b := <-ch:
			if !send("update", b) {
				return
			}
		case <-s.doneCh:
			s.mu.Lock()
			b := s.latest
			s.mu.Unlock()
			if b != nil {
				send("update", b)
			}
			send("done", []byte("{}"))
			return
		case <-keepalive.C:
			if _, err := io.WriteString(w, ": keepalive\n\n"); err != nil {
				return
			}
			fl.Flush()
		case <-r.Context().Done():
			return
		}
	}
}

func (s *Server) getStatus(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	b := s.latest
	s.mu.Unlock()
	if b == nil {
		writeJSON(w, http.StatusOK, Status{State: "waiting", PlannedS: s.cfg.Planned.Seconds(), Scenarios: s.cfg.Control.Scenarios(), Timeline: []result.Event{}})
		return
	}
	var u struct {
		Status json.RawMessage `json:"status"`
	}
	_ = json.Unmarshal(b, &u)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write(u.Status)
}

// StopRequest is the body of POST /api/stop (optional).
type StopRequest struct {
	// Abort cancels the requests in flight at once; otherwise they get
	// the grace period.
	Abort bool `json:"abort"`
}

func (s *Server) postStop(w http.ResponseWriter, r *http.Request) {
	var req StopRequest
	if err := decode(r, &req); err != nil {
		writeError(w, http.StatusBadRequest, err)
		return
	}
	by := by(r)
	var err error
	if req.Abort {
		err = s.cfg.Control.Abort(by)
	} else {
		err = s.cfg.Control.Stop(by)
	}
	if err != nil {
		writeError(w, http.StatusConflict, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"ok": true, "abort": req.Abort})
}

// LoadRequest is the body of POST /api/load: exactly one of Users, Rate,
// Hold and Resume.
type LoadRequest struct {
	// Scenario names the scenario to change; empty changes every
	// scenario whose model can change.
	Scenario string   `json:"scenario,omitempty"`
	Users    *float64 `json:"users,omitempty"` // closed model: users from now on
	Rate     *float64 `json:"rate,omitempty"`  // open model: arrivals per second from now on
	Hold     bool     `json:"hold,omitempty"`
	Resume   bool     `json:"resume,omitempty"`
}

func (s *Server) postLoad(w http.ResponseWriter, r *http.Request) {
	var req LoadRequest
	if err := decode(r, &req); err != nil {
		writeError(w, http.StatusBadRequest, err)
		return
	}
	var ch executor.Change
	n := 0
	if req.Users != nil {
		n++
		ch = executor.Change{Op: executor.SetLevel, Level: *req.Users}
	}
	if req.Rate != nil {
		n++
		ch = executor.Change{Op: executor.SetLevel, Level: *req.Rate}
	}
	if req.Hold {
		n++
		ch = executor.Change{Op: executor.Hold}
	}
	if req.Resume {
		n++
		ch = executor.Change{Op: executor.Resume}
	}
	if n != 1 {
		writeError(w, http.StatusBadRequest, fmt.Errorf(`give exactly one of "users", "rate", "hold": true, "resume": true`))
		return
	}
	if req.Users != nil || req.Rate != nil {
		want := "users"
		if req.Rate != nil {
			want = "arrivals/s"
		}
		for _, sc := range s.cfg.Control.Scenarios() {
			if (req.Scenario == "" || sc.Name == req.Scenario) && sc.Unit != "" && sc.Unit != want {
				writeError(w, http.StatusBadRequest, fmt.Errorf("scenario %q counts its load in %s: send %q", sc.Name, sc.Unit, map[string]string{"users": "users", "arrivals/s": "rate"}[sc.Unit]))
				return
			}
		}
	}
	if err := s.cfg.Control.Change(req.Scenario, ch, by(r)); err != nil {
		writeError(w, http.StatusConflict, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"ok": true})
}

// by names who sent r, for the timeline: the page says so in a header.
func by(r *http.Request) string {
	if r.Header.Get("X-Surge-Client") == "page" {
		return "the live page"
	}
	return "the API"
}

// decode reads a small JSON body; an empty body is the zero value.
func decode(r *http.Request, v any) error {
	b, err := io.ReadAll(io.LimitReader(r.Body, 1<<16))
	if err != nil {
		return err
	}
	if len(bytes.TrimSpace(b)) == 0 {
		return nil
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		return fmt.Errorf("body: %w", err)
	}
	return nil
}
