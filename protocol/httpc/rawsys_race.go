//go:build race

package httpc

import "syscall"

// sysRead and sysWrite go through package syscall's Read and Write in a
// race-detector build: those tell the detector that what was written to a
// file descriptor happens before what is read from it, the edge between
// a test server's handler and the test that reads what it recorded after
// the response. A raw system call tells it nothing, and every such test
// would report a race that is not there. The semantics are the same; only
// the scheduler's bookkeeping differs.
func sysRead(fd uintptr, p []byte) (int, syscall.Errno) {
	return result(syscall.Read(int(fd), p))
}

func sysWrite(fd uintptr, p []byte) (int, syscall.Errno) {
	return result(syscall.Write(int(fd), p))
}

func result(n int, err error) (int, syscall.Errno) {
	if err != nil {
		return 0, err.(syscall.Errno)
	}
	return n, 0
}
