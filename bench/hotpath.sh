#!/usr/bin/env bash
# Benchmarks of the hot paths whose figures docs/performance.md quotes:
# recording a sample (a success and a failure), one HTTP exchange, the
# collector's second, and memory over many intervals.
set -euo pipefail
cd "$(dirname "$0")/.."
go test -run '^$' -bench 'BenchmarkShardRecord' -benchmem -cpu 1,2 -count 3 ./metrics/
go test -run '^$' -bench 'BenchmarkDo' -benchmem -count 3 ./protocol/httpc/
go test -run '^$' -bench 'BenchmarkRecordStatus|BenchmarkStatusError' -count 3 ./protocol/httpc/
go test -run '^$' -bench 'BenchmarkFold' -benchtime 200x ./metrics/
go test -run 'TestMemoryFlatOverManyIntervals' -count 1 -v ./metrics/ | grep -E 'heap|PASS|FAIL'
