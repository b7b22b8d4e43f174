package yamlfile

import (
	"errors"
	"path/filepath"
	"slices"

	"github.com/surge-load/surge"
	"github.com/surge-load/surge/scenario"
)

// A File is a scenario file read and parsed once: its Spec and where each
// of its fields is. Compile compiles it with any options, as often as
// needed (a search compiles it for every step), without reading or
// parsing it again.
type File struct {
	// Name is the file's name in messages.
	Name string
	// Spec is what the file says; Compile reports the problems of form
	// found while decoding it, with those of the whole.
	Spec *scenario.Spec
	// Positions places the Spec's fields in the file.
	Positions Positions
	// Source is the file as it was read.
	Source    []byte
	dir       string          // the directory of the file's data files
	parseErrs scenario.Errors // the problems found while decoding
}

// Open reads the scenario file at path within the bounds of opts
// (ReadFile) and parses it. The error is the file's if it cannot be read
// or holds no YAML document that could be decoded; a file with problems
// of form opens, and Compile reports them.
func Open(path string, opts scenario.Options) (*File, error) {
	src, err := ReadFile(path, opts)
	if err != nil {
		return nil, err
	}
	f, err := open(path, src)
	if err != nil {
		return nil, err
	}
	f.dir = filepath.Dir(path)
	return f, nil
}

// open parses src, the file called name.
func open(name string, src []byte) (*File, error) {
	spec, pos, err := parse(name, src)
	if spec == nil {
		return nil, err
	}
	f := &File{Name: name, Spec: spec, Positions: pos, Source: src}
	errors.As(err, &f.parseErrs)
	return f, nil
}

// Compile compiles the file with opts, as Compile does: every problem is
// placed in the file, the problems of form with the others. Relative data
// file names are read from the file's directory unless opts.Dir or
// opts.FS says otherwise.
func (f *File) Compile(opts scenario.Options) (*surge.Plan, error) {
	if opts.Dir == "" && opts.FS == nil {
		opts.Dir = f.dir
	}
	plan, cerr := scenario.Compile(f.Spec, opts)
	if len(f.parseErrs) == 0 {
		if cerr != nil {
			return nil, f.Locate(cerr)
		}
		return plan, nil
	}
	errs := append(scenario.Errors(nil), f.parseErrs...)
	var more scenario.Errors
	if errors.As(cerr, &more) {
		for _, e := range more {
			if !related(e.Path, errs) {
				errs = append(errs, e)
			}
		}
	}
	return nil, f.Locate(errs)
}

// Locate places the scenario.Errors among errs in the file
// (Positions.Locate) and returns them as one list, sorted by position,
// leaving out those in a field that already has a problem of form; the
// first error of another kind among errs is returned as it is, and nil if
// all are nil.
func (f *File) Locate(errs ...error) error {
	var all scenario.Errors
	for _, err := range errs {
		if err == nil {
			continue
		}
		var es scenario.Errors
		if !errors.As(err, &es) {
			return err
		}
		for _, e := range es {
			if slices.Contains(f.parseErrs, e) || !related(e.Path, f.parseErrs) {
				all = append(all, e)
			}
		}
	}
	if len(all) == 0 {
		return nil
	}
	return f.Positions.Locate(f.Name, all)
}
