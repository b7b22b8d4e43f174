#!/usr/bin/env bash
# How often surge compare flags a change that is not there (A/A: the same
# system run twice) and catches one that is (A/B: the demo 20% slower), on
# this machine. Against nginx (Debian's package) and the demo, each in its
# own process on loopback; every run is short (DURATION, default 4s) so the
# whole costs minutes. Prints one Markdown table per group; docs/reports.md
# holds the figures. PAIRS (default 20) pairs per group; RUNS (default 3)
# runs per side for the multi-run form. KEEP=1 keeps the result files (in
# the temporary directory it names at the end): go run ./bench/aa reads
# them again, with -show METRIC each comparison's row.
. "$(dirname "$0")/lib.sh"
pairs=${PAIRS:-20}
duration=${DURATION:-4s}
rate=${RATE:-200}
nport=${NGINX_PORT:-18191}
dport=${DEMO_PORT:-18192}
sport=${SLOW_PORT:-18193}
build_surge
start_nginx "$nport"
"$dir/surge" demo --addr "127.0.0.1:$dport" --latency 10ms >/dev/null 2>&1 &
demo=$!
"$dir/surge" demo --addr "127.0.0.1:$sport" --latency 12ms >/dev/null 2>&1 &
slow=$!
at_exit kill $demo $slow
sleep 1
run() { "$dir/surge" run --url "$1" --rate "$rate" --duration "$duration" --max-users 100 -q --out "$2" >/dev/null || true; }
nginx_files=() demo_files=() slow_files=()
for i in $(seq "$pairs"); do
  run "http://127.0.0.1:$nport/" "$dir/n$i-a.json"; run "http://127.0.0.1:$nport/" "$dir/n$i-b.json"
  nginx_files+=("$dir/n$i-a.json" "$dir/n$i-b.json")
  run "http://127.0.0.1:$dport/api/v1/logs/stats" "$dir/d$i-a.json"; run "http://127.0.0.1:$dport/api/v1/logs/stats" "$dir/d$i-b.json"
  demo_files+=("$dir/d$i-a.json" "$dir/d$i-b.json")
  run "http://127.0.0.1:$sport/api/v1/logs/stats" "$dir/s$i.json"
  slow_files+=("$dir/d$i-a.json" "$dir/s$i.json")
done
# One run per side (surge compare a.json b.json), then RUNS runs per side
# (surge compare a1 a2 a3 -- b1 b2 b3): consecutive pairs, disjoint, so
# PAIRS/RUNS comparisons.
runs=${RUNS:-3}
go build -o "$dir/aa" ./bench/aa
for k in 1 "$runs"; do
  "$dir/aa" -runs "$k" -label "nginx A/A" "${nginx_files[@]}"
  echo
  "$dir/aa" -runs "$k" -label "demo A/A" "${demo_files[@]}"
  echo
  "$dir/aa" -runs "$k" -label "demo A/B, B 20% slower" "${slow_files[@]}"
  echo
done
[ -z "${KEEP:-}" ] || echo "result files kept in $dir" >&2
