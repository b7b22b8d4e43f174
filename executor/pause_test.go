package executor

import (
	"context"
	"testing"
	"time"
)

func TestPause(t *testing.T) {
	start := time.Now()
	late, ok := Pause(context.Background(), 20*time.Millisecond)
	took := time.Since(start)
	if !ok || took < 20*time.Millisecond || late < 0 || late > took-20*time.Millisecond {
		t.Errorf("Pause(20ms) = %v, %v after %v", late, ok, took)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	start = time.Now()
	if late, ok := Pause(ctx, time.Minute); ok || late != 0 {
		t.Errorf("cancelled Pause = %v, %v", late, ok)
	}
	if took := time.Since(start); took > time.Second {
		t.Errorf("cancelled Pause took %v", took)
	}
	if _, ok := Pause(ctx, 0); ok {
		t.Error("Pause(0) on a done context reported ok")
	}
	if _, ok := Pause(context.Background(), -time.Second); !ok {
		t.Error("Pause(-1s) reported not ok")
	}
}
