package metrics

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/surge-load/surge/errclass"
	"github.com/surge-load/surge/result"
)

// streamLife records one stream of endpoint ep that starts at start,
// receives events at the given offsets (the first carrying a delivery
// delay of delay), and ends with end, unless end is empty.
func streamLife(sh *Shard, ep EndpointID, start time.Time, events []time.Duration, delay time.Duration, end StreamEnd) {
	st := &Stream{Endpoint: ep, Start: start, Opened: true, Connect: time.Millisecond, Headers: 3 * time.Millisecond}
	sh.StreamOpened(st)
	var last time.Duration
	for i, at := range events {
		ev := &StreamEvent{At: start.Add(at), First: i == 0, Since: at - last, Delay: delay, HasDelay: delay > 0}
		sh.StreamEvent(ep, ev)
		last = at
	}
	if end != "" {
		st.End, st.BytesIn = end, 100
		sh.StreamEnded(st)
	}
}

func TestStreamSeriesAndTotals(t *testing.T) {
	rec := NewRecorder(2)
	ep := rec.Endpoint("GET /events")
	start := time.Now()
	rec.start = start
	second := func(k int) time.Time { return start.Add(time.Duration(k) * time.Second) }
	for i := range 3 {
		streamLife(rec.Shard(i), ep, start, []time.Duration{10 * time.Millisecond, 20 * time.Millisecond}, 2*time.Millisecond, "")
	}
	rec.fold(second(1))
	rec.Shard(0).StreamEnded(&Stream{Endpoint: ep, Start: start, Opened: true, End: EndReset})
	rec.Shard(1).StreamEnded(&Stream{Endpoint: ep, Start: start, Opened: true, End: EndHeld})
	rec.Shard(1).StreamEnded(&Stream{Endpoint: ep, Start: second(1), End: StreamEndOf(errclass.ConnectRefused)}) // never opened
	rec.recordAt(ep, second(1))
	rec.fold(second(2))
	rec.fold(second(3))
	res := rec.Result(3 * time.Second)

	var open, opened, events []int64
	for _, p := range res.Series {
		if p.Streams == nil {
			t.Fatalf("point at %gs has no streams", p.T)
		}
		open = append(open, p.Streams.Open)
		opened = append(opened, p.Streams.Opened)
		events = append(events, p.Streams.Events)
	}
	if !reflect.DeepEqual(open, []int64{3, 1, 1}) || !reflect.DeepEqual(opened, []int64{3, 0, 0}) || !reflect.DeepEqual(events, []int64{6, 0, 0}) {
		t.Fatalf("series open %v, opened %v, events %v", open, opened, events)
	}
	if e := res.Series[1].Streams.Ends; e["reset"] != 1 || e["held"] != 1 || e["connect_failed"] != 1 {
		t.Fatalf("ends in the second interval %v", e)
	}
	st := res.Totals.Streams
	if st == nil || st.Opened != 3 || st.Events != 6 || st.EventsPerSec != 2 || st.OpenMax != 3 {
		t.Fatalf("totals %+v", st)
	}
	if st.Connect.Min != 1 || st.Headers.Max != 3 || st.FirstEvent.P50 != 10 || st.Gap.Max != 10 || st.Delay.Mean != 2 {
		t.Fatalf("distributions: connect %+v headers %+v first %+v gap %+v delay %+v", st.Connect, st.Headers, st.FirstEvent, st.Gap, st.Delay)
	}
	if !reflect.DeepEqual(st.Ends, map[string]int64{"reset": 1, "held": 1, "connect_failed": 1}) {
		t.Fatalf("ends %v", st.Ends)
	}
	if res.Endpoints[0].Streams == nil || res.Endpoints[0].Streams.OpenMax != 0 {
		t.Fatalf("endpoint streams %+v", res.Endpoints[0].Streams)
	}
}

// recordAt records a successful sample of ep at t, for tests.
func (r *Recorder) recordAt(ep EndpointID, t time.Time) {
	r.Shard(0).Record(&Sample{Endpoint: ep, Start: t, End: t.Add(time.Millisecond)})
}

func TestNoStreamsNoStreamFields(t *testing.T) {
	rec := NewRecorder(1)
	ep := rec.Endpoint("GET /")
	start := time.Now()
	rec.Begin(start, nil)
	rec.recordAt(ep, start)
	rec.Finish(time.Now())
	res := rec.Result(time.Second)
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	if res.Totals.Streams != nil || res.Series[0].Streams != nil || containsKey(b, `"streams"`) {
		t.Fatalf("a run without streams has stream fields")
	}
}

func containsKey(b []byte, key string) bool {
	return strings.Contains(string(b), key)
}

func TestStreamMergeEqualsSingleRun(t *testing.T) {
	start := time.Now()
	whole := NewRecorder(2)
	parts := []*Recorder{NewRecorder(2), NewRecorder(2)}
	for _, r := range append(parts, whole) {
		r.Endpoint("GET /events")
		r.Endpoint("WS /echo")
		r.start = start
	}
	rng := rand.New(rand.NewPCG(1, 2))
	ends := StreamEnds()
	for k := 1; k <= 3; k++ {
		for i := range 300 {
			ep := EndpointID(i % 2)
			var evs []time.Duration
			for j := range rng.IntN(5) {
				evs = append(evs, time.Duration(j+1)*time.Duration(1+rng.IntN(5000))*time.Microsecond)
			}
			end := ends[rng.IntN(len(ends))]
			if i%7 == 0 {
				end = "" // still open
			}
			delay := time.Duration(rng.IntN(20000)) * time.Microsecond
			streamLife(whole.Shard(i), ep, start, evs, delay, end)
			streamLife(parts[i%2].Shard(i), ep, start, evs, delay, end)
			if i%11 == 0 {
				st := &Stream{Endpoint: ep, Start: start, End: EndHeld, CloseCode: 1000 + i%3, Sent: 2}
				whole.Shard(0).StreamEnded(st)
				parts[i%2].Shard(0).StreamEnded(st)
			}
			whole.recordAt(ep, start)
			parts[i%2].recordAt(ep, start)
		}
		for _, r := range append(parts, whole) {
			r.fold(start.Add(time.Duration(k) * time.Second))
		}
	}
	var results []*result.Result
	for _, r := range parts {
		res := r.Result(3 * time.Second)
		res.Run.Start = start
		results = append(results, res)
	}
	want := whole.Result(3 * time.Second)
	got, err := Merge(results...)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Totals.Streams, want.Totals.Streams) {
		a, _ := json.MarshalIndent(got.Totals.Streams, "", " ")
		b, _ := json.MarshalIndent(want.Totals.Streams, "", " ")
		t.Fatalf("merged streams\n%s\nsingle run\n%s", a, b)
	}
	for i := range want.Endpoints {
		if !reflect.DeepEqual(got.Endpoints[i].Streams, want.Endpoints[i].Streams) {
			t.Fatalf("endpoint %s: merged %+v, single %+v", want.Endpoints[i].Name, got.Endpoints[i].Streams, want.Endpoints[i].Streams)
		}
	}
	for i := range want.Series {
		if !reflect.DeepEqual(got.Series[i].Streams, want.Series[i].Streams) {
			t.Fatalf("point %d: merged %+v, single %+v", i, got.Series[i].Streams, want.Series[i].Streams)
		}
	}
	// A result read back from its file merges into itself.
	path := t.TempDir() + "/r.json"
	if err := want.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	back, err := result.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	again, err := Merge(back)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(again.Totals.Streams, want.Totals.Streams) {
		t.Fatalf("re-merged %+v, original %+v", again.Totals.Streams, want.Totals.Streams)
	}
}

func TestStreamWarmup(t *testing.T) {
	rec := NewRecorder(1)
	ep := rec.Endpoint("GET /events")
	start := time.Now()
	rec.start = start
	rec.SetWarmup(start.Add(time.Second))
	streamLife(rec.Shard(0), ep, start, []time.Duration{time.Millisecond}, 0, EndHeld)                   // in the warm-up
	streamLife(rec.Shard(0), ep, start.Add(time.Second), []time.Duration{time.Millisecond}, 0, EndReset) // measured
	rec.recordAt(ep, start.Add(time.Second))
	rec.fold(start.Add(2 * time.Second))
	res := rec.Result(2 * time.Second)
	if st := res.Totals.Streams; st.Opened != 1 || st.Events != 1 || !reflect.DeepEqual(st.Ends, map[string]int64{"reset": 1}) {
		t.Fatalf("totals count the warm-up: %+v", st)
	}
	if p := res.Series[0].Streams; p.Opened != 2 || p.Events != 2 || p.Open != 0 {
		t.Fatalf("the series leaves out the warm-up: %+v", p)
	}
}

// TestStreamEventAllocatesNothing: recording an event costs no allocation
// once the interval's histograms exist.
func TestStreamEventAllocatesNothing(t *testing.T) {
	rec := NewRecorder(1)
	ep := rec.Endpoint("GET /events")
	sh := rec.Shard(0)
	now := time.Now()
	ev := &StreamEvent{At: now, Since: 5 * time.Millisecond, Delay: time.Millisecond, HasDelay: true}
	sh.StreamEvent(ep, ev)
	if a := testing.AllocsPerRun(1000, func() { sh.StreamEvent(ep, ev) }); a != 0 {
		t.Fatalf("%.1f allocations per event", a)
	}
}
