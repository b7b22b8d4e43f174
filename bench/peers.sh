#!/usr/bin/env bash
# surge beside its peers, in one run, on one machine: every generator pinned
# to one core (taskset -c $GEN_CORE), nginx with one worker pinned to the
# other ($SRV_CORE), GET keep-alive of `return 200`. It prints a table and
# the ratios the engine's targets are stated in (docs/performance.md):
#
#   closed loop, 64 connections, $CLOSED: surge vs wrk (Debian's wrk), hey;
#     $ROUNDS rounds (default 3), alternating, judged on the median ratio
#   open model at $RATES per second for $OPEN: surge vs wrk2 (-R, a build
#     of giltene/wrk2 at $WRK2; it calibrates for 10 s, so $OPEN >= 20s)
#     and vegeta
#   one compiled scenario step (a URL template and a JSON capture) vs the
#     bare GET, both surge, closed loop
#   surge's first second of each open-model run vs its steady seconds: the
#     p99 of second 0 against the p99 of the full seconds after it, merged
#     from the result's per-second histograms (bench/firstsecond.py)
#
# CPU per request is the generator process's user + system time (GNU time)
# over the requests it completed. hey and vegeta are `go install`ed into a
# temporary GOBIN; a peer that cannot be installed or is missing is skipped
# and the table says so. Traffic stays on 127.0.0.1. Needs nginx.
#
#   bash bench/peers.sh                 # about 7 minutes
#   RATES="5000 20000" OPEN=20s bash bench/peers.sh
. "$(dirname "$0")/lib.sh"
GEN_CORE=${GEN_CORE:-1}
SRV_CORE=${SRV_CORE:-0}
CLOSED=${CLOSED:-10s}
OPEN=${OPEN:-20s}
RATES=${RATES:-"5000 10000 20000 40000"}
POOL=${POOL:-1000}
ROUNDS=${ROUNDS:-3}
WRK2=${WRK2:-$root/../shared/bin/wrk2}
[ -x "$WRK2" ] || WRK2=/work/shared/bin/wrk2
PORT=${PORT:-18097}

NGINX_CONNECTIONS=16384 NGINX_KEEPALIVE_REQUESTS=100000000 NGINX_LISTEN=backlog=4096 \
  NGINX_LOCATIONS="location /item/ { default_type application/json; return 200 '{\"id\":42,\"name\":\"item\"}'; }" \
  NGINX_WRAP="taskset -c $SRV_CORE" start_nginx "$PORT"
url=http://127.0.0.1:$PORT/
ulimit -n 65536 2>/dev/null || true

build_surge
mkdir -p "$dir/bin"
have() { [ -x "$1" ]; }
GOBIN=$dir/bin go install github.com/rakyll/hey@latest >/dev/null 2>&1 || echo "hey: go install failed; skipped" >&2
GOBIN=$dir/bin go install github.com/tsenart/vegeta/v12@latest >/dev/null 2>&1 || echo "vegeta: go install failed; skipped" >&2
[ -x "$WRK2" ] || echo "wrk2: not found at $WRK2; skipped" >&2
command -v wrk >/dev/null || echo "wrk: not installed (apt-get install wrk); skipped" >&2

cat > "$dir/step.yaml" <<YAML
target: http://127.0.0.1:$PORT
defaults: {cookies: false}
scenarios:
  step:
    load: {users: 64, duration: $CLOSED}
    tasks:
      - name: item
        get: /item/{{ user }}
        expect: {status: 200}
        capture: {id: json.id}
YAML

rows=$dir/rows firsts=$dir/firsts
: > "$rows"; : > "$firsts"
# row RUN TOOL REQUESTS RPS P99MS MISSED CPU_SECONDS
row() { echo "$1|$2|$3|$4|$5|$6|$7" >> "$rows"; }

# timed CMD...: runs CMD pinned to the generator core; its output is in
# $dir/out, its CPU seconds (user + system) in $cpu.
timed() {
	/usr/bin/time -f "%U %S" -o "$dir/time" taskset -c "$GEN_CORE" "$@" > "$dir/out" 2>&1 || { echo "failed: $*" >&2; tail -3 "$dir/out" >&2; }
	cpu=$(awk '{print $1 + $2}' "$dir/time" | tail -1)
}

surge_row() { # RUN, then surge run arguments
	local run=$1; shift
	timed "$dir/surge" run "$@" --out "$dir/r.json" -q
	python3 - "$run" "$cpu" "$dir/r.json" >> "$rows" <<'PY'
import json, sys
run, cpu, path = sys.argv[1], sys.argv[2], sys.argv[3]
t = json.load(open(path))["totals"]
print(f"{run}|surge|{t['requests']}|{t['rps']:.0f}|{t['latency_ms']['p99']:.2f}|{t['dropped']}|{cpu}")
PY
	python3 "$root/bench/firstsecond.py" "$run" "$dir/r.json" >> "$firsts"
}

wrk_row() { # RUN TOOL, then wrk arguments; wrk's --latency table has 99%
	local run=$1 tool=$2; shift 2
	timed "$@"
	python3 - "$run" "$tool" "$cpu" "$dir/out" >> "$rows" <<'PY'
import re, sys
run, tool, cpu, path = sys.argv[1:5]
out = open(path).read()
n = int(re.search(r"(\d+) requests in ([\d.]+)(m?s)", out).group(1))
secs = float(re.search(r"requests in ([\d.]+)s", out).group(1))
m = re.search(r"^\s*99(?:\.0+)?%\s+([\d.]+)(us|ms|s)\b", out, re.M)
unit = {"us": 1e-3, "ms": 1, "s": 1e3}
p99 = float(m.group(1)) * unit[m.group(2)] if m else float("nan")
err = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
print(f"{run}|{tool}|{n}|{n/secs:.0f}|{p99:.2f}|{err.group(1) if err else 0}|{cpu}")
PY
}

hey_row() {
	local run=$1; shift
	timed "$dir/bin/hey" "$@"
	python3 - "$run" "$cpu" "$dir/out" >> "$rows" <<'PY'
import re, sys
run, cpu, path = sys.argv[1:4]
out = open(path).read()
n = sum(int(x) for x in re.findall(r"\[\d+\]\s+(\d+) responses", out))
rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
p99 = float(re.search(r"99%+ in ([\d.]+) secs", out).group(1)) * 1e3
print(f"{run}|hey|{n}|{rps:.0f}|{p99:.2f}|0|{cpu}")
PY
}

vegeta_row() { # RUN RATE
	local run=$1 rate=$2
	echo "GET $url" > "$dir/targets"
	timed "$dir/bin/vegeta" attack -rate="$rate" -duration="$OPEN" -max-workers="$POOL" -keepalive=true -targets="$dir/targets" -output="$dir/veg.bin"
	"$dir/bin/vegeta" report -type=json "$dir/veg.bin" > "$dir/veg.json" 2>/dev/null || true
	python3 - "$run" "$cpu" "$dir/veg.json" "$rate" "$OPEN" >> "$rows" <<'PY'
import json, sys, re
run, cpu, path, rate, dur = sys.argv[1:6]
r = json.load(open(path))
secs = float(re.match(r"([\d.]+)s", dur).group(1))
planned = int(float(rate) * secs)
print(f"{run}|vegeta|{r['requests']}|{r['throughput']:.0f}|{r['latencies']['99th']/1e6:.2f}|{planned - r['requests']}|{cpu}")
PY
}

load0=$(cut -d' ' -f1-3 /proc/loadavg) # the machine must be quiet for the figures to mean anything
# The closed-loop and step runs are short and one after another, so another
# process that takes the machine for a few seconds moves one of them: they
# run ROUNDS times, alternating, and the targets take the median of the
# rounds' ratios (every round is printed).
for round in $(seq "$ROUNDS"); do
	echo "closed loop, 64 connections, $CLOSED (round $round of $ROUNDS)" >&2
	command -v wrk >/dev/null && wrk_row "closed $round" wrk wrk -t1 -c64 -d"$CLOSED" --latency "$url"
	surge_row "closed $round" --url "$url" --users 64 --duration "$CLOSED"
	[ "$round" = 1 ] && have "$dir/bin/hey" && hey_row "closed $round" -c 64 -z "$CLOSED" "$url"
	echo "scenario step (template + JSON capture), 64 users, $CLOSED (round $round of $ROUNDS)" >&2
	surge_row "step $round" "$dir/step.yaml"
done

for rate in $RATES; do
	echo "open model $rate/s, $OPEN" >&2
	surge_row "open $rate/s" --url "$url" --rate "$rate" --max-users "$POOL" --duration "$OPEN"
	[ -x "$WRK2" ] && wrk_row "open $rate/s" wrk2 "$WRK2" -t1 -c100 -d"$OPEN" -R"$rate" --latency "$url"
	have "$dir/bin/vegeta" && vegeta_row "open $rate/s" "$rate"
done

loadavg=$(cut -d' ' -f1-3 /proc/loadavg)
python3 - "$rows" "$loadavg" "$(nproc)" "$firsts" "$load0" <<'PY'
import sys
rows = [l.rstrip("\n").split("|") for l in open(sys.argv[1]) if l.strip()]
firsts = {l.split("|")[0]: [float(x) for x in l.split("|")[1:]] for l in open(sys.argv[4]) if l.strip()}
print(f"load average at the start {sys.argv[5]}, at the end {sys.argv[2]}, on {sys.argv[3]} cores\n")
print("| run | tool | requests | req/s | p99 ms | dropped/missed | CPU µs/req |")
print("|---|---|---:|---:|---:|---:|---:|")
by = {}
for run, tool, n, rps, p99, missed, cpu in rows:
    n = int(n)
    us = float(cpu) * 1e6 / n if n else float("nan")
    by[(run, tool)] = dict(n=n, rps=float(rps), p99=float(p99), missed=int(missed), us=us)
    print(f"| {run} | {tool} | {n} | {rps} | {p99} | {missed} | {us:.1f} |")
print("\n| target | figure | verdict |\n|---|---|---|")
def verdict(ok): return "pass" if ok else "FAIL"
def rounds(num, den, field, run="closed"):
    """The ratios num/den of field, one per round, and their median."""
    rs = []
    for (r, tool), v in by.items():
        if r.startswith("closed ") and tool == "surge":
            k = r.split(" ", 1)[1]
            a, b = by.get((num[0] + " " + k, num[1])), by.get((den[0] + " " + k, den[1]))
            if a and b and b[field] > 0:
                rs.append(a[field] / b[field])
    if not rs:
        return None, ""
    med = sorted(rs)[len(rs) // 2] if len(rs) % 2 else sum(sorted(rs)[len(rs)//2-1:len(rs)//2+1]) / 2
    text = ", ".join(f"{r:.2f}×" for r in rs)
    return med, (f"{text} (median {med:.2f}×)" if len(rs) > 1 else text)
r, text = rounds(("closed", "surge"), ("closed", "wrk"), "rps")
if r is not None:
    print(f"| closed loop: surge ≥ 0.8× wrk's req/s | {text} | {verdict(r >= 0.8)} |")
r, text = rounds(("step", "surge"), ("closed", "surge"), "us")
if r is not None:
    print(f"| scenario step ≤ 1.5× the CPU of a bare GET | {text} | {verdict(r <= 1.5)} |")
for (run, tool), v in by.items():
    if not run.startswith("open") or tool != "surge":
        continue
    print(f"| {run}: 0 dropped | {v['missed']} | {verdict(v['missed'] == 0)} |")
    w2 = by.get((run, "wrk2"))
    if w2:
        r = v["p99"] / w2["p99"]
        print(f"| {run}: p99 ≤ 1.5× wrk2's | {v['p99']:.2f} / {w2['p99']:.2f} ms = {r:.2f}× | {verdict(r <= 1.5)} |")
        r = v["us"] / w2["us"]
        print(f"| {run}: CPU/request ≤ 2× wrk2's | {v['us']:.1f} / {w2['us']:.1f} µs = {r:.2f}× | {verdict(r <= 2)} |")
    if run in firsts:
        first, steady = firsts[run]
        r = first / steady if steady > 0 else float("nan")
        print(f"| {run}: first second's p99 ≤ 2× the steady seconds' | {first:.2f} / {steady:.2f} ms = {r:.2f}× | {verdict(r <= 2)} |")
PY
