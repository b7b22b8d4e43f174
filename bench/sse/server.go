package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/surge-load/surge/demo"
	"github.com/surge-load/surge/health"
)

// serve runs one process of the demo service on c.addr, sharing the port
// with the others through SO_REUSEPORT, until SIGTERM.
func serve(c *config) error {
	if _, err := health.RaiseFileLimit(); err != nil {
		return err
	}
	lc := net.ListenConfig{Control: func(_, _ string, rc syscall.RawConn) error {
		var serr error
		err := rc.Control(func(fd uintptr) {
			serr = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, 0xf /* SO_REUSEPORT */, 1)
		})
		if err != nil {
			return err
		}
		return serr
	}}
	ln, err := lc.Listen(context.Background(), "tcp", c.addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", c.addr, err)
	}
	svc := demo.New(demo.Config{EventInterval: c.interval, KeepAliveInterval: c.keepAlive})
	srv := &http.Server{Handler: svc, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, os.Interrupt)
	<-sig
	svc.Close()
	return srv.Close()
}
