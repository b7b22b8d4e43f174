package demo

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"
)

// shutdownTimeout bounds how long Server.Close waits for requests in
// progress before closing their connections.
const shutdownTimeout = 2 * time.Second

// Server is a Service listening on a TCP address.
type Server struct {
	URL     string // base URL, such as "http://127.0.0.1:41234"
	Addr    string // listening address, host:port
	Service *Service

	srv       *http.Server
	closeOnce sync.Once
	closeErr  error
	done      chan struct{} // closed when the server has shut down
}

// Start validates cfg, listens on addr ("127.0.0.1:0" picks a free port)
// and serves a new Service in the background until ctx is done or Close
// is called.
func Start(ctx context.Context, addr string, cfg Config) (*Server, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("demo: listen on %s: %w", addr, err)
	}
	svc := New(cfg)
	s := &Server{
		URL:     "http://" + ln.Addr().String(),
		Addr:    ln.Addr().String(),
		Service: svc,
		srv: &http.Server{
			Handler:           svc,
			ReadHeaderTimeout: 10 * time.Second,
			IdleTimeout:       2 * time.Minute,
		},
		done: make(chan struct{}),
	}
	// Event streams never end on their own: end them when shutdown starts
	// so that Shutdown can drain the other requests.
	s.srv.RegisterOnShutdown(svc.events.close)
	serveErr := make(chan error, 1)
	go func() { serveErr <- s.srv.Serve(ln) }()
	go func() {
		select {
		case <-ctx.Done():
		case <-serveErr: // closed by Close, or the listener failed
		case <-s.done:
			return
		}
		_ = s.Close()
	}()
	return s, nil
}

// Close shuts the server down gracefully: it ends event streams, waits up
// to a short timeout for other requests in progress, then stops the
// Service, cutting off requests still held (by a stall or queue, say) and
// closing their connections. It is safe to call more than once and
// returns the same result each time.
func (s *Server) Close() error {
	s.closeOnce.Do(func() {
		defer close(s.done)
		ctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
		defer cancel()
		err := s.srv.Shutdown(ctx)
		s.Service.Close()
		if err != nil {
			if cerr := s.srv.Close(); cerr != nil {
				s.closeErr = fmt.Errorf("demo: close %s: %w", s.Addr, cerr)
			}
		}
	})
	return s.closeErr
}

// Done returns a channel closed once the server has shut down, whether by
// Close or because the Start context ended.
func (s *Server) Done() <-chan struct{} { return s.done }
