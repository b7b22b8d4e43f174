#!/usr/bin/env bash
# Holds N concurrent server-sent event streams from surge against the demo
# service on loopback and reports the generator's memory per open stream
# and its CPU at steady state, beside the demo's; docs/performance.md
# quotes the figures. Extra arguments go to bench/sse (see its -help).
#
#   bash bench/sse-streams.sh                # 50,000 streams
#   bash bench/sse-streams.sh 100000
#   bash bench/sse-streams.sh 50000 -buffer 1024
set -euo pipefail
cd "$(dirname "$0")/.."
streams=${1:-50000}
shift || true
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
go build -o "$dir/sse" ./bench/sse
"$dir/sse" -streams "$streams" -out "$dir" "$@"
