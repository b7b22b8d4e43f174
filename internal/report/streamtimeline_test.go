package report

import (
	"testing"

	"github.com/surge-load/surge/result"
)

func TestStreamTimelineDownsamples(t *testing.T) {
	const n = 4 * 3600
	r := longRun(n, 0)
	for i := range n {
		r.Series[i].Streams = &result.StreamPoint{Open: int64(1000 + i%7), Opened: 2, Events: 50}
		if i == 777 {
			r.Series[i].Streams.Ends = map[string]int64{"reset": 30}
		}
	}
	tl := NewTimeline(r, MaxChartPoints)
	st := tl.Streams
	if st == nil || len(st.Open) != len(tl.T) || len(st.Events) != len(tl.T) {
		t.Fatalf("stream timeline %+v for %d points", st, len(tl.T))
	}
	// Open streams are the most in a point; events and ends are rates, so
	// their counts survive.
	if st.Open[0] != 1006 || st.Events[0] != 50 || st.Opened[0] != 2 {
		t.Errorf("first point: open %v, events %v/s, opened %v/s; want 1006, 50, 2", st.Open[0], st.Events[0], st.Opened[0])
	}
	if len(st.Ends) != 1 || st.Ends[0].Class != "reset" || st.Ends[0].Values[77]*tl.StepS != 30 {
		t.Errorf("ends %+v; want reset, 30 in the point of interval 777", st.Ends)
	}
	if NewTimeline(longRun(10, 0), MaxChartPoints).Streams != nil {
		t.Error("a run without streams has a stream timeline")
	}
}
