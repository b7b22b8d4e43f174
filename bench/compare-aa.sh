#!/usr/bin/env bash
# How often surge compare flags a change that is not there (A/A: the same
# system run twice) and catches one that is (A/B: the demo 20% slower), on
# this machine. Against nginx (Debian's package) and the demo, each in its
# own process on loopback; every run is short (DURATION, default 4s) so the
# whole costs minutes. Prints one Markdown table per group; docs/reports.md
# holds the figures. PAIRS (default 20) pairs per group.
set -euo pipefail
cd "$(dirname "$0")/.."
pairs=${PAIRS:-20}
duration=${DURATION:-4s}
rate=${RATE:-200}
dir=$(mktemp -d)
nport=${NGINX_PORT:-18191}
dport=${DEMO_PORT:-18192}
sport=${SLOW_PORT:-18193}
go build -o "$dir/surge" ./cmd/surge
cat > "$dir/nginx.conf" <<CONF
worker_processes 1;
daemon on;
$( [ "$(id -u)" = 0 ] && echo 'user root;' )
pid $dir/nginx.pid;
error_log $dir/error.log warn;
events { worker_connections 4096; }
http {
    access_log off;
    client_body_temp_path $dir/body;
    server { listen 127.0.0.1:$nport; location / { return 200 "ok\n"; } }
}
CONF
nginx -p "$dir" -c "$dir/nginx.conf"
"$dir/surge" demo --addr "127.0.0.1:$dport" --latency 10ms >/dev/null 2>&1 &
demo=$!
"$dir/surge" demo --addr "127.0.0.1:$sport" --latency 12ms >/dev/null 2>&1 &
slow=$!
trap 'kill $(cat "$dir/nginx.pid") $demo $slow 2>/dev/null; rm -rf "$dir"' EXIT
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
go run ./bench/aa -label "nginx A/A" "${nginx_files[@]}"
echo
go run ./bench/aa -label "demo A/A" "${demo_files[@]}"
echo
go run ./bench/aa -label "demo A/B, B 20% slower" "${slow_files[@]}"
