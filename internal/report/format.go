package report

import "github.com/surge-load/surge/internal/format"

// The formats report shares with the library (package format).
var (
	// Ms formats milliseconds the way people read durations.
	Ms = format.Ms
	// Level formats a load level of a capacity search: "40 users", "375/s".
	Level = format.Level
)
