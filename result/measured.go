package result

// MeasuredS is the part of the active load period that the totals describe,
// in seconds: Run.DurationS without the warm-up, whose operations are kept
// out of the totals. Rates (rps) are per second of it.
func (r *Result) MeasuredS() float64 {
	d := r.Run.DurationS
	if r.Warmup != nil {
		d -= r.Warmup.DurationS
	}
	return max(d, 0)
}
