"""The first second of a surge run against its steady seconds.

    python3 bench/firstsecond.py RUN result.json

prints RUN|FIRST|STEADY: the latency p99 (ms) of the run's first second
(series[0]) and the p99 of every full second after it (duration_s 1,
t >= 1), merged from the seconds' HdrHistograms (V2 encoding, values in
microseconds), as bench/peers.sh's first-second target asks: the pool's
connections must not be a storm at t=0.
"""
import base64
import json
import math
import struct
import sys
import zlib


def counts(b64):
    """Decodes one HdrHistogram (V2, compressed, base64) to {(value, width): count}."""
    raw = base64.b64decode(b64)
    _, n = struct.unpack(">ii", raw[:8])
    body = zlib.decompress(raw[8:8 + n])
    _, plen, _, sig, lowest, _, _ = struct.unpack(">iiiiqqd", body[:40])
    payload = body[40:40 + plen]
    sub = 1 << math.ceil(math.log2(2 * 10 ** sig))
    half_mag = int(math.log2(sub)) - 1
    half = sub >> 1
    unit = int(math.floor(math.log2(lowest)))
    out, i, index = {}, 0, 0
    while i < len(payload):
        v, shift = 0, 0
        while True:
            b = payload[i]
            i += 1
            v |= (b & 0x7F) << shift
            shift += 7
            if b < 0x80 or shift >= 63:
                break
        v = (v >> 1) ^ -(v & 1)  # zig-zag
        if v < 0:  # a run of empty buckets
            index += -v
            continue
        if v:
            bucket = (index >> half_mag) - 1
            s = (index & (half - 1)) + half
            if bucket < 0:
                s, bucket = s - half, 0
            key = (s << (bucket + unit), 1 << (bucket + unit))
            out[key] = out.get(key, 0) + v
        index += 1
    return out


def p99_ms(merged):
    total = sum(merged.values())
    if not total:
        return float("nan")
    want, run = math.ceil(0.99 * total), 0
    for (value, width), c in sorted(merged.items()):
        run += c
        if run >= want:
            return (value + width - 1) / 1e3  # the bucket's highest value, as surge reports
    return float("nan")


def main():
    run, path = sys.argv[1], sys.argv[2]
    series = json.load(open(path))["series"]
    if not series:
        return
    first = series[0]["latency_ms"]["p99"]
    steady = {}
    for s in series[1:]:
        if s.get("duration_s") != 1 or not s.get("latency_histogram"):
            continue
        for k, c in counts(s["latency_histogram"]).items():
            steady[k] = steady.get(k, 0) + c
    print(f"{run}|{first}|{p99_ms(steady)}")


main()
