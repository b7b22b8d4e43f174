package demo

import (
	"io"
	"net/http"
	"sync"
	"time"
)

// Service is the demo target service. It implements http.Handler; all of
// its state is in memory and safe for concurrent use. Close stops its
// background goroutines.
type Service struct {
	cfg       Config // normalized
	m         *metrics
	faults    *faults
	folders   *folderStore
	internals *internals
	logs      *logBuffer
	events    *eventHub
	sessions  *sessionStore
	mux       *http.ServeMux

	done      chan struct{}
	closeOnce sync.Once
	wg        sync.WaitGroup
}

// New returns a Service configured by cfg and starts its background
// goroutines: the log flusher and the event ticker. New does not report
// configuration errors: it uses defaults for zero fields and clamps values
// out of range, so call cfg.Validate first to reject bad input.
func New(cfg Config) *Service {
	cfg = cfg.normalized()
	s := &Service{
		cfg:      cfg,
		m:        newMetrics(),
		mux:      http.NewServeMux(),
		sessions: newSessionStore(),
		done:     make(chan struct{}),
	}
	s.faults = newFaults(cfg, time.Now(), s.m, s.done)
	s.folders = newFolderStore(cfg, s.m, s.done)
	s.logs = newLogBuffer(cfg)
	s.events = newEventHub(cfg.EventHistory, s.m)
	s.m.registerLogs(s.logs)
	s.m.registerFaults(s.faults)
	s.internals = newInternals(cfg, s.m, s.done, &s.wg)
	s.routes()

	s.wg.Go(func() { s.logs.run(s.done) })
	s.wg.Go(func() { s.events.run(cfg.EventInterval, cfg.KeepAliveInterval, s.done) })
	return s
}

// routeKind says how the failure knobs apply to a route.
type routeKind int

const (
	routeNormal routeKind = iota // knobs apply
	routeExempt                  // knobs never apply (metrics, health)
	routeStream                  // knobs apply before the stream starts
)

// routes registers every endpoint.
func (s *Service) routes() {
	s.route("GET /{$}", routeNormal, s.handleIndex)
	s.route("GET /healthz", routeExempt, s.handleHealth)
	s.route("GET /metrics", routeExempt, s.m.handler().ServeHTTP)
	s.route("GET /openapi.yaml", routeExempt, handleOpenAPI)
	s.route("GET /app", routeNormal, handleApp)
	s.route("GET /app/style.css", routeNormal, handleAppStyle)

	s.route("POST /api/v1/users", routeNormal, s.handleCreateUser)
	s.route("GET /api/v1/folders/{id}", routeNormal, s.handleListFolder)
	s.route("POST /api/v1/folders", routeNormal, s.handleCreateFolder)
	s.route("PATCH /api/v1/folders/{id}", routeNormal, s.handleMoveFolder)
	s.route("POST /api/v1/seed", routeNormal, s.handleSeed)

	s.route("POST /api/v1/login", routeNormal, s.handleLogin)
	s.route("GET /api/v1/session", routeNormal, s.handleSession)
	s.route("POST /api/v1/logout", routeNormal, s.handleLogout)
	s.route("POST /api/v1/notes", routeNormal, s.handleCreateNote)
	s.route("GET /api/v1/notes/{id}", routeNormal, s.handleGetNote)

	s.route("POST /api/v1/logs", routeNormal, s.handleIngestLogs)
	s.route("GET /api/v1/logs/stats", routeNormal, s.handleLogStats)

	s.route("GET /api/v1/events", routeStream, s.handleSubscribe)
	s.route("POST /api/v1/events", routeNormal, s.handleBroadcast)
	s.route("GET /api/v1/ws/echo", routeStream, s.handleWSEcho)

	s.route("GET /api/v1/items/{id}", routeNormal, s.handleItem)
	s.route("GET /api/v1/poll", routeNormal, s.handlePoll)
}

// route registers h for pattern, wrapped to label metrics with the pattern
// and to apply the failure knobs as kind says.
func (s *Service) route(pattern string, kind routeKind, h http.HandlerFunc) {
	s.mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
		if rec, ok := w.(*responseRecorder); ok {
			rec.endpoint = pattern
		}
		if kind == routeExempt {
			h(w, r)
			return
		}
		if s.closed() {
			writeError(w, http.StatusServiceUnavailable, "service closed")
			return
		}
		release, ok := s.faults.admit(w, r)
		if !ok {
			return
		}
		if kind == routeStream {
			release() // a long-lived stream does not hold an in-flight slot
		} else {
			defer release()
		}
		s.internals.warmUp()
		h(w, r)
	})
}

// ServeHTTP implements http.Handler.
func (s *Service) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	s.m.inFlight.Inc()
	rec := &responseRecorder{ResponseWriter: w, leave: s.m.inFlight.Dec}
	defer func() {
		rec.leaveInFlight()
		endpoint := rec.endpoint
		if endpoint == "" {
			endpoint = "unmatched"
		}
		s.m.observe(endpoint, rec.statusCode(), time.Since(start), !rec.stream)
	}()
	s.mux.ServeHTTP(rec, r)
}

// Close stops the background goroutines and ends every event stream.
// Requests that arrive afterwards get 503, except /metrics and /healthz.
// It is safe to call more than once.
func (s *Service) Close() {
	s.closeOnce.Do(func() {
		close(s.done)
		s.wg.Wait()
	})
}

func (s *Service) closed() bool {
	select {
	case <-s.done:
		return true
	default:
		return false
	}
}

func (s *Service) handleHealth(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	_, _ = io.WriteString(w, "ok\n")
}

// indexText lists the endpoints, for GET /.
const indexText = `surge demo service: a load-test target whose behaviour under load is known.

GET   /healthz                     liveness: "ok"
GET   /metrics                     Prometheus metrics
GET   /openapi.yaml                the OpenAPI description of these endpoints
GET   /app                         a page whose script logs in and writes and reads a note (for recording a HAR)

POST  /api/v1/users                {"userName"} -> 201 {"id","rootFolderId"}
GET   /api/v1/folders/{id}         ?userId=&cursorType=Folder&sortBy=createdAt|name&size=10&creatorId=&cursor=
                                   -> {"items":[{"id","name","parentId","createdAt","creatorId"}],"nextCursor"}
POST  /api/v1/folders              {"userId","parentFolderId","uploadFolderName","creatorId"} -> 201 {"id"}
PATCH /api/v1/folders/{id}         {"userId","targetFolderId"} -> 200 (move)
POST  /api/v1/seed                 {"userName","folders":8000,"fanout":10} -> 201 {"userId","rootFolderId","firstId","lastId"}

POST  /api/v1/login                {"userName","password"} or a form -> 200 {"userName","csrfToken"}, sets cookie surge_session
GET   /api/v1/session              (cookie) -> {"userName","csrfToken"}; 401 without a session
POST  /api/v1/logout               (cookie) -> 204, deletes the cookie
POST  /api/v1/notes                (cookie, X-CSRF-Token) {"text"} -> 201 {"id","text"}
GET   /api/v1/notes/{id}           (cookie) -> {"id","text"} of the session's notes

POST  /api/v1/logs                 {"lines":[...]} or newline-delimited text -> 202 {"accepted"}
GET   /api/v1/logs/stats           {"accepted","flushed","buffered","rejected","capacity","batches"}

GET   /api/v1/events               text/event-stream of "tick" and "broadcast" events; honours Last-Event-ID
POST  /api/v1/events               {"data": any} -> 202 {"id"}; broadcast to every subscriber
GET   /api/v1/ws/echo              WebSocket: echoes every message; "close CODE [REASON]" closes with CODE
GET   /api/v1/items/{id}           an item (1 to --items) from a cache with a TTL (--cache-ttl) in front of
                                   a slow store (--store-latency) behind a bounded pool (--store-pool):
                                   each expiry sends a stampede to the store
GET   /api/v1/poll                 one call to an external service rate-limited to --external-rate/s
                                   (waits up to --external-wait, then 429)
`

func (s *Service) handleIndex(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	_, _ = io.WriteString(w, indexText)
}
