package executor

import (
	"math"
	"testing"
	"testing/synctest"
	"time"
)

func mustSchedule(t *testing.T, start float64, stages ...Stage) *Schedule {
	t.Helper()
	s, err := NewSchedule(start, stages)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func seconds(x float64) time.Duration { return time.Duration(math.Round(x * 1e9)) }

// checkSchedule compares every arrival of s with want(k), in seconds.
func checkSchedule(t *testing.T, s *Schedule, n int64, want func(k int64) float64) {
	t.Helper()
	if s.Len() != n {
		t.Fatalf("Len = %d, want %d", s.Len(), n)
	}
	for k := range n {
		if got, w := s.At(k), seconds(want(k)); absDur(got-w) > time.Nanosecond {
			t.Fatalf("At(%d) = %v, want %v", k, got, w)
		}
	}
}

func absDur(d time.Duration) time.Duration { return max(d, -d) }

func TestScheduleConstant(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := mustSchedule(t, 100, Stage{time.Second, 100})
		checkSchedule(t, s, 100, func(k int64) float64 { return float64(k) / 100 })
	})
}

func TestScheduleRampUp(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := mustSchedule(t, 0, Stage{2 * time.Second, 100})
		checkSchedule(t, s, 100, func(k int64) float64 { return math.Sqrt(float64(k) / 25) })
	})
}

func TestScheduleRampDown(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// 100 -> 0 over 1s: 50 arrivals, 100t - 50t² = k.
		s := mustSchedule(t, 100, Stage{time.Second, 0})
		checkSchedule(t, s, 50, func(k int64) float64 { return 1 - math.Sqrt(1-float64(k)/50) })
	})
}

func TestScheduleZeroRate(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// 1s at 0, ramp to 100/s over 1s (50), 1s at 0 after a step down, 1s at 10/s (10).
		s := mustSchedule(t, 0,
			Stage{time.Second, 0},
			Stage{time.Second, 100},
			Stage{0, 0},
			Stage{time.Second, 0},
			Stage{0, 10},
			Stage{time.Second, 10},
		)
		checkSchedule(t, s, 60, func(k int64) float64 {
			if k < 50 {
				return 1 + math.Sqrt(float64(k)/50)
			}
			return 3 + float64(k-50)/10
		})
		if s.Duration() != 4*time.Second {
			t.Errorf("Duration = %v", s.Duration())
		}
		if _, err := NewSchedule(0, []Stage{{time.Second, 0}}); err != nil {
			t.Errorf("all-zero schedule: %v", err)
		}
		if s := mustSchedule(t, 0, Stage{time.Second, 0}); s.Len() != 0 {
			t.Errorf("all-zero schedule has %d arrivals", s.Len())
		}
	})
}

func TestScheduleFractionalRates(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// 100 per minute for a minute is 100 arrivals, not 101 through rounding.
		r, err := ParseRate("100/1m")
		if err != nil {
			t.Fatal(err)
		}
		s := mustSchedule(t, r, Stage{time.Minute, r})
		checkSchedule(t, s, 100, func(k int64) float64 { return float64(k) * 0.6 })
		// 2.5 arrivals: k = 0, 1, 2.
		s = mustSchedule(t, 2.5, Stage{time.Second, 2.5})
		checkSchedule(t, s, 3, func(k int64) float64 { return float64(k) / 2.5 })
		// 5/100ms over stages of 100ms: 50 arrivals in 1s.
		r, _ = ParseRate("5/100ms")
		var st []Stage
		for range 10 {
			st = append(st, Stage{100 * time.Millisecond, r})
		}
		s = mustSchedule(t, r, st...)
		checkSchedule(t, s, 50, func(k int64) float64 { return float64(k) / 50 })
	})
}

func TestScheduleNoDrift(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// A million arrivals at 100k/s: the last is at 9.99999s to the nanosecond.
		s := mustSchedule(t, 1e5, Stage{10 * time.Second, 1e5})
		if s.Len() != 1e6 {
			t.Fatalf("Len = %d", s.Len())
		}
		if got := s.At(999_999); got != 9_999_990*time.Microsecond {
			t.Errorf("last arrival at %v", got)
		}
		// An awkward rate over an hour: 1e6/3 per second for 3 hours is 3.6e9
		// arrivals; arrival k is at 3k/1e6 s.
		s = mustSchedule(t, 1e6/3, Stage{3 * time.Hour, 1e6 / 3})
		if s.Len() != 3_600_000_000 {
			t.Fatalf("Len = %d", s.Len())
		}
		for _, k := range []int64{1, 999_999, 1_234_567_891, s.Len() - 1} {
			want := time.Duration(k) * 3 * time.Microsecond
			if got := s.At(k); absDur(got-want) > time.Microsecond {
				t.Errorf("At(%d) = %v, want %v", k, got, want)
			}
		}
		// A million arrivals on a ramp after a million at constant rate.
		s = mustSchedule(t, 1e5, Stage{10 * time.Second, 1e5}, Stage{10 * time.Second, 1.1e5})
		// second stage: 1e5 t + 5e2 t² = m.
		if s.Len() != 2_050_000 {
			t.Fatalf("Len = %d", s.Len())
		}
		var prev time.Duration
		for k := range s.Len() {
			got := s.At(k)
			if got < prev {
				t.Fatalf("At(%d) = %v before At(%d) = %v", k, got, k-1, prev)
			}
			prev = got
		}
		k := s.Len() - 1
		m := float64(k - 1e6)
		want := 10 + (-1e5+math.Sqrt(1e10+4*5e2*m))/(2*5e2)
		if got := s.At(k); absDur(got-seconds(want)) > time.Microsecond {
			t.Errorf("last arrival at %v, want %v", got, seconds(want))
		}
	})
}

func TestScheduleErrors(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		for _, tc := range []struct {
			start  float64
			stages []Stage
		}{
			{100, nil},
			{-1, []Stage{{time.Second, 1}}},
			{math.NaN(), []Stage{{time.Second, 1}}},
			{0, []Stage{{-time.Second, 1}}},
			{0, []Stage{{time.Second, math.Inf(1)}}},
			{0, []Stage{{time.Second, -5}}},
			{0, []Stage{{0, 5}}},
			{0, []Stage{{time.Second, 2e9}}},
			{0, []Stage{{math.MaxInt64, 1}, {1, 1}}},
			{1e9, []Stage{{5000 * time.Hour, 1e9}}},
			{2e9, []Stage{{time.Second, 1}}},
		} {
			if _, err := NewSchedule(tc.start, tc.stages); err == nil {
				t.Errorf("NewSchedule(%v, %v) succeeded", tc.start, tc.stages)
			} else {
				t.Log(err)
			}
		}
	})
}
