package executor

import "time"

// A dispatcher that fell behind (the generator's process did not run for
// a while: another process took its core, say) has many arrivals due at
// once. Handed out in one go, each took a user of its own, and none of
// those users ran, read its response and came back until the hand-out
// ended: the Go scheduler polls the network only when it has nothing else
// to run. A stall of 30 ms at 40,000/s so took every user of a 1,000-user
// pool and arrivals were dropped although the server had answered them;
// with a larger pool, the users past the warm ones opened connections
// (about three requests' CPU each) that put the generator further behind,
// until a pool of 40,000 was busy and most arrivals were dropped.
//
// So while it is more than catchUpLag behind, the dispatcher hands
// arrivals to at most catchUpUsers more users than were busy when it fell
// behind (those hold the server's requests), waiting for one to come back
// instead: the catch-up goes at the pace the generator sends, with the
// connections the load already has. Every arrival keeps its intended
// time, so the wait shows in its latency and in the generator's lag. If
// no user comes back within catchUpWait (the server, not the generator,
// holds them), the dispatcher stops waiting until it has caught up, and
// arrivals that find every user busy are dropped as ever.
const (
	catchUpLag   = 2 * time.Millisecond
	catchUpWait  = 10 * time.Millisecond
	catchUpUsers = 32
)

// catchUp waits, if an arrival late by late finds the dispatcher behind,
// until few enough users are busy (see catchUpLag).
func (r *run) catchUp(pool *idlePool, late time.Duration) {
	if late <= catchUpLag {
		r.catchingUp, r.gaveUp = false, false
		return
	}
	if !r.catchingUp {
		r.catchingUp, r.busyBehind = true, pool.busy()
	}
	for !r.gaveUp {
		// Waiting is set before busy is read, so a user back after the
		// read wakes the dispatcher.
		pool.waiting.Store(true)
		busy := pool.busy()
		if busy < r.busyBehind+catchUpUsers {
			pool.waiting.Store(false)
			return
		}
		r.timer.Reset(catchUpWait)
		select {
		case <-pool.freed:
			r.timer.Stop()
		case <-r.timer.C:
			// A stall of the generator's process while it waited fires
			// the timer with users back: only none back is giving up.
			r.gaveUp = pool.busy() >= busy
		}
		pool.waiting.Store(false)
	}
}
