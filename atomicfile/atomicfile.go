// Package atomicfile writes output files so that a reader sees either the
// old file or the whole new one, never a part: the content goes to a
// temporary file beside the destination, is synced to the disk, and is
// renamed over it; then the directory is synced, so that the rename
// survives a crash. A full disk or a failed write leaves the previous file
// as it was.
//
// Check tells, before any work is done, whether a destination can be
// written at all, so that a long run is not lost to a typo in a path.
package atomicfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Write writes what write produces to path, atomically. An existing file
// keeps its permissions; a new one gets mode 0644 (less the umask). On any
// error the destination is untouched and the temporary file removed.
func Write(path string, write func(io.Writer) error) (err error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	mode := fs.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		if !fi.Mode().IsRegular() {
			return fmt.Errorf("write %s: not a regular file", path)
		}
		mode = fi.Mode().Perm()
	}
	tmp, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, unwrapPath(err))
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	bw := bufio.NewWriterSize(tmp, 64<<10)
	if err := write(bw); err != nil {
		return fmt.Errorf("write %s: %w", path, unwrapPath(err))
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write %s: %w", path, unwrapPath(err))
	}
	if err := tmp.Chmod(mode); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("write %s: sync: %w", path, unwrapPath(err))
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if d, err := os.Open(dir); err == nil {
		// Some file systems cannot sync a directory; the rename is done
		// either way.
		_ = d.Sync()
		d.Close()
	}
	return nil
}

// WriteBytes writes b to path, atomically, as Write does.
func WriteBytes(path string, b []byte) error {
	return Write(path, func(w io.Writer) error {
		_, err := w.Write(b)
		return err
	})
}

// Check reports whether Write could write path: its directory exists and
// takes a new file, and path is not a directory or other non-regular file.
// It creates nothing that outlives it. The error names the path and the
// reason.
func Check(path string) error {
	if path == "" {
		return errors.New("empty file name")
	}
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
		if fi.IsDir() {
			return fmt.Errorf("%s is a directory; give a file name", path)
		}
		return fmt.Errorf("%s is not a regular file", path)
	}
	return writableDir(filepath.Dir(path), path)
}

// writableDir reports whether a new file can be created in dir, naming
// what in its error.
func writableDir(dir, what string) error {
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s: directory %s does not exist", what, dir)
	case err != nil:
		return fmt.Errorf("%s: %w", what, err)
	case !fi.IsDir():
		return fmt.Errorf("%s: %s is not a directory", what, dir)
	}
	tmp, err := os.CreateTemp(dir, ".surge-check-*")
	if err != nil {
		return fmt.Errorf("%s cannot be written: %w", what, unwrapPath(err))
	}
	tmp.Close()
	os.Remove(tmp.Name())
	return nil
}

// CheckDir reports whether files can be written into dir, creating it if
// it does not exist (as a writer of several files into a directory does).
func CheckDir(dir string) error {
	if dir == "" {
		return errors.New("empty directory name")
	}
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		return fmt.Errorf("%s is not a directory", dir)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("%s cannot be created: %w", dir, unwrapPath(err))
	}
	return writableDir(dir, dir)
}

// unwrapPath drops the *fs.PathError around err, whose path is a temporary
// name that means nothing to the reader.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
