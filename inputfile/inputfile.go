// Package inputfile reads the files a test is built from (scenario files,
// their data files, request bodies) within bounds: regular files only
// unless the caller allows devices and pipes, at most a given number of
// bytes (so /dev/zero or a huge file cannot exhaust memory), and, for the
// files a scenario names, only inside the directories it is confined to.
package inputfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Default size limits, raised by the caller (surge's --max-file-size).
const (
	DefaultMaxScenarioBytes = 4 << 20   // a scenario file
	DefaultMaxDataBytes     = 256 << 20 // a data file (csv, jsonl)
	DefaultMaxBodyBytes     = 64 << 20  // a request body (--body @file)
)

// A TooLargeError says that a file is over its size limit.
type TooLargeError struct {
	Path       string
	Kind       string // "scenario file", "data file", "body file"
	LimitBytes int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s is larger than %d bytes, the limit for a %s (raise it with --max-file-size)", e.Path, e.LimitBytes, e.Kind)
}

// Read reads the file at path, a file of the kind named (for messages), of
// at most maxBytes bytes. It must be a regular file unless allowSpecial
// (then a device, a pipe or a socket is read up to maxBytes too).
func Read(path, kind string, maxBytes int64, allowSpecial bool) ([]byte, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s: %w; check the path of the %s", path, fs.ErrNotExist, kind)
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	switch {
	case fi.IsDir():
		return nil, fmt.Errorf("%s is a directory, not a %s", path, kind)
	case !fi.Mode().IsRegular() && !allowSpecial:
		return nil, fmt.Errorf("%s is not a regular file (%s); a %s must be one (--allow-special-files reads devices and pipes)", path, typeOf(fi.Mode()), kind)
	case fi.Mode().IsRegular() && fi.Size() > maxBytes:
		return nil, &TooLargeError{Path: path, Kind: kind, LimitBytes: maxBytes}
	}
	b, err := io.ReadAll(io.LimitReader(f, maxBytes+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > maxBytes {
		return nil, &TooLargeError{Path: path, Kind: kind, LimitBytes: maxBytes}
	}
	return b, nil
}

// typeOf names the type of a file that is not regular.
func typeOf(m fs.FileMode) string {
	switch {
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "mode " + m.Type().String()
}

// ErrOutside is the error of a path outside the directories it is
// confined to.
var ErrOutside = errors.New("outside the directories data files may be read from")

// Confine checks that path, with symbolic links resolved, is inside one of
// dirs (each also resolved). written is the path as the user wrote it
// (relative to the scenario file, say), which the error shows beside the
// resolved absolute one, with the directories; the error wraps ErrOutside.
func Confine(written, path string, dirs []string) error {
	real, err := filepath.EvalSymlinks(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil // nothing to read outside: Read says it is missing
	}
	if err != nil {
		return err
	}
	real, err = filepath.Abs(real)
	if err != nil {
		return err
	}
	var shown []string
	for _, d := range dirs {
		rd, err := filepath.EvalSymlinks(d)
		if err != nil {
			continue
		}
		if rd, err = filepath.Abs(rd); err != nil {
			continue
		}
		shown = append(shown, rd)
		if rel, err := filepath.Rel(rd, real); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return nil
		}
	}
	name := fmt.Sprintf("%q", written)
	if written != real {
		name += " (" + real + ")"
	}
	return fmt.Errorf("%s is %w (%s); a scenario file is code: it reads only beside itself unless --allow-path DIR widens that",
		name, ErrOutside, strings.Join(shown, ", "))
}
