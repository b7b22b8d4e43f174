#!/usr/bin/env bash
# End-to-end generator throughput against nginx from Debian's packages on
# loopback: how many requests per second one surge process drives, in the
# closed model (as fast as it can) and the open model (a fixed rate).
# Needs nginx installed (apt-get install nginx). Traffic stays on 127.0.0.1.
. "$(dirname "$0")/lib.sh"
port=${PORT:-18090}
NGINX_CONNECTIONS=8192 NGINX_KEEPALIVE_REQUESTS=1000000 start_nginx "$port"
build_surge
"$dir/surge" run --url "http://127.0.0.1:$port/" --users 20 --duration 10s -q
"$dir/surge" run --url "http://127.0.0.1:$port/" --rate 5000 --duration 10s -q
