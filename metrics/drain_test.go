package metrics

import (
	"sync/atomic"
	"testing"
	"time"
)

// TestRecordingNeverWaitsForTheCollector: while the collector merges a
// shard's interval (held inside the merge by a hook), workers keep
// recording into that same shard, and the dispatcher its lag and drops:
// the merge holds no lock they need. Before the interval was swapped out,
// the merge ran under the shard's lock and these calls waited for it.
func TestRecordingNeverWaitsForTheCollector(t *testing.T) {
	// The hook is set before Begin starts the collector's goroutine, and
	// cleared after Finish has stopped it: the collector's own once-a-second
	// drains read it too.
	// Once armed, the next drain (Finish's, or the collector's own if a
	// second passes first) stops inside its merge until released: however
	// late this goroutine gets to wait for it, it is not missed.
	var armed atomic.Bool
	inMerge, release := make(chan struct{}, 1), make(chan struct{})
	testHookDrain = func() {
		if armed.CompareAndSwap(true, false) {
			inMerge <- struct{}{}
			<-release
		}
	}
	r := NewRecorder(1)
	ep := r.Endpoint("GET /")
	start := time.Now()
	r.Begin(start, nil)
	sh := r.Shard(0)
	smp := &Sample{Endpoint: ep, Start: start, End: start.Add(time.Millisecond)}
	sh.Record(smp)

	armed.Store(true)
	finished := make(chan struct{})
	go func() { r.Finish(time.Now()); close(finished) }()
	select {
	case <-inMerge:
	case <-time.After(10 * time.Second):
		t.Fatal("the collector never merged")
	}
	recorded := make(chan struct{})
	go func() {
		for range 100 {
			sh.Record(smp)
			r.Dispatcher().Lag(time.Microsecond)
			r.Dispatcher().Dropped(start)
		}
		close(recorded)
	}()
	select {
	case <-recorded:
	case <-time.After(10 * time.Second):
		t.Error("recording waited for the collector's merge")
	}
	close(release)
	<-finished
	<-recorded
	testHookDrain = nil
}
