package analysis

import "github.com/surge-load/surge/result"

// Judge judges a finished result: the generator's health, a collapse, the
// dips and spikes and what moved with them, then the thresholds ts. It is
// what a run does to its result, and what a merge does to the merged one.
func Judge(r *result.Result, ts []Threshold) bool {
	JudgeGenerator(r)
	r.Collapse = DetectCollapse(r)
	r.Excursions, r.Periodic = DetectExcursions(r)
	r.Moved = WhatMoved(r)
	return Evaluate(r, ts)
}
