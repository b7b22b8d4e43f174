#!/usr/bin/env bash
# End-to-end generator throughput against nginx from Debian's packages on
# loopback: how many requests per second one surge process drives, in the
# closed model (as fast as it can) and the open model (a fixed rate).
# Needs nginx installed (apt-get install nginx). Traffic stays on 127.0.0.1.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$(mktemp -d)
port=${PORT:-18090}
cat > "$dir/nginx.conf" <<CONF
worker_processes 1;
daemon on;
$( [ "$(id -u)" = 0 ] && echo 'user root;' )
pid $dir/nginx.pid;
error_log $dir/error.log warn;
events { worker_connections 8192; }
http {
    access_log off;
    client_body_temp_path $dir/body;
    keepalive_requests 1000000;
    server { listen 127.0.0.1:$port; location / { return 200 "ok\n"; } }
}
CONF
nginx -p "$dir" -c "$dir/nginx.conf"
trap 'kill $(cat "$dir/nginx.pid"); rm -rf "$dir"' EXIT
go build -o "$dir/surge" ./cmd/surge
"$dir/surge" run --url "http://127.0.0.1:$port/" --users 20 --duration 10s -q
"$dir/surge" run --url "http://127.0.0.1:$port/" --rate 5000 --duration 10s -q
