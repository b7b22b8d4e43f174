// Package live serves a running test: a web page with the HTML report's
// charts and tables, redrawn every second from updates pushed with
// Server-Sent Events; a JSON API to read the run and steer it (stop,
// abort, change the load, hold and resume); and /metrics in the
// Prometheus exposition formats. docs/live.md describes the API.
//
// Control requests must carry the token printed with the page's URL;
// reading needs it only when the server listens on a non-loopback
// address, which it does only with a token chosen by the user.
package live

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/surge-load/surge"
	"github.com/surge-load/surge/internal/report"
	"github.com/surge-load/surge/livemetrics"
	"github.com/surge-load/surge/result"
)

// Config is what a Server serves.
type Config struct {
	// Addr is the address to listen on, such as 127.0.0.1:8089 (port 0
	// picks one). A non-loopback address needs Token.
	Addr string
	// Token authorizes control requests; empty picks a random one, which
	// only a loopback address may do.
	Token   string
	Control *surge.Controller
	Metrics *livemetrics.Set
	// Planned is the plan's length, for the page's progress.
	Planned time.Duration
}

// A Server serves one run live.
type Server struct {
	cfg      Config
	loopback bool
	ln       net.Listener
	srv      *http.Server

	mu      sync.Mutex
	latest  []byte // the last update, as an SSE data payload
	clients map[chan []byte]struct{}
	done    bool
	doneCh  chan struct{}
}

// New checks cfg and listens on its address; Serve starts answering.
func New(cfg Config) (*Server, error) {
	host, _, err := net.SplitHostPort(cfg.Addr)
	if err != nil {
		return nil, fmt.Errorf("--ui %q: want HOST:PORT, such as 127.0.0.1:8089", cfg.Addr)
	}
	loopback := host == "localhost"
	if ip := net.ParseIP(host); ip != nil {
		loopback = ip.IsLoopback()
	}
	if !loopback && cfg.Token == "" {
		return nil, fmt.Errorf("--ui %q is not a loopback address: anyone who reaches it could stop or change the run; choose a token with --ui-token TOKEN (or $SURGE_UI_TOKEN), or listen on 127.0.0.1", cfg.Addr)
	}
	if cfg.Token == "" {
		b := make([]byte, 16)
		_, _ = rand.Read(b)
		cfg.Token = hex.EncodeToString(b)
	}
	if cfg.Control == nil {
		cfg.Control = surge.NewController()
	}
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return nil, fmt.Errorf("--ui %q: %w", cfg.Addr, err)
	}
	s := &Server{cfg: cfg, loopback: loopback, ln: ln, clients: map[chan []byte]struct{}{}, doneCh: make(chan struct{})}
	s.srv = &http.Server{Handler: s.routes(), ReadHeaderTimeout: 10 * time.Second}
	return s, nil
}

// URL is the page's address, with the token.
func (s *Server) URL() string {
	return "http://" + s.ln.Addr().String() + "/?token=" + s.cfg.Token
}

// Addr is the address the server listens on.
func (s *Server) Addr() string { return s.ln.Addr().String() }

// Token is the token control requests must carry.
func (s *Server) Token() string { return s.cfg.Token }

// Serve answers requests until Close.
func (s *Server) Serve() {
	go func() { _ = s.srv.Serve(s.ln) }()
}

// Close tells the pages the run is over and stops the server, waiting at
// most timeout for requests in flight.
func (s *Server) Close(timeout time.Duration) {
	s.mu.Lock()
	if !s.done {
		s.done = true
		close(s.doneCh)
	}
	s.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	if err := s.srv.Shutdown(ctx); err != nil {
		_ = s.srv.Close()
	}
}

// update is what the page receives every second.
type update struct {
	Status Status             `json:"status"`
	Report *report.ReportData `json:"report"`
}

// Watch takes the run so far (surge.Options.Watch) and pushes it to every
// page. A page that has not taken the last update misses this one: no
// page ever holds the run up.
func (s *Server) Watch(r *result.Result) {
	s.publish(r, "running")
}

// Finish pushes the final result, marked done.
func (s *Server) Finish(r *result.Result) {
	s.publish(r, "done")
}

func (s *Server) publish(r *result.Result, state string) {
	u := update{Status: s.status(r, state), Report: report.NewReportData(r)}
	u.Report.ForLive()
	if state == "running" {
		v := &u.Report.Verdict
		v.Status, v.Headline = runningVerdict(r, s.cfg.Planned)
	}
	b, err := json.Marshal(u)
	if err != nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.latest = b
	for c := range s.clients {
		select {
		case c <- b:
		default: // the page is behind: it gets the next one
		}
	}
}

// subscribe registers a page for updates; cancel ends it.
func (s *Server) subscribe() (ch chan []byte, latest []byte, cancel func()) {
	ch = make(chan []byte, 1)
	s.mu.Lock()
	s.clients[ch] = struct{}{}
	latest = s.latest
	s.mu.Unlock()
	return ch, latest, func() {
		s.mu.Lock()
		delete(s.clients, ch)
		s.mu.Unlock()
	}
}

// runningVerdict says how a run going on stands: its progress and its
// thresholds so far.
func runningVerdict(r *result.Result, planned time.Duration) (status, headline string) {
	headline = fmt.Sprintf("Running: %.0fs of %.0fs", r.Run.CoveredS, planned.Seconds())
	if len(r.Thresholds) == 0 {
		return "none", headline + " · no thresholds set"
	}
	failed := 0
	for _, t := range r.Thresholds {
		if !t.OK {
			failed++
		}
	}
	if failed > 0 {
		return "fail", fmt.Sprintf("%s · so far %d of %d thresholds failing", headline, failed, len(r.Thresholds))
	}
	return "pass", fmt.Sprintf("%s · so far all %d thresholds passing", headline, len(r.Thresholds))
}

var errUnauthorized = errors.New("missing or wrong token: send the token printed with the page's URL as Authorization: Bearer TOKEN")
