package servertest

import (
	"bytes"
	"net"
	"net/http"
	"sync"
	"testing"
)

// Raw accepts TCP connections on 127.0.0.1 and hands each to serve in a
// goroutine of its own. It returns the address; when the test ends the
// listener and every connection are closed, and Raw waits for the serve
// calls to return.
func Raw(t testing.TB, serve func(net.Conn)) string {
	t.Helper()
	ln := listen(t)
	var (
		mu    sync.Mutex
		conns []net.Conn
		wg    sync.WaitGroup
	)
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
			wg.Add(1)
			go func() { defer wg.Done(); serve(c) }()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		for _, c := range conns {
			c.Close()
		}
		mu.Unlock()
		wg.Wait()
	})
	return ln.Addr().String()
}

// Hold accepts TCP connections on 127.0.0.1 and calls answer with each in
// the accept loop itself, so that the server keeps no goroutine per
// connection; it then holds the connection open until the test ends or
// closeAll is called. With answer nil a connection is accepted and never
// answered: a hung server. It returns the address.
func Hold(t testing.TB, answer func(net.Conn)) (addr string, closeAll func()) {
	t.Helper()
	ln := listen(t)
	var (
		mu   sync.Mutex
		held []net.Conn // kept reachable: a finalizer would close them
	)
	closeAll = func() {
		mu.Lock()
		defer mu.Unlock()
		for _, c := range held {
			c.Close()
		}
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			if answer != nil {
				answer(c)
			}
			mu.Lock()
			held = append(held, c)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		<-done
		closeAll()
	})
	return ln.Addr().String(), closeAll
}

// Canned answers every request on a connection with resp, without
// parsing more than the end of its head (so it allocates nothing per
// request), and returns the address.
func Canned(t testing.TB, resp []byte) string {
	return Raw(t, func(c net.Conn) {
		defer c.Close()
		buf := make([]byte, 4096)
		n := 0
		for {
			m, err := c.Read(buf[n:])
			if err != nil {
				return
			}
			n += m
			for {
				i := bytes.Index(buf[:n], []byte("\r\n\r\n"))
				if i < 0 {
					break
				}
				n = copy(buf, buf[i+4:n])
				if _, err := c.Write(resp); err != nil {
					return
				}
			}
		}
	})
}

func listen(t testing.TB) net.Listener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return ln
}

// A StatusWriter is an http.ResponseWriter that keeps the status code of
// the response.
type StatusWriter struct {
	http.ResponseWriter
	code int
}

// WriteHeader records code and writes it.
func (w *StatusWriter) WriteHeader(code int) {
	if w.code == 0 {
		w.code = code
	}
	w.ResponseWriter.WriteHeader(code)
}

// Status returns the status code written: http.StatusOK if the handler
// wrote none, as net/http then sends.
func (w *StatusWriter) Status() int {
	if w.code == 0 {
		return http.StatusOK
	}
	return w.code
}
