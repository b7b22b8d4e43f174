// Package format writes the figures of a run the way people read them, for
// the reports and for the messages of the library (the search's verdict).
package format

import (
	"fmt"
	"strconv"
)

// Ms formats milliseconds the way people read durations.
func Ms(ms float64) string {
	switch {
	case ms == 0:
		return "0"
	case ms >= 10000:
		return fmt.Sprintf("%.1fs", ms/1000)
	case ms >= 1000:
		return fmt.Sprintf("%.2fs", ms/1000)
	case ms >= 100:
		return fmt.Sprintf("%.0fms", ms)
	case ms >= 10:
		return fmt.Sprintf("%.1fms", ms)
	case ms >= 1:
		return fmt.Sprintf("%.2fms", ms)
	}
	return fmt.Sprintf("%.0fµs", ms*1000)
}

// Level formats a load level of a capacity search for people: "40 users"
// in the "users" model, "375/s" in the "rate" model.
func Level(model string, level float64) string {
	v := strconv.FormatFloat(level, 'f', -1, 64)
	if model == "users" {
		if level == 1 {
			return "1 user"
		}
		return v + " users"
	}
	return v + "/s"
}
