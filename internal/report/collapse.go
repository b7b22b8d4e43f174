package report

import (
	"fmt"
	"math"
	"time"

	"github.com/surge-load/surge/result"
)

// CollapseLine describes a collapse in one line, as in "peak 803 rps at
// 2m10s; stopped answering 70 s later; dominant error: connect_refused".
func CollapseLine(c *result.Collapse) string {
	s := fmt.Sprintf("peak %.0f rps at %s; ", c.PeakRPS, Clock(c.PeakAtS))
	if c.Kind == result.CollapseStopped {
		s += fmt.Sprintf("stopped answering %.0f s later", c.AfterPeakS)
	} else {
		s += fmt.Sprintf("errors took over %.0f s later (%.0f%% failed, %.0f rps answered)", c.AfterPeakS, 100*c.ErrorRate, c.RPS)
	}
	if c.DominantError != "" {
		s += "; dominant error: " + c.DominantError
	}
	if c.Recovered {
		s += fmt.Sprintf("; recovered %.0f s after that", c.LastedS)
	} else {
		s += fmt.Sprintf("; did not recover (%.0f s until the load ended)", c.LastedS)
	}
	return s
}

// Clock formats seconds since a run's start as a time of the run, such as
// "2m10s".
func Clock(s float64) string {
	return (time.Duration(math.Round(s)) * time.Second).String()
}
