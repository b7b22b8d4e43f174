package search

import "math"

// next returns the level after level while stepping up: never more than
// Max, always more than level.
func (c *Config) next(level float64) float64 {
	n := level * c.Factor
	if c.Add != 0 {
		n = level + c.Add
	}
	n = c.round(n)
	if c.Model == Users {
		n = max(n, level+1)
	}
	if c.Max > 0 {
		n = min(n, c.Max)
	}
	return n
}

// mid returns the level halfway between good and bad, or false if they
// are close enough that no level need be tried between them.
func (c *Config) mid(good, bad float64) (float64, bool) {
	if bad-good <= c.Resolution*good {
		return 0, false
	}
	m := c.round((good + bad) / 2)
	if c.Model == Users {
		m = math.Floor((good + bad) / 2)
	}
	if m <= good || m >= bad {
		return 0, false
	}
	return m, true
}

// round keeps levels readable: whole users; rates to a tenth below 100 per
// second and whole numbers above.
func (c *Config) round(level float64) float64 {
	switch {
	case c.Model == Users:
		return math.Round(level)
	case level < 100:
		return math.Round(level*10) / 10
	}
	return math.Round(level)
}
