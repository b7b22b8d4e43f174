#!/usr/bin/env bash
# How the open model recovers when the generator's process does not run
# for a while: surge at $RATE/s for $DURATION (pool $POOL) pinned to core
# $GEN_CORE, nginx (one worker) on core $SRV_CORE, and every second a
# process of real-time priority (chrt -f 50) that takes the generator's
# core for $STALL_MS ms, as another process on a busy machine would. It
# prints, for the run, what was dropped, the generator's lag (its max is
# the stall itself if the catch-up adds nothing) and the p99.
# docs/performance.md holds the figures. Needs nginx, chrt and root (for
# the real-time priority); traffic stays on 127.0.0.1.
#
#   bash bench/catchup.sh               # about 30 seconds
#   POOL=40000 STALL_MS=50 bash bench/catchup.sh
. "$(dirname "$0")/lib.sh"
GEN_CORE=${GEN_CORE:-1}
SRV_CORE=${SRV_CORE:-0}
RATE=${RATE:-40000}
DURATION=${DURATION:-20s}
POOL=${POOL:-1000}
STALL_MS=${STALL_MS:-30}
PORT=${PORT:-18098}
command -v chrt >/dev/null || { echo "catchup.sh: needs chrt (util-linux)" >&2; exit 1; }
[ "$(id -u)" = 0 ] || { echo "catchup.sh: needs root for a real-time priority" >&2; exit 1; }
NGINX_CONNECTIONS=16384 NGINX_KEEPALIVE_REQUESTS=100000000 NGINX_LISTEN=backlog=4096 \
  NGINX_WRAP="taskset -c $SRV_CORE" start_nginx "$PORT"
ulimit -n 65536 2>/dev/null || true
build_surge
secs=${DURATION%s}
cat > "$dir/stall.py" <<'PY'
import sys, time
ms, n = float(sys.argv[1]), int(sys.argv[2])
for _ in range(n):
    time.sleep(1)
    t = time.perf_counter()
    while time.perf_counter() - t < ms / 1000:
        pass
PY
(sleep 1; chrt -f 50 taskset -c "$GEN_CORE" python3 "$dir/stall.py" "$STALL_MS" $((secs - 2))) &
stall=$!
at_exit kill $stall
taskset -c "$GEN_CORE" "$dir/surge" run --url "http://127.0.0.1:$PORT/" --rate "$RATE" --max-users "$POOL" \
  --duration "$DURATION" --out "$dir/r.json" -q >/dev/null || true
wait $stall || true
python3 - "$dir/r.json" "$RATE" "$POOL" "$STALL_MS" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
t, g = r["totals"], r["generator"]
stalled = sum(1 for p in r["series"] if p["generator"]["lag_max_ms"] >= float(sys.argv[4]) * 0.8)
print(f"| {sys.argv[2]}/s, pool {sys.argv[3]}, {sys.argv[4]} ms stalls | {t['requests']} | {t['dropped']} | "
      f"{stalled} | {g['lag_ms']['max']:.1f} | {t['latency_ms']['p99']:.2f} |")
PY
