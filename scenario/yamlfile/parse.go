package yamlfile

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"

	"github.com/surge-load/surge"
	"github.com/surge-load/surge/inputfile"
	"github.com/surge-load/surge/scenario"
)

// Parse parses a scenario file into a Spec and the positions of its fields.
// name is the file's name in messages. Every problem found is reported,
// up to scenario.MaxErrors, as scenario.Errors with positions; Parse never
// panics, whatever src holds.
func Parse(name string, src []byte) (*scenario.Spec, Positions, error) {
	spec, pos, err := parse(name, src)
	if err != nil {
		return nil, nil, err
	}
	return spec, pos, nil
}

// parse is Parse, but it returns the Spec decoded despite the problems
// found, if the YAML itself could be parsed, for Compile to check too.
func parse(name string, src []byte) (spec *scenario.Spec, pos Positions, err error) {
	root, err := parseYAML(name, src)
	if err != nil {
		return nil, nil, err
	}
	d := &decoder{file: name, pos: Positions{}, anchors: map[string]ast.Node{}}
	d.collectAnchors(root, 0)
	if root == nil {
		d.errs = append(d.errs, &scenario.Error{File: name, Line: 1, Col: 1, Msg: "the file is empty",
			Fix: "start with target: http://host:port and scenarios:"})
		return nil, nil, d.errs
	}
	spec = d.spec(root)
	if len(d.errs) > 0 {
		return spec, d.pos, d.errs.Sort()
	}
	return spec, d.pos, nil
}

// parseYAML parses src into the body of its one document, after a UTF-8
// byte order mark is dropped and prescan has checked its shape.
func parseYAML(name string, src []byte) (root ast.Node, err error) {
	src = bytes.TrimPrefix(src, []byte("\ufeff"))
	if err := prescan(name, src); err != nil {
		return nil, err
	}
	defer func() {
		if r := recover(); r != nil {
			root, err = nil, scenario.Errors{{File: name, Line: 1, Col: 1, Msg: fmt.Sprintf("the YAML parser failed: %v", r)}}
		}
	}()
	f, err := parser.ParseBytes(src, 0)
	if err != nil {
		e := &scenario.Error{File: name, Line: 1, Col: 1, Msg: err.Error()}
		var se *yaml.SyntaxError
		if errors.As(err, &se) {
			e.Msg = se.Message
			if se.Token != nil && se.Token.Position != nil {
				e.Line, e.Col = se.Token.Position.Line, se.Token.Position.Column
			}
		}
		e.Fix = "check the indentation, colons and quotes there"
		return nil, scenario.Errors{e}
	}
	var docs []*ast.DocumentNode
	for _, d := range f.Docs {
		if d != nil && d.Body != nil {
			docs = append(docs, d)
		}
	}
	switch len(docs) {
	case 0:
		return nil, nil
	case 1:
		return docs[0].Body, nil
	}
	line, col := at(docs[1].Body)
	return nil, scenario.Errors{{File: name, Line: line, Col: col, Msg: "the file has more than one YAML document",
		Fix: "keep one: put each test in a file of its own"}}
}

// Compile parses a scenario file and compiles it with scenario.Compile,
// placing every problem in the file. Relative data file names are read
// from opts.Dir.
//
// A file with problems of form (unknown keys, wrong types) is compiled
// anyway, so that all its problems are reported at once; the problems
// Compile finds in a field that already has one are left out.
func Compile(name string, src []byte, opts scenario.Options) (*surge.Plan, error) {
	f, err := open(name, src)
	if err != nil {
		return nil, err
	}
	return f.Compile(opts)
}

// related reports whether path is, contains or is inside the field of one
// of errs.
func related(path string, errs scenario.Errors) bool {
	for _, e := range errs {
		if e.Path == "" || path == "" || path == e.Path ||
			strings.HasPrefix(e.Path, path+".") || strings.HasPrefix(e.Path, path+"[") ||
			strings.HasPrefix(path, e.Path+".") || strings.HasPrefix(path, e.Path+"[") {
			return true
		}
	}
	return false
}

// ReadFile reads the scenario file at path within the bounds of opts: a
// regular file (unless opts.AllowSpecialFiles) of at most opts.FileLimit
// bytes (inputfile.DefaultMaxScenarioBytes by default).
func ReadFile(path string, opts scenario.Options) ([]byte, error) {
	src, err := inputfile.Read(path, "scenario file", opts.FileLimit(inputfile.DefaultMaxScenarioBytes), opts.AllowSpecialFiles)
	if err != nil {
		return nil, fmt.Errorf("read scenario file: %w", err)
	}
	return src, nil
}

// Load reads, parses and compiles the scenario file at path. Relative data
// file names are read from the file's directory unless opts.Dir says
// otherwise, and data files are confined to that directory and
// opts.AllowPaths.
func Load(path string, opts scenario.Options) (*surge.Plan, error) {
	f, err := Open(path, opts)
	if err != nil {
		return nil, err
	}
	return f.Compile(opts)
}
