package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/surge-load/surge/inputfile"
	"github.com/surge-load/surge/scenario"
)

// inputFlags bound the files a test is built from: the scenario file, its
// data files and a request body.
type inputFlags struct {
	maxFileSize  string
	allowSpecial bool
	allowPaths   []string
}

func (f *inputFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&f.maxFileSize, "max-file-size", "", fmt.Sprintf("size limit of each input file, such as 512MiB (default: %d MiB for a scenario file, %d MiB for a data file, %d MiB for --body @FILE)",
		inputfile.DefaultMaxScenarioBytes>>20, inputfile.DefaultMaxDataBytes>>20, inputfile.DefaultMaxBodyBytes>>20))
	fs.BoolVar(&f.allowSpecial, "allow-special-files", false, "let input files be devices, named pipes or sockets (still read up to the size limit)")
	fs.StringArrayVar(&f.allowPaths, "allow-path", nil, "scenario file: a directory its data files may be read from besides the file's own (repeatable)")
}

// apply sets the input bounds of the flags in opts.
func (f *inputFlags) apply(opts *scenario.Options) error {
	n, err := f.maxBytes()
	if err != nil {
		return err
	}
	opts.MaxFileBytes, opts.AllowSpecialFiles, opts.AllowPaths = n, f.allowSpecial, f.allowPaths
	return nil
}

// maxBytes returns the size limit of --max-file-size, 0 if not given.
func (f *inputFlags) maxBytes() (int64, error) {
	if f == nil || f.maxFileSize == "" {
		return 0, nil
	}
	n, err := parseBytes(f.maxFileSize)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("--max-file-size %q: want a positive size such as 64MiB, 1GB or 1048576", f.maxFileSize)
	}
	return n, nil
}

// byteUnits are the suffixes parseBytes knows, longest first.
var byteUnits = []struct {
	suffix string
	n      int64
}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"K", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30}, {"B", 1}}

// parseBytes parses a size: a whole number of bytes with an optional unit.
func parseBytes(s string) (int64, error) {
	s = strings.TrimSpace(s)
	mult := int64(1)
	for _, u := range byteUnits {
		if rest, ok := strings.CutSuffix(s, u.suffix); ok {
			s, mult = strings.TrimSpace(rest), u.n
			break
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, err
	}
	if n > (1<<62)/mult {
		return 0, fmt.Errorf("%s is too large", s)
	}
	return n * mult, nil
}
