// Package result is the result document of a run: what it measured, as
// one JSON document (docs/result-schema.md) that is enough to print the
// summary, draw the report, judge thresholds and merge with the results of
// other machines (metrics.Merge). It holds the types and their reading and
// writing; package metrics builds them from recordings.
package result
