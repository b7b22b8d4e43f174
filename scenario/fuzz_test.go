package scenario

import "testing"

// FuzzParsePause checks that no input makes ParsePause, the parser of think
// times and sleeps ("1s", "1s..3s"), panic, and that what it accepts is a
// pause that can be waited: 0 <= Min, and Max either 0 or at least Min.
func FuzzParsePause(f *testing.F) {
	for _, s := range []string{"1s", "1s..3s", "0s", "500ms..500ms", "3s..1s", "-1s", "1s..", "..1s", "1h..2562047h", "1.5µs"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParsePause(s)
		if err != nil {
			return
		}
		if p.Min < 0 || p.Max != 0 && p.Max < p.Min {
			t.Fatalf("%q: accepted %+v", s, p)
		}
	})
}
