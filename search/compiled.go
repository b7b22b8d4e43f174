package search

import (
	"time"

	"github.com/surge-load/surge"
	"github.com/surge-load/surge/scenario"
)

// Compiled returns the Build of a search over a scenario: for every step,
// compile is called with base, its Users (model Users) or Rate (model
// Rate) set to the level and its Duration to the step. Every scenario's
// peak then becomes the level, keeping the shape of its ramps, and the
// plan's timeline is rescaled to the step; a ramp at the start of the
// scenarios belongs in the warm-up. The scenarios' load models must be
// those of the model: the closed or iterations model for Users, the open
// model for Rate.
//
// compile is scenario.Compile of a Spec, or yamlfile.Load of a scenario
// file, with base as its options.
func Compiled(model Model, base scenario.Options, compile func(scenario.Options) (*surge.Plan, error)) Build {
	return func(level float64, d time.Duration) (*surge.Plan, error) {
		o := base
		if model == Users {
			o.Users, o.Rate = int(level), 0
		} else {
			o.Rate, o.Users = level, 0
		}
		o.Duration = d
		return compile(o)
	}
}
