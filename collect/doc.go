// Package collect coordinates a run split over several processes or
// machines: the segments of one plan (surge run --segment I/N) join a
// Collector, which fixes one common start once every segment has joined (a
// barrier with a bounded wait), has one segment run the plan's setup and
// hands its captured values to every other, receives every segment's
// per-second points while the run goes on (Live: the sum of all runners),
// and their partial results at the end, which it merges exactly
// (metrics.Merge) and judges once, on the whole. A segment that never
// joins, or stops reporting, is named in the merged result
// (result.Run.Missing), never left out silently.
//
// A Runner is the segment's side: it implements surge.Coordinator, so
// surge.Run joins, starts and streams through it, and Finish sends the
// part. Traffic between them is HTTP with a shared token (Bearer), which is
// required unless the collector is on a loopback address.
package collect
