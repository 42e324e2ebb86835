#!/usr/bin/env python3
"""What a multi-stream run measured, from its JSON lines: per stream and direction the offered
and achieved IOs of every second, and the phase's service-time and response-time percentiles
(HdrHistogram's nearest rank over the exported buckets, as the service computes them). Prints a
table; with --check, fails (exit 1) when a stated bound does not hold.

  streams_report.py RUN.jsonl [--check KEY=VALUE ...]

Checks: rate-within-pct=P (every whole second of every open-loop stream achieves its offer within
P %, seconds 2..N-1), total-rate-within-pct=P (every open-loop stream's whole phase achieves its
offer within P %), offered=STREAM:N, service-p9999-below-ns=STREAM:DIR:NS,
response-p9999-above-ns=STREAM:DIR:NS, service-max-above-ns=STREAM:DIR:NS,
ios-above=STREAM:DIR:N.
"""
import json
import math
import sys

PERCENTILES = (50, 99, 99.9, 99.99, 99.9999)


def value_at(histogram, percentile):
    total = histogram["totalCount"]
    rank = max(1, math.ceil(percentile / 100.0 * total))
    seen = 0
    for value, count in histogram["counts"]:
        seen += count
        if seen >= rank:
            # the bucket's lowest value; the service reports the highest equivalent, at most max
            return min(value, histogram["maxNs"])
    return histogram["maxNs"]


def main(argv):
    path = argv[1]
    checks = [a.split("=", 1) for a in argv[2:] if a != "--check"]
    samples, done = [], None
    with open(path) as f:
        for line in f:
            m = json.loads(line)
            if "t" in m and "streams" in m:
                samples.append(m)
            elif m.get("type") == "phase-completed" and "streams" in m:
                done = m
    if done is None:
        print(f"{path}: no multi-stream phase-completed")
        return 1
    names = {s["index"]: s["name"] for s in done["streams"]}
    failures = []
    print(f"{len(samples)} samples, phase {done['phaseName']}, {done['durationNs'] / 1e9:.3f} s")
    print("per second: stream offered/achieved (all directions)")
    for m in samples:
        row = []
        for s in m["streams"]:
            achieved = sum(s[d]["ios"] for d in ("read", "write", "trim"))
            offered = s.get("offeredIos")
            row.append(f"{names[s['index']]} {offered if offered is not None else '-'}/{achieved}")
        print(f"  t={m['t']:>4}  " + "  ".join(row))
    print("phase: stream direction ios | service p50 p99 p99.9 p99.99 p99.9999 max (us) | response ...")
    figures = {}
    for s in done["streams"]:
        for d in ("read", "write", "trim"):
            if d not in s or s[d]["ios"] == 0:
                continue
            totals = s[d]
            service = [value_at(totals["latencyHistogram"], p) for p in PERCENTILES]
            service.append(totals["latencyHistogram"]["maxNs"])
            response = None
            if "responseTime" in totals:
                h = totals["responseTime"]["latencyHistogram"]
                response = [value_at(h, p) for p in PERCENTILES] + [h["maxNs"]]
            figures[(s["name"], d)] = (totals["ios"], service, response)
            line = f"  {s['name']:<10} {d:<5} {totals['ios']:>9} |"
            line += " ".join(f"{v / 1e3:9.1f}" for v in service)
            if response:
                line += " | " + " ".join(f"{v / 1e3:9.1f}" for v in response)
            print(line)
        if "offeredIos" in s:
            achieved = sum(s[d]["ios"] for d in ("read", "write", "trim") if d in s)
            print(f"  {s['name']}: offered {s['offeredIos']}, achieved {achieved}, "
                  f"most IOs waiting for a slot at once {s.get('maxBacklog')}")
    for key, value in checks:
        if key == "rate-within-pct":
            bound = float(value)
            for m in samples[1:-1]:
                for s in m["streams"]:
                    offered = s.get("offeredIos")
                    if not offered:
                        continue
                    achieved = sum(s[d]["ios"] for d in ("read", "write", "trim"))
                    if abs(achieved - offered) > bound / 100.0 * offered:
                        failures.append(f"t={m['t']} {names[s['index']]}: achieved {achieved} "
                                        f"of {offered} offered (> {bound} % off)")
            continue
        if key == "total-rate-within-pct":
            bound = float(value)
            for stream in done["streams"]:
                offered = stream.get("offeredIos")
                if not offered:
                    continue
                achieved = sum(stream[d]["ios"] for d in ("read", "write", "trim") if d in stream)
                if abs(achieved - offered) > bound / 100.0 * offered:
                    failures.append(f"{stream['name']}: achieved {achieved} of {offered} offered "
                                    f"in the phase (> {bound} % off)")
            continue
        parts = value.split(":")
        if key == "offered":
            stream = next(s for s in done["streams"] if s["name"] == parts[0])
            if stream.get("offeredIos") != int(parts[1]):
                failures.append(f"{parts[0]} offered {stream.get('offeredIos')}, not {parts[1]}")
            continue
        ios, service, response = figures[(parts[0], parts[1])]
        bound = float(parts[2])
        if key == "service-p9999-below-ns" and not service[3] < bound:
            failures.append(f"{parts[0]} {parts[1]} service P99.99 {service[3]} ns >= {bound}")
        elif key == "response-p9999-above-ns" and not (response and response[3] > bound):
            failures.append(f"{parts[0]} {parts[1]} response P99.99 "
                            f"{response[3] if response else None} ns <= {bound}")
        elif key == "service-max-above-ns" and not service[5] > bound:
            failures.append(f"{parts[0]} {parts[1]} service max {service[5]} ns <= {bound}")
        elif key == "ios-above" and not ios > bound:
            failures.append(f"{parts[0]} {parts[1]} completed {ios} IOs, not more than {bound}")
    for f in failures:
        print("FAIL: " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
