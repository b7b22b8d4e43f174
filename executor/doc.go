// Package executor runs load models: it decides when virtual users start and
// stop and when each iteration of a journey begins, and it reports to a
// metrics.Recorder how faithfully it kept to that plan.
//
// Two models are provided. Closed ramps a number of virtual users, each
// looping over its journey with optional think time between iterations.
// Open offers arrivals at a rate, each served by a free user from a
// pre-allocated pool; an arrival that finds no free user is dropped and
// counted, never queued, so a slow server cannot slow the offered load.
//
// Every iteration carries the time it was meant to start (Iteration.Intended)
// so that latency can be measured from the plan rather than from whenever
// the generator got round to it. The generator's own lateness is reported
// separately with metrics.Shard.Lag.
//
// A plan can be split into segments for distributed runs: every segment
// computes the same global plan and keeps only its share, so the segments
// together produce exactly the unsplit load.
package executor
