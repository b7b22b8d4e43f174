package main

import "github.com/surge-load/surge/atomicfile"

// A destination is an output a command will write: the flag that names it
// and its path. An empty path or "-" (standard output) is not checked.
type destination struct {
	flag, path string
	dir        bool // a directory of files, created if needed (--csv)
}

// checkDestinations checks, before any traffic, that every destination can
// be written, so that a long run is not lost to an unwritable path at its
// end. A problem is invalid input (exit 2), with the flag, the path and the
// reason.
func checkDestinations(ds ...destination) error {
	for _, d := range ds {
		if d.path == "" || d.path == "-" {
			continue
		}
		check := atomicfile.Check
		if d.dir {
			check = atomicfile.CheckDir
		}
		if err := check(d.path); err != nil {
			return invalid("--%s: %v", d.flag, err)
		}
	}
	return nil
}
