package monitor

import (
	"context"
	"testing"
	"testing/synctest"
	"time"
)

// A slowSampler takes 100ms to answer, or gives up when its context ends.
type slowSampler struct{}

func (slowSampler) sample(ctx context.Context) ([]reading, error) {
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-time.After(100 * time.Millisecond):
		return []reading{{name: "fds", value: 7}}, nil
	}
}

// The run ends at a tick, while the source reads its last interval: that
// reading is kept, not turned into a gap "did not answer by the end of the
// run" (every process source had one for its last second).
func TestStopKeepsTheLastSampleInProgress(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := &Sampling{stop: make(chan struct{})}
		tr := newTrack(Spec{Name: "p", Raw: "process:1", Kind: KindProcess, Interval: time.Second}, time.Now())
		tr.s = slowSampler{}
		m.launch(tr)
		time.Sleep(5*time.Second + 10*time.Millisecond) // tick 5 is being sampled
		src := m.Stop().Sources[0]
		if len(src.Gaps) != 0 {
			t.Errorf("gaps %+v, want none", src.Gaps)
		}
		if want := []float64{0, 1, 2, 3, 4}; len(src.T) != len(want) || src.T[4] != 4 {
			t.Errorf("t = %v, want %v", src.T, want)
		}
	})
}
