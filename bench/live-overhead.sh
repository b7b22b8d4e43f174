#!/usr/bin/env bash
# The cost of following a run live: the generator's CPU time for the same
# open-model load (RATE arrivals per second against nginx on loopback, for
# DURATION), without and with the live page (--ui, an SSE client attached
# to /events, /metrics scraped every second) and all four outputs on
# (prometheus-rw and influxdb to Debian's Prometheus and InfluxDB, otlp to
# a local receiver, jsonl to a file). Runs alternate, ROUNDS times each;
# the figures are the CPU seconds (user+system) of the surge process.
# Needs nginx, prometheus and influxdb (apt-get install nginx prometheus
# influxdb). Traffic stays on 127.0.0.1.
. "$(dirname "$0")/lib.sh"
RATE=${RATE:-20000}
DURATION=${DURATION:-20s}
ROUNDS=${ROUNDS:-3}
pids=()
at_exit 'kill "${pids[@]}"'

np=$(free_port)
NGINX_CONNECTIONS=8192 NGINX_KEEPALIVE_REQUESTS=1000000 start_nginx "$np"

pp=$(free_port)
printf 'global:\n  scrape_interval: 1m\n' > "$dir/prom.yml"
prometheus --config.file="$dir/prom.yml" --storage.tsdb.path="$dir/prom" --web.listen-address=127.0.0.1:$pp \
  --web.enable-remote-write-receiver --enable-feature=native-histograms >"$dir/prom.log" 2>&1 &
pids+=($!)
ip=$(free_port); irpc=$(free_port)
cat > "$dir/influx.conf" <<CONF
reporting-disabled = true
bind-address = "127.0.0.1:$irpc"
[meta]
  dir = "$dir/influx/meta"
[data]
  dir = "$dir/influx/data"
  wal-dir = "$dir/influx/wal"
  query-log-enabled = false
[monitor]
  store-enabled = false
[http]
  bind-address = "127.0.0.1:$ip"
  log-enabled = false
[continuous_queries]
  enabled = false
CONF
influxd -config "$dir/influx.conf" >"$dir/influx.log" 2>&1 &
pids+=($!)
op=$(free_port)
python3 - "$op" >"$dir/otlp.log" 2>&1 <<'PY' &
import sys, http.server
class H(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self.send_response(200); self.end_headers()
    def log_message(self, *a): pass
http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
PY
pids+=($!)
for i in $(seq 100); do
  curl -sf "http://127.0.0.1:$pp/-/ready" >/dev/null && curl -sf "http://127.0.0.1:$ip/ping" >/dev/null && break
  sleep 0.2
done
curl -sf -XPOST "http://127.0.0.1:$ip/query" --data-urlencode "q=CREATE DATABASE surge" >/dev/null

build_surge
load=(run --url "http://127.0.0.1:$np/" --rate "$RATE" --duration "$DURATION" --max-users 400 -q --out "$dir/r.json")

# run NAME ARGS...: one run, its CPU seconds and achieved rate on one line.
run() {
  local name=$1; shift
  /usr/bin/time -f "%U %S" -o "$dir/time" "$dir/surge" "${load[@]}" "$@" >/dev/null 2>"$dir/err" || true
  python3 - "$name" "$dir/time" "$dir/r.json" <<'PY'
import json, sys
name, tf, rf = sys.argv[1:]
u, s = map(float, open(tf).read().split()[-2:])
r = json.load(open(rf))
t = r["totals"]
outs = ", ".join(f'{o["kind"]} {o["sent"]}/{o["points"]} sent' for o in r.get("outputs", []))
per = (u + s) / max(t["requests"], 1) * 1e6
print(f"{name:8s} cpu {u+s:6.2f}s  requests {t['requests']}  rps {t['rps']:.0f}  dropped {t['dropped']}  cpu/request {per:.1f}us  {outs}")
PY
}
live() {
  local up; up=$(free_port)
  ( sleep 1; curl -sN "http://127.0.0.1:$up/events" >/dev/null ) &
  local c1=$!
  ( sleep 1; while curl -sf "http://127.0.0.1:$up/metrics" >/dev/null; do sleep 1; done ) &
  local c2=$!
  run live --ui "127.0.0.1:$up" \
    --output "prometheus-rw=http://127.0.0.1:$pp/api/v1/write" \
    --output "influxdb=http://127.0.0.1:$ip/write?db=surge" \
    --output "otlp=http://127.0.0.1:$op" \
    --output "jsonl=$dir/points.jsonl"
  kill $c1 $c2 2>/dev/null || true
}
for r in $(seq "$ROUNDS"); do
  run plain
  live
done
