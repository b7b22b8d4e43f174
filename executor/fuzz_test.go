package executor

import (
	"math"
	"testing"
	"time"
)

// FuzzParseStages checks that no input makes ParseStages panic, and that
// what it accepts is a plan that can run: durations not negative, targets
// finite and not negative, and a total that does not overflow.
// Seeds: below and testdata/fuzz/FuzzParseStages.
func FuzzParseStages(f *testing.F) {
	for _, s := range []string{"30s:100,2m:100,10s:0", "1m:500", " 1s : 1.5 ", "0s:0", "1h:1e6", "30s:100/s", "-1s:5", "1s:NaN", "1s:-Inf", ",", ":", "2562047h:1,2562047h:1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		stages, err := ParseStages(s)
		if err != nil {
			return
		}
		if len(stages) == 0 {
			t.Fatal("no stages and no error")
		}
		var total time.Duration
		for _, st := range stages {
			if st.Duration < 0 || math.IsNaN(st.Target) || math.IsInf(st.Target, 0) || st.Target < 0 {
				t.Fatalf("%q: accepted stage %+v", s, st)
			}
			if total+st.Duration < total {
				t.Fatalf("%q: the total duration overflows", s)
			}
			total += st.Duration
		}
	})
}

// FuzzParseRate checks that no input makes ParseRate panic, and that every
// rate it accepts is finite and not negative.
func FuzzParseRate(f *testing.F) {
	for _, s := range []string{"2000", "2000/s", "100/1m", "5/100ms", "0", "1e308/1ns", "1/0s", "-1", "NaN", "1/", "/s", "1.5/.5s"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseRate(s)
		if err != nil {
			return
		}
		if math.IsNaN(r) || math.IsInf(r, 0) || r < 0 {
			t.Fatalf("%q: accepted rate %v", s, r)
		}
	})
}
