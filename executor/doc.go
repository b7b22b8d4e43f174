// Package executor runs load models: it decides when virtual users start and
// stop and when each iteration of a journey begins, and it reports to a
// metrics.Recorder how faithfully it kept to that plan.
//
// Four models are provided. Closed ramps a number of virtual users, each
// looping over its journey with optional think time between iterations;
// Iterations shares a fixed number of iterations among looping users.
// Open offers arrivals at a rate, and Burst offers a number of arrivals at
// once every period; each arrival is served by the most recently idle user
// of a pre-allocated pool, and an arrival that finds no free user is dropped
// and counted, never queued, so a slow server cannot slow the offered load.
//
// Every iteration carries the time it was meant to start
// (Iteration.Intended). An arrival's latency is measured from it
// (Iteration.LatencyFrom), rather than from whenever the generator got
// round to it; a looping user's latency from its actual send. The
// generator's own lateness is reported separately with metrics.Shard.Lag.
//
// A plan can be split into segments for distributed runs: every segment
// computes the same global plan and keeps only its share, so the segments
// together produce exactly the unsplit load.
package executor
