package httpc

import (
	"context"
	"testing"
	"time"

	"github.com/surge-load/surge/errclass"
	"github.com/surge-load/surge/metrics"
)

// TestTimingStamps checks how stamps become phases, including the orders
// of events that only a loaded machine produces.
func TestTimingStamps(t *testing.T) {
	type stamps struct{ gotConn, lastWrite, wrote, first int64 }
	for _, tc := range []struct {
		name  string
		st    stamps
		dial  *dialRecord
		phase errclass.Phase
		want  metrics.Timing
	}{{
		name:  "in order",
		st:    stamps{gotConn: 200, lastWrite: 210, wrote: 260, first: 400},
		phase: errclass.PhaseRequest,
		want:  metrics.Timing{Blocked: 100, Send: 60, Wait: 140, Receive: 100},
	}, {
		name:  "write reported after the first byte",
		st:    stamps{gotConn: 200, lastWrite: 250, wrote: 450, first: 400},
		phase: errclass.PhaseRequest,
		want:  metrics.Timing{Blocked: 100, Send: 50, Wait: 150, Receive: 100},
	}, {
		name:  "write not reported before the end",
		st:    stamps{gotConn: 200, lastWrite: 250, first: 400},
		phase: errclass.PhaseRequest,
		want:  metrics.Timing{Blocked: 100, Send: 50, Wait: 150, Receive: 100},
	}, {
		name:  "failed while waiting",
		st:    stamps{gotConn: 200, lastWrite: 210, wrote: 260},
		phase: errclass.PhaseRequest,
		want:  metrics.Timing{Blocked: 100, Send: 60, Wait: 240},
	}, {
		name:  "failed while sending",
		st:    stamps{gotConn: 200, lastWrite: 300},
		phase: errclass.PhaseRequest,
		want:  metrics.Timing{Blocked: 100, Send: 300},
	}, {
		name:  "failed while connecting",
		dial:  &dialRecord{},
		phase: errclass.PhaseConnect,
		want:  metrics.Timing{Blocked: 15, DNS: 20, Connect: 365},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			ex := newExchange(time.Now())
			ex.cur = &requestCtx{Context: context.Background()}
			if tc.dial != nil {
				tc.dial.owner = ex.cur
				tc.dial.dnsStart.Store(110)
				tc.dial.dnsDone.Store(130)
				tc.dial.connStart.Store(135)
				ex.cur.lastDial.Store(tc.dial)
			} else {
				cc := &countingConn{dial: &dialRecord{}}
				cc.lastWrite.Store(tc.st.lastWrite)
				ex.conn.Store(cc)
				ex.gotConn.Store(tc.st.gotConn)
				ex.wrote.Store(tc.st.wrote)
				ex.firstByte.Store(tc.st.first)
			}
			if got := ex.timing(100, 500); got != tc.want {
				t.Errorf("timing = %+v, want %+v", got, tc.want)
			}
			if got := ex.phase(); got != tc.phase {
				t.Errorf("phase = %v, want %v", got, tc.phase)
			}
		})
	}
}
