package executor

import (
	"math"
	"reflect"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

func TestParseRate(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		for _, tc := range []struct {
			in   string
			want float64
			err  string // part of the error, if any
		}{
			{in: "2000", want: 2000},
			{in: "2000/s", want: 2000},
			{in: " 2000 / 1s ", want: 2000},
			{in: "100/1m", want: 100.0 / 60},
			{in: "100/m", want: 100.0 / 60},
			{in: "5/100ms", want: 50},
			{in: "3600/h", want: 1},
			{in: "1.5/.5s", want: 3},
			{in: "0", want: 0},
			{in: "", err: `count "" is not`},
			{in: "abc/s", err: `count "abc" is not`},
			{in: "-5/s", err: `count "-5" is negative`},
			{in: "NaN", err: `count "NaN" is not a finite`},
			{in: "inf/s", err: `count "inf" is not a finite`},
			{in: "100/", err: `period "" is not a duration`},
			{in: "100/parsec", err: `period "parsec" is not a duration`},
			{in: "100/0s", err: `period "0s" is not positive`},
			{in: "100/-1s", err: `period "-1s" is not`},
			{in: "100/1m/s", err: `period "1m/s"`},
		} {
			got, err := ParseRate(tc.in)
			switch {
			case tc.err != "" && err == nil:
				t.Errorf("ParseRate(%q) = %v, want an error", tc.in, got)
			case tc.err != "" && !strings.Contains(err.Error(), tc.err):
				t.Errorf("ParseRate(%q) error %q, want it to contain %q", tc.in, err, tc.err)
			case tc.err == "" && err != nil:
				t.Errorf("ParseRate(%q): %v", tc.in, err)
			case tc.err == "" && math.Abs(got-tc.want) > 1e-12:
				t.Errorf("ParseRate(%q) = %v, want %v", tc.in, got, tc.want)
			}
		}
	})
}

func TestParseStages(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		for _, tc := range []struct {
			in   string
			want []Stage
			err  string
		}{
			{in: "30s:100,2m:100,10s:0", want: []Stage{{30 * time.Second, 100}, {2 * time.Minute, 100}, {10 * time.Second, 0}}},
			{in: " 1m30s : 2.5 , 0s:7", want: []Stage{{90 * time.Second, 2.5}, {0, 7}}},
			{in: "", err: "no stages"},
			{in: "30s:100,", err: "stage 2 is empty"},
			{in: "30s", err: `stage 1 "30s": want duration:target`},
			{in: "30s:100,x:5", err: `stage 2 "x:5": duration "x" is not a duration`},
			{in: "30:100", err: `duration "30" is not a duration`},
			{in: "-5s:100", err: "duration -5s is negative"},
			{in: "5s:-1", err: "target -1 is negative"},
			{in: "5s:lots", err: `target "lots" is not a number`},
			{in: "5s:100/s", err: "per second, without a unit"},
			{in: "5s:NaN", err: "not a finite number"},
			{in: "5s:1e400", err: `target "1e400" is not a number`},
		} {
			got, err := ParseStages(tc.in)
			switch {
			case tc.err != "" && err == nil:
				t.Errorf("ParseStages(%q) = %v, want an error", tc.in, got)
			case tc.err != "" && !strings.Contains(err.Error(), tc.err):
				t.Errorf("ParseStages(%q) error %q, want it to contain %q", tc.in, err, tc.err)
			case tc.err == "" && err != nil:
				t.Errorf("ParseStages(%q): %v", tc.in, err)
			case tc.err == "" && !reflect.DeepEqual(got, tc.want):
				t.Errorf("ParseStages(%q) = %v, want %v", tc.in, got, tc.want)
			}
		}
	})
}

func TestValidate(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ok := []Stage{{time.Second, 10}}
		for _, tc := range []struct {
			load Load
			err  string
		}{
			{Closed{Stages: ok}, ""},
			{Closed{Start: -1, Stages: ok}, "start of -1 users is negative"},
			{Closed{Stages: ok, Grace: -time.Second}, "grace -1s is negative"},
			{Closed{}, "no stages"},
			{Closed{Stages: []Stage{{time.Second, 1e8}}}, "more than 1e+07 users"},
			{Closed{Stages: []Stage{{time.Second, math.Inf(1)}}}, "not a finite number"},
			{Open{StartRate: 1, Stages: ok, MaxUsers: 1}, ""},
			{Open{Stages: ok}, "MaxUsers 0 is less than 1"},
			{Open{Stages: ok, MaxUsers: 1, Grace: -1}, "grace -1ns is negative"},
			{Open{StartRate: math.NaN(), Stages: ok, MaxUsers: 1}, "start rate NaN"},
			{Open{MaxUsers: 1}, "no stages"},
			{Open{Stages: []Stage{{-time.Second, 1}}, MaxUsers: 1}, "stage 1: duration -1s is negative"},
		} {
			err := tc.load.Validate()
			switch {
			case tc.err == "" && err != nil:
				t.Errorf("%+v: %v", tc.load, err)
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Errorf("%+v: error %v, want %q", tc.load, err, tc.err)
			}
		}
		if d := (Closed{Stages: []Stage{{time.Second, 1}, {2 * time.Second, 1}}}).Duration(); d != 3*time.Second {
			t.Errorf("Duration = %v", d)
		}
		// Run refuses bad plans and environments.
		if _, err := (Closed{}).Run(env(nil)); err == nil {
			t.Error("Run of an invalid plan succeeded")
		}
		if _, err := (Closed{Stages: ok}).Run(Env{}); err == nil {
			t.Error("Run without NewUser succeeded")
		}
		var j journal
		e := env(j.users(nil))
		e.Segment = Segment{Index: 3, Count: 3}
		if _, err := (Open{Stages: ok, MaxUsers: 1}).Run(e); err == nil {
			t.Error("Run with a bad segment succeeded")
		}
	})
}
