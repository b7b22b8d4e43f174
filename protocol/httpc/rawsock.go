package httpc

import (
	"io"
	"net"
	"os"
	"syscall"
	"unsafe"
)

// rawSocket reads and writes a TCP connection's non-blocking socket with
// raw system calls, waiting for readiness in the runtime's network poller
// as net.Conn does (deadlines and Close included: it goes through
// syscall.RawConn). What it saves is the scheduler's bookkeeping around
// every system call: a Go system call on a processor that was idle wakes
// the runtime's monitor thread, which then polls every 20 µs for a while.
// A generator that goes idle between requests (the open model at a few
// thousand requests a second) paid for that wake-up per request, on the
// core it measures with. A read or a write on a non-blocking socket never
// blocks, so nothing needs the processor handed off during it.
//
// Its errors are those of net.Conn: *net.OpError with Op "read" or
// "write" around an *os.SyscallError or the poller's error, io.EOF
// unwrapped.
type rawSocket struct {
	conn *net.TCPConn
	rc   syscall.RawConn

	// A read and a write can be in flight at once (net/http's reader and
	// writer goroutines): each has its own call.
	r, w rawCall
}

// rawCall is a read or a write in flight on a rawSocket.
type rawCall struct {
	fn    func(fd uintptr) bool // does the system call on p
	p     []byte                // the buffer
	n     int
	errno syscall.Errno
}

// newRawSocket returns the raw socket under conn, or nil if conn is not a
// TCP connection.
func newRawSocket(conn net.Conn) *rawSocket {
	tc, ok := conn.(*net.TCPConn)
	if !ok {
		return nil
	}
	rc, err := tc.SyscallConn()
	if err != nil {
		return nil
	}
	s := &rawSocket{conn: tc, rc: rc}
	r, w := &s.r, &s.w
	r.fn = func(fd uintptr) bool {
		for {
			n, e := sysRead(fd, r.p)
			switch e {
			case syscall.EINTR:
				continue
			case syscall.EAGAIN:
				return false
			}
			r.n, r.errno = n, e
			return true
		}
	}
	w.fn = func(fd uintptr) bool {
		for len(w.p) > 0 {
			n, e := sysWrite(fd, w.p)
			switch e {
			case syscall.EINTR:
				continue
			case syscall.EAGAIN:
				return false
			case 0:
				w.n += n
				w.p = w.p[n:]
				if n == 0 {
					return true // io.ErrUnexpectedEOF, as net.Conn's Write
				}
				continue
			}
			w.errno = e
			return true
		}
		return true
	}
	return s
}

// read reads into p as net.Conn's Read does.
func (s *rawSocket) read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	r := &s.r
	r.p, r.n, r.errno = p, 0, 0
	err := s.rc.Read(r.fn)
	r.p = nil
	switch {
	case err != nil:
		return 0, s.opError("read", err)
	case r.errno != 0:
		return 0, s.opError("read", os.NewSyscallError("read", r.errno))
	case r.n == 0:
		return 0, io.EOF
	}
	return r.n, nil
}

// write writes all of p as net.Conn's Write does.
func (s *rawSocket) write(p []byte) (int, error) {
	w := &s.w
	w.p, w.n, w.errno = p, 0, 0
	err := s.rc.Write(w.fn)
	n, rest := w.n, len(w.p)
	w.p = nil
	switch {
	case err != nil:
		return n, s.opError("write", err)
	case w.errno != 0:
		return n, s.opError("write", os.NewSyscallError("write", w.errno))
	case rest > 0:
		return n, s.opError("write", io.ErrUnexpectedEOF)
	}
	return n, nil
}

// opError wraps err as net.Conn does: a syscall.RawConn's error is an
// *net.OpError of its own ("raw-read"), whose cause is what net.Conn's
// would wrap.
func (s *rawSocket) opError(op string, err error) error {
	if oe, ok := err.(*net.OpError); ok {
		err = oe.Err
	}
	return &net.OpError{Op: op, Net: "tcp", Source: s.conn.LocalAddr(), Addr: s.conn.RemoteAddr(), Err: err}
}

// peekByte reports what a non-blocking peek at one byte of socket fd
// finds: n bytes (0 for the end of the stream) or the error
// (syscall.EAGAIN: nothing yet). A raw system call, as rawSocket's.
func peekByte(fd uintptr, b *[1]byte) (int, error) {
	n, _, e := syscall.RawSyscall6(syscall.SYS_RECVFROM, fd, uintptr(unsafe.Pointer(&b[0])), 1, syscall.MSG_PEEK|syscall.MSG_DONTWAIT, 0, 0)
	if e != 0 {
		return 0, e
	}
	return int(n), nil
}
