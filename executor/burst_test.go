package executor

import (
	"context"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

func TestBurstArrivesAtOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var j journal
		b := Burst{Every: 150 * time.Millisecond, Size: 20, Length: 400 * time.Millisecond}
		e := env(j.users(sleepWork(10 * time.Millisecond)))
		out, err := b.Run(e)
		if err != nil {
			t.Fatal(err)
		}
		if b.Bursts() != 3 || out.Iterations != 60 || out.Dropped != 0 {
			t.Fatalf("%d bursts: outcome %+v", b.Bursts(), out)
		}
		byBurst := map[time.Duration]int{}
		for _, x := range j.sorted() {
			byBurst[x.it.Intended.Sub(e.Start)]++
			if lag := x.start.Sub(x.it.Intended); lag != 0 { // the fake clock of synctest: no lag
				t.Errorf("iteration started %v after its burst", lag)
			}
		}
		for i := range 3 {
			if n := byBurst[time.Duration(i)*b.Every]; n != 20 {
				t.Errorf("burst %d: %d arrivals, want 20", i, n)
			}
		}
		if len(j.byUser()) > 20 {
			t.Errorf("%d users, want the pool of 20", len(j.byUser()))
		}
		if d := out.Stopped.Sub(e.Start); d < 400*time.Millisecond {
			t.Errorf("stopped %v after the start, before the end", d)
		}
	})
}

// The first burst is due the moment the pool is ready and still finds every
// user free.
func TestBurstAtOnceFromZeroStart(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var j journal
		b := Burst{Every: time.Second, Size: 200, Length: 100 * time.Millisecond}
		e := env(j.users(nil))
		e.Start = time.Time{}
		out, err := b.Run(e)
		if err != nil {
			t.Fatal(err)
		}
		if out.Iterations != 200 || out.Dropped != 0 {
			t.Errorf("outcome %+v", out)
		}
	})
}

// A burst that finds users still busy with the last one drops the excess.
func TestBurstDropsWhenBusy(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var j journal
		// Bursts at 0, 400 and 800 ms; four arrivals of the first burst keep
		// their users busy until 600 ms, with 200 ms of margin on both sides
		// for a busy machine. Every other iteration takes 100 ms, so that no
		// user is free again to serve a second arrival of the same burst.
		b := Burst{Every: 400 * time.Millisecond, Size: 10, Length: time.Second, Grace: time.Second}
		e := env(nil)
		var slow atomic.Int32
		e.NewUser = j.users(func(ctx context.Context, it Iteration) {
			d := 100 * time.Millisecond
			if it.Intended.Equal(e.Start) && slow.Add(1) <= 4 {
				d = 600 * time.Millisecond
			}
			sleepWork(d)(ctx, it)
		})
		out, err := b.Run(e)
		if err != nil {
			t.Fatal(err)
		}
		// Burst 1 finds 4 users busy: 4 drops; bursts 0 and 2 find all free.
		if out.Dropped != 4 || out.Iterations != 26 {
			t.Errorf("outcome %+v, want 26 iterations and 4 drops", out)
		}
	})
}

func TestBurstSegments(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := Burst{Every: 50 * time.Millisecond, Size: 10, Length: 120 * time.Millisecond}
		total := 0
		for i := range 3 {
			var j journal
			e := env(j.users(nil))
			e.Segment = Segment{Index: i, Count: 3}
			out, err := b.Run(e)
			if err != nil {
				t.Fatal(err)
			}
			total += int(out.Iterations)
			for id := range j.byUser() {
				if id%3 != i {
					t.Errorf("segment %d ran user %d", i, id)
				}
			}
			if n := len(j.byUser()); n > b.Pool(e.Segment) {
				t.Errorf("segment %d: %d users, pool %d", i, n, b.Pool(e.Segment))
			}
		}
		if total != 30 {
			t.Errorf("segments ran %d arrivals, the plan has 30", total)
		}
	})
}

func TestBurstStop(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var j journal
		b := Burst{Every: 100 * time.Millisecond, Size: 5, Length: time.Minute, Grace: time.Second}
		e := env(j.users(sleepWork(10 * time.Millisecond)))
		e.Stop = closeAfter(250 * time.Millisecond)
		out, err := b.Run(e)
		if err != nil {
			t.Fatal(err)
		}
		if !out.Interrupted || out.Iterations != 15 {
			t.Errorf("outcome %+v, want 3 bursts of 5 then a stop", out)
		}
	})
}

func TestBurstValidate(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		for _, b := range []Burst{
			{Every: 0, Size: 1, Length: time.Second},
			{Every: time.Second, Size: 0, Length: time.Second},
			{Every: time.Second, Size: 1},
			{Every: time.Second, Size: 1, Length: time.Second, Grace: -1},
		} {
			if b.Validate() == nil {
				t.Errorf("%+v is valid", b)
			}
		}
	})
}
