package httpc

import (
	"errors"
	"io"
	"net"
	"os"
	"syscall"
	"testing"
	"time"
)

// socketPair returns both ends of a loopback TCP connection.
func socketPair(t *testing.T) (client *net.TCPConn, server *net.TCPConn) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		c, _ := ln.Accept()
		accepted <- c
	}()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	s := <-accepted
	if s == nil {
		t.Fatal("accept failed")
	}
	t.Cleanup(func() { c.Close(); s.Close() })
	return c.(*net.TCPConn), s.(*net.TCPConn)
}

// sameError fails unless got is what net.Conn returns: want's type, Op,
// Net, addresses and cause.
func sameError(t *testing.T, what string, got, want error) {
	t.Helper()
	if got == nil || want == nil {
		t.Fatalf("%s: raw %v, net.Conn %v", what, got, want)
	}
	if got == io.EOF || want == io.EOF {
		if got != want {
			t.Fatalf("%s: raw %v, net.Conn %v", what, got, want)
		}
		return
	}
	g, ok1 := got.(*net.OpError)
	w, ok2 := want.(*net.OpError)
	if !ok1 || !ok2 {
		t.Fatalf("%s: raw %T %v, net.Conn %T %v", what, got, got, want, want)
	}
	if g.Op != w.Op || g.Net != w.Net || g.Err.Error() != w.Err.Error() {
		t.Fatalf("%s: raw %q, net.Conn %q", what, got, want)
	}
}

func TestRawSocketReadsAndWrites(t *testing.T) {
	c, s := socketPair(t)
	raw := newRawSocket(c)
	if raw == nil {
		t.Fatal("no raw socket under a TCP connection")
	}
	if n, err := raw.write([]byte("hello")); n != 5 || err != nil {
		t.Fatalf("write: %d, %v", n, err)
	}
	buf := make([]byte, 5)
	if _, err := io.ReadFull(s, buf); err != nil || string(buf) != "hello" {
		t.Fatalf("server read %q, %v", buf, err)
	}
	if _, err := s.Write([]byte("world")); err != nil {
		t.Fatal(err)
	}
	got := make([]byte, 0, 5)
	for len(got) < 5 {
		n, err := raw.read(buf[:5-len(got)])
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, buf[:n]...)
	}
	if string(got) != "world" {
		t.Fatalf("read %q", got)
	}
	if n, err := raw.read(nil); n != 0 || err != nil {
		t.Fatalf("empty read: %d, %v", n, err)
	}
	// A large write that fills the socket's buffers waits for the peer.
	big := make([]byte, 8<<20)
	done := make(chan error, 1)
	go func() {
		_, err := io.CopyN(io.Discard, s, int64(len(big)))
		done <- err
	}()
	if n, err := raw.write(big); n != len(big) || err != nil {
		t.Fatalf("big write: %d, %v", n, err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

func TestRawSocketErrorsAreNetConns(t *testing.T) {
	buf := make([]byte, 16)

	// The end of the stream.
	c, s := socketPair(t)
	s.Close()
	_, err := newRawSocket(c).read(buf)
	c2, s2 := socketPair(t)
	s2.Close()
	_, want := c2.Read(buf)
	sameError(t, "EOF", err, want)

	// A deadline in the past.
	c, _ = socketPair(t)
	c.SetReadDeadline(time.Now().Add(-time.Second))
	_, err = newRawSocket(c).read(buf)
	c2, _ = socketPair(t)
	c2.SetReadDeadline(time.Now().Add(-time.Second))
	_, want = c2.Read(buf)
	sameError(t, "deadline", err, want)
	if !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("deadline: %v is not os.ErrDeadlineExceeded", err)
	}

	// A deadline that passes while waiting.
	c, _ = socketPair(t)
	c.SetReadDeadline(time.Now().Add(10 * time.Millisecond))
	if _, err = newRawSocket(c).read(buf); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("waiting read past its deadline: %v", err)
	}

	// A connection closed on our side.
	c, _ = socketPair(t)
	raw := newRawSocket(c)
	c.Close()
	_, err = raw.read(buf)
	c2, _ = socketPair(t)
	c2.Close()
	_, want = c2.Read(buf)
	sameError(t, "closed", err, want)
	if !errors.Is(err, net.ErrClosed) {
		t.Fatalf("closed: %v is not net.ErrClosed", err)
	}
	_, err = raw.write([]byte("x"))
	_, want = c2.Write([]byte("x"))
	sameError(t, "write on closed", err, want)

	// A reset by the peer.
	c, s = socketPair(t)
	s.SetLinger(0)
	s.Close()
	raw = newRawSocket(c)
	for {
		if _, err = raw.read(buf); err != nil {
			break
		}
	}
	if !errors.Is(err, syscall.ECONNRESET) {
		t.Fatalf("reset: %v is not ECONNRESET", err)
	}
	if oe, ok := err.(*net.OpError); !ok || oe.Op != "read" || oe.Net != "tcp" {
		t.Fatalf("reset: %#v", err)
	}
	var se *os.SyscallError
	if !errors.As(err, &se) || se.Syscall != "read" {
		t.Fatalf("reset: %v is not an *os.SyscallError of read", err)
	}
}

func TestRawSocketOnlyUnderTCP(t *testing.T) {
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	if newRawSocket(a) != nil {
		t.Fatal("a raw socket under a pipe")
	}
}
