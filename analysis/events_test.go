package analysis

import (
	"testing"

	"github.com/surge-load/surge/result"
)

// seriesOf makes a result of one point a second with ok successes and a
// p95 of p95 ms in each.
func seriesOf(ok []int64, p95 []float64) *result.Result {
	r := &result.Result{Run: result.Run{DurationS: float64(len(ok))}}
	for i, n := range ok {
		l := 1.0
		if p95 != nil {
			l = p95[i]
		}
		r.Series = append(r.Series, result.Point{T: float64(i), DurationS: 1, Requests: n, Busy: 4, Latency: result.Percentiles{P95: l}})
	}
	return r
}

func TestDetectExcursions(t *testing.T) {
	// The per-second throughput of a fast server that stalls for 1.2 s
	// every 5 s, as measured here: noisy, with dips to 0.
	dips := []int64{0, 16770, 10189, 10255, 15969, 0, 3794, 21678, 10891, 14312, 0, 19347, 15992, 20262, 17387, 0, 14989, 22071, 30091, 24163, 0, 15241}
	ev, per := DetectExcursions(seriesOf(dips, nil))
	if len(ev) != 4 || len(per) != 1 || per[0].EveryS != 5 || per[0].Count != 4 || ev[0].LastedS != 2 {
		t.Errorf("stalls: %+v %+v", ev, per)
	}

	flat := make([]int64, 30)
	lat := make([]float64, 30)
	for i := range flat {
		flat[i] = 100 + int64(i%3)*10
		lat[i] = 10 + float64(i%2)
	}
	if ev, _ := DetectExcursions(seriesOf(flat, lat)); len(ev) != 0 {
		t.Errorf("a steady run has events: %+v", ev)
	}

	// A level change is not a dip: throughput halves and stays there.
	step := append([]int64{}, flat...)
	for i := 15; i < 30; i++ {
		step[i] = 40
	}
	if ev, _ := DetectExcursions(seriesOf(step, lat)); len(ev) != 0 {
		t.Errorf("a level change taken for events: %+v", ev)
	}

	// A one-second latency spike, and a slow start (warm-up).
	spiky := append([]float64{}, lat...)
	spiky[12] = 200
	for i := range 4 {
		spiky[i] = 80
	}
	ev, _ = DetectExcursions(seriesOf(flat, spiky))
	if len(ev) != 2 || ev[0].AtS != 0 || ev[0].LastedS != 4 || ev[1].AtS != 12 || ev[1].Kind != "spike" || ev[1].Extreme != 200 {
		t.Errorf("latency spikes: %+v", ev)
	}

	// A dip while the generator itself was short of CPU is the
	// generator's.
	r := seriesOf(dips, nil)
	for i := range r.Series {
		if r.Series[i].Requests == 0 {
			r.Series[i].Generator.RunqP99Ms = 300
		}
	}
	if ev, _ := DetectExcursions(r); len(ev) != 0 {
		t.Errorf("dips of a late generator: %+v", ev)
	}
}

// What moved: a series that rises a second before each dip is named, with
// its lead; one that only wobbles is not; nothing is named without events.
func TestWhatMoved(t *testing.T) {
	dips := []int64{0, 16770, 10189, 10255, 15969, 0, 3794, 21678, 10891, 14312, 0, 19347, 15992, 20262, 17387, 0, 14989, 22071, 30091}
	r := seriesOf(dips, nil)
	n := len(dips)
	src := result.MonitorSource{Name: "db", Kind: "prometheus", IntervalS: 1}
	pending, cpu, tick := make(result.MonitorValues, n), make(result.MonitorValues, n), make(result.MonitorValues, n)
	for i := range n {
		src.T = append(src.T, float64(i))
		cpu[i] = 40 + float64(i%3)
		if i%4 == 0 {
			tick[i] = 1 // a counter that ticks now and then, in and out of the dips
		}
		if i%5 == 4 || i%5 == 0 && i > 0 {
			pending[i] = 38 // from a second before each dip
		}
	}
	src.Series = []result.MonitorSeries{{Name: "m:pool_pending", Values: pending}, {Name: "cpu", Unit: "%", Values: cpu}, {Name: "m:ticks_total", Values: tick}}
	r.Monitor = &result.Monitor{Sources: []result.MonitorSource{src}}
	r.Excursions, r.Periodic = DetectExcursions(r)
	moved := WhatMoved(r)
	if len(moved) != 1 || len(moved[0].Series) != 1 {
		t.Fatalf("moved: %+v", moved)
	}
	m := moved[0]
	if s := m.Series[0]; s.Series != "m:pool_pending" || s.From != 0 || s.To != 38 || s.LeadS != 1 || s.Moved != 3 {
		t.Errorf("moved series: %+v", s)
	}
	if want := "throughput dipped 3 times, every 5 s; with each dip db pool_pending 0→38, 1 s earlier"; m.Line != want {
		t.Errorf("line %q\nwant %q", m.Line, want)
	}
	r.Excursions, r.Periodic = nil, nil
	if moved := WhatMoved(r); len(moved) != 0 {
		t.Errorf("without events: %+v", moved)
	}
}
