// Package leaktest counts what a test may leave behind: this process's
// open file descriptors.
package leaktest

import (
	"os"
	"testing"
	"time"
)

// OpenFDs counts this process's open file descriptors; it skips t where
// /proc/self/fd cannot be read.
func OpenFDs(t testing.TB) int {
	t.Helper()
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skipf("no /proc/self/fd: %v", err)
	}
	return len(fds)
}

// SettledFDs waits, at most a second, for the open descriptors to fall to
// limit or fewer (connections closing on their way out), and returns the
// last count.
func SettledFDs(t testing.TB, limit int) int {
	t.Helper()
	n := OpenFDs(t)
	for i := 0; i < 50 && n > limit; i++ {
		time.Sleep(20 * time.Millisecond)
		n = OpenFDs(t)
	}
	return n
}
