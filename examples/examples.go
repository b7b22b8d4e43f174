// Package examples holds the example scenario files, embedded so that the
// surge command can run them (surge quickstart) wherever it is installed.
// Each file is documented at its top and explained in docs/scenarios.md.
package examples

import "embed"

// Files holds every example scenario file, by its base name.
//
//go:embed *.yaml
var Files embed.FS
