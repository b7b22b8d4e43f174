package demo

import (
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"strings"
	"sync"
	"time"
)

// SessionCookie is the name of the cookie POST /api/v1/login sets.
const SessionCookie = "surge_session"

// Bounds of the session store, so that a long load test of logins keeps
// the demo's memory bounded: the oldest sessions are forgotten first, and
// each session keeps its latest notes.
const (
	maxSessions        = 100_000
	maxNotesPerSession = 100
)

// A session is a logged-in user.
type session struct {
	user  string
	csrf  string // the X-CSRF-Token its writes must carry
	notes []note // the latest, oldest first
}

type note struct {
	ID   int64  `json:"id"`
	Text string `json:"text"`
}

// sessionStore holds sessions by token, forgetting the oldest past
// maxSessions.
type sessionStore struct {
	mu     sync.Mutex
	byTok  map[string]*session
	order  []string // tokens, oldest first; a ring of maxSessions
	next   int
	noteID int64
}

func newSessionStore() *sessionStore {
	return &sessionStore{byTok: map[string]*session{}}
}

func randomToken() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// login starts a session for user and returns its token.
func (st *sessionStore) login(user string) (string, *session) {
	tok := randomToken()
	s := &session{user: user, csrf: randomToken()}
	st.mu.Lock()
	defer st.mu.Unlock()
	if len(st.order) < maxSessions {
		st.order = append(st.order, tok)
	} else {
		delete(st.byTok, st.order[st.next])
		st.order[st.next] = tok
		st.next = (st.next + 1) % maxSessions
	}
	st.byTok[tok] = s
	return tok, s
}

// of returns the session of r's cookie, or nil.
func (st *sessionStore) of(r *http.Request) (string, *session) {
	c, err := r.Cookie(SessionCookie)
	if err != nil {
		return "", nil
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	return c.Value, st.byTok[c.Value]
}

func (st *sessionStore) logout(tok string) {
	st.mu.Lock()
	defer st.mu.Unlock()
	delete(st.byTok, tok) // its slot in order is reused in turn
}

// addNote adds a note to s and returns it.
func (st *sessionStore) addNote(s *session, text string) note {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.noteID++
	n := note{ID: st.noteID, Text: text}
	if len(s.notes) == maxNotesPerSession {
		s.notes = append(s.notes[:0], s.notes[1:]...)
	}
	s.notes = append(s.notes, n)
	return n
}

// findNote returns s's note id.
func (st *sessionStore) findNote(s *session, id int64) (note, bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	for _, n := range s.notes {
		if n.ID == id {
			return n, true
		}
	}
	return note{}, false
}

// handleLogin serves POST /api/v1/login, a JSON {"userName","password"} or
// a form with the same fields: any non-empty name and password log in.
// It sets the session cookie and answers {"userName","csrfToken"}.
func (s *Service) handleLogin(w http.ResponseWriter, r *http.Request) {
	var req struct {
		UserName string `json:"userName"`
		Password string `json:"password"`
	}
	if strings.HasPrefix(r.Header.Get("Content-Type"), "application/x-www-form-urlencoded") {
		r.Body = http.MaxBytesReader(w, r.Body, maxJSONBodyBytes)
		if err := r.ParseForm(); err != nil {
			writeError(w, http.StatusBadRequest, "read form: %v", err)
			return
		}
		req.UserName, req.Password = r.PostForm.Get("userName"), r.PostForm.Get("password")
	} else if err := decodeJSON(w, r, maxJSONBodyBytes, &req); err != nil {
		writeErr(w, err)
		return
	}
	if strings.TrimSpace(req.UserName) == "" || req.Password == "" {
		writeError(w, http.StatusBadRequest, "userName and password are required")
		return
	}
	tok, sess := s.sessions.login(req.UserName)
	http.SetCookie(w, &http.Cookie{Name: SessionCookie, Value: tok, Path: "/", HttpOnly: true, SameSite: http.SameSiteLaxMode})
	writeJSON(w, http.StatusOK, map[string]string{"userName": sess.user, "csrfToken": sess.csrf})
}

// requireSession returns the session of r, or answers 401.
func (s *Service) requireSession(w http.ResponseWriter, r *http.Request) (string, *session) {
	tok, sess := s.sessions.of(r)
	if sess == nil {
		writeError(w, http.StatusUnauthorized, "not logged in: POST /api/v1/login first and send its %s cookie", SessionCookie)
	}
	return tok, sess
}

// handleSession serves GET /api/v1/session: who is logged in.
func (s *Service) handleSession(w http.ResponseWriter, r *http.Request) {
	if _, sess := s.requireSession(w, r); sess != nil {
		writeJSON(w, http.StatusOK, map[string]string{"userName": sess.user, "csrfToken": sess.csrf})
	}
}

// handleLogout serves POST /api/v1/logout: it ends the session and
// deletes its cookie.
func (s *Service) handleLogout(w http.ResponseWriter, r *http.Request) {
	tok, sess := s.requireSession(w, r)
	if sess == nil {
		return
	}
	s.sessions.logout(tok)
	http.SetCookie(w, &http.Cookie{Name: SessionCookie, Value: "", Path: "/", MaxAge: -1, Expires: time.Unix(0, 0)})
	w.WriteHeader(http.StatusNoContent)
}

// handleCreateNote serves POST /api/v1/notes {"text"}: it needs the
// session cookie and the session's X-CSRF-Token, and answers 201 {"id","text"}.
func (s *Service) handleCreateNote(w http.ResponseWriter, r *http.Request) {
	_, sess := s.requireSession(w, r)
	if sess == nil {
		return
	}
	if r.Header.Get("X-CSRF-Token") != sess.csrf {
		writeError(w, http.StatusForbidden, "X-CSRF-Token is missing or wrong: send the csrfToken of the login response")
		return
	}
	var req struct {
		Text string `json:"text"`
	}
	if err := decodeJSON(w, r, maxJSONBodyBytes, &req); err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, http.StatusCreated, s.sessions.addNote(sess, req.Text))
}

// handleGetNote serves GET /api/v1/notes/{id}: one of the session's notes.
func (s *Service) handleGetNote(w http.ResponseWriter, r *http.Request) {
	_, sess := s.requireSession(w, r)
	if sess == nil {
		return
	}
	id, err := pathID(r)
	if err != nil {
		writeErr(w, err)
		return
	}
	n, ok := s.sessions.findNote(sess, id)
	if !ok {
		writeError(w, http.StatusNotFound, "note %d not found in this session", id)
		return
	}
	writeJSON(w, http.StatusOK, n)
}
