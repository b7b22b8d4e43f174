package scenario

import (
	"io/fs"
	"os"
	"path/filepath"
	"time"

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
	// means the working directory. FS, if not nil, holds the data files
	// instead.
	Dir string
	FS  fs.FS

	// HTTP configures every virtual user's HTTP client; Defaults.Timeout,
	// when set, replaces its Timeout.
	HTTP httpc.Options
}

// readFile reads a data file as the options say.
func (o *Options) readFile(name string) ([]byte, error) {
	if o.FS != nil {
		return fs.ReadFile(o.FS, filepath.ToSlash(filepath.Clean(name)))
	}
	if !filepath.IsAbs(name) && o.Dir != "" {
		name = filepath.Join(o.Dir, name)
	}
	return os.ReadFile(name)
}
