package scenario

import (
	"io/fs"
	"math/rand/v2"
	"path/filepath"
	"time"

	"github.com/surge-load/surge/inputfile"
	"github.com/surge-load/surge/monitor"
	"github.com/surge-load/surge/protocol/httpc"
)

// Options change how a Spec is compiled, from outside it: the overrides of
// the command line, and where data files are.
type Options struct {
	// Target, if not empty, replaces Spec.Target.
	Target string
	// Scenarios, if not empty, names the scenarios to run; the others are
	// checked but left out of the plan.
	Scenarios []string
	// Env holds values for env(), looked up before the process
	// environment.
	Env map[string]string
	// Monitors are sources watched besides the file's monitor: map (from
	// --monitor); one with the name of a source of the file replaces it.
	// The file's thresholds may name them.
	Monitors []monitor.Spec

	// Users, if positive, sets the peak number of users of every scenario
	// (closed and iterations models), keeping the shape of its ramps.
	Users int
	// Rate, if positive, sets the peak arrival rate per second of every
	// scenario (open model), keeping the shape of its stages.
	Rate float64
	// Think, if not nil, replaces the think time of every scenario whose
	// users loop (closed and iterations models).
	Think *Pause
	// Duration, if positive, rescales the whole plan's timeline, start
	// offsets, ramps, stages, burst periods and warm-up included, so that
	// the run lasts Duration. Think times and sleeps are not scaled.
	Duration time.Duration

	// Dir is the directory relative data file names are read from; empty
	// means the working directory. When Dir is set (yamlfile.Load sets it
	// to the scenario file's directory), data files are confined to it and
	// to AllowPaths: a scenario file is code, and must not read, and send to
	// its target, any file the user can read. FS, if not nil, holds the
	// data files instead.
	Dir        string
	AllowPaths []string
	FS         fs.FS
	// MaxFileBytes, if positive, is the size limit of every file read: the
	// scenario file (yamlfile.Load) and each data file. Zero means the
	// defaults, inputfile.DefaultMaxScenarioBytes and DefaultMaxDataBytes.
	MaxFileBytes int64
	// AllowSpecialFiles lets the scenario and data files be devices, named
	// pipes or sockets (still read up to the size limit); by default they
	// must be regular files.
	AllowSpecialFiles bool

	// Seed seeds every random draw of the run: pick, randInt, randFloat,
	// uuid, normal, lognormal, exponential, zipf, pickw, the choice of
	// tasks and the length of sleeps. Each virtual user draws from a
	// generator of its own, seeded from Seed, its scenario and its id, so a
	// run with the same Seed draws the same values for each user. Zero
	// means a seed picked at random; the plan records the seed used
	// (Plan.Spec's "seed").
	Seed uint64

	// HTTP configures every virtual user's HTTP client; Defaults.Timeout,
	// when set, replaces its Timeout.
	HTTP httpc.Options
}

// seed returns the seed of the run: o.Seed, or a random one.
func (o *Options) seed() uint64 {
	if o.Seed != 0 {
		return o.Seed
	}
	return 1 + rand.Uint64N(1<<53-1) // never 0, and exact in any JSON reader
}

// readFile reads a data file as the options say: confined to Dir and
// AllowPaths when Dir is set, and within the size limit.
func (o *Options) readFile(name string) ([]byte, error) {
	if o.FS != nil {
		return fs.ReadFile(o.FS, filepath.ToSlash(filepath.Clean(name)))
	}
	if o.Dir != "" {
		written := name
		if !filepath.IsAbs(name) {
			name = filepath.Join(o.Dir, name)
		}
		if err := inputfile.Confine(written, name, append([]string{o.Dir}, o.AllowPaths...)); err != nil {
			return nil, err
		}
	}
	return inputfile.Read(name, "data file", o.FileLimit(inputfile.DefaultMaxDataBytes), o.AllowSpecialFiles)
}

// FileLimit returns the size limit of a file whose default limit is def.
func (o *Options) FileLimit(def int64) int64 {
	if o.MaxFileBytes > 0 {
		return o.MaxFileBytes
	}
	return def
}
