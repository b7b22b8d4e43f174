package main

import (
	"github.com/spf13/pflag"

	"github.com/surge-load/surge"
	"github.com/surge-load/surge/output"
)

// liveFlags are the flags that follow a run while it goes: outputs, and
// the live page.
type liveFlags struct {
	outputs []string
}

func (f *liveFlags) register(fs *pflag.FlagSet) {
	fs.StringArrayVar(&f.outputs, "output", nil, "stream the run while it goes, as KIND=URL: prometheus-rw=URL, influxdb=URL, otlp=URL or jsonl=FILE (repeatable; see docs/live.md)")
}

// apply adds the flags' outputs to plan.
func (f *liveFlags) apply(plan *surge.Plan) error {
	for _, spec := range f.outputs {
		o, err := output.Parse(spec)
		if err != nil {
			return &codeError{code: exitInvalid, err: err}
		}
		plan.Outputs = append(plan.Outputs, o)
	}
	return nil
}
