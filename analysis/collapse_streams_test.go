package analysis

import (
	"testing"

	"github.com/surge-load/surge/result"
)

// A run whose users subscribe during the ramp and then hold their streams
// makes no requests once every user has subscribed: that is not the
// service no longer answering. A stream that ends, or a user that is busy
// with something else than a stream, still offers load.
func TestNoCollapseWhileStreamsAreHeld(t *testing.T) {
	var pts []result.Point
	open := int64(0)
	for i := range 5 { // 200 subscriptions a second
		open += 200
		p := second(float64(i), 200, 0, "")
		p.Busy, p.Streams = open, &result.StreamPoint{Open: open, Opened: 200}
		pts = append(pts, p)
	}
	for i := 5; i < 15; i++ { // all held
		p := second(float64(i), 0, 0, "")
		p.Busy, p.Streams = open, &result.StreamPoint{Open: open, Events: 1000}
		pts = append(pts, p)
	}
	if c := DetectCollapse(resultOf(pts...)); c != nil {
		t.Fatalf("held streams taken for a collapse: %+v", c)
	}
	// The same seconds with users stuck on something else than a stream
	// are a service that stopped answering.
	for i := 5; i < 15; i++ {
		pts[i].Busy = open + 100
	}
	if c := DetectCollapse(resultOf(pts...)); c == nil || c.Kind != result.CollapseStopped {
		t.Fatalf("users stuck beside the streams: collapse %+v", c)
	}
}
