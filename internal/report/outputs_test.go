package report

import (
	"testing"

	"github.com/surge-load/surge/result"
)

// The outputs' counts are seconds of the run (one frame each), whatever
// number of lines or series a backend gets per second: the summary says so.
func TestOutputLinesCountSeconds(t *testing.T) {
	r := &result.Result{Outputs: []result.OutputStats{{Kind: "jsonl", Target: "run.jsonl", Points: 10, Sent: 7, Dropped: 3, DroppedQueue: 1, DroppedFailed: 2, LastError: "disk full"}}}
	got := outputLines(r)
	want := "jsonl run.jsonl: 7 of 10 seconds sent, 3 seconds dropped (1 queue full: backend too slow; 2 failed writes); last error: disk full"
	if len(got) != 1 || got[0] != want {
		t.Errorf("outputLines = %q, want %q", got, want)
	}
}
