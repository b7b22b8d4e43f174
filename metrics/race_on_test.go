//go:build race

package metrics

// raceEnabled reports whether the race detector is on; tests that measure
// memory or time skip under it, which multiplies both.
const raceEnabled = true
