#!/usr/bin/env python3
"""A latency-at-load sweep as the runner ran it (one multi-stream phase per offered read rate), from
its JSON lines: per step the open-loop read streams' offered and achieved rate and their read
service and response time percentiles (nearest rank, as streams_report.py). Prints a table; with
--check, fails (exit 1) when a stated bound does not hold.

  sweep_report.py RUN.jsonl [--check KEY=VALUE ...]

Checks: kept-up-pct=P (every step before the first saturated one achieves its offer within P %),
saturated-from=STEP (the first step achieving under 98 % of its offer is the STEP-th, 1-based),
knee-at=STEP (the first step whose response P99.99 exceeds 3x the lowest of the steps before it,
or that saturates, is the STEP-th), tail-rises-past-knee (every step from the knee on has a
response P99.99 above the knee's low-load value x 3), skipped-after-saturation=N (the runner ran
no step after the first saturated one: exactly N steps follow it, each a phase-completed with
skipped naming the saturated step, no IO, no phase-started and no samples), job-time-is-ran-steps
(the job's completed durationNs exceeds the sum of its run phases' durations by under a second:
the skipped steps cost no time).
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from streams_report import value_at  # noqa: E402

SATURATION_MARGIN = 0.02
KNEE_MULTIPLE = 3.0


def messages_of(path):
    with open(path) as f:
        return [json.loads(line) for line in f]


def skipped_of(messages):
    return [m for m in messages if m.get("type") == "phase-completed" and "skipped" in m]


def steps_of(path):
    steps = []
    for m in messages_of(path):
        if m.get("type") != "phase-completed" or "streams" not in m:
            continue
        seconds = m["durationNs"] / 1e9
        offered = achieved = 0
        response = service = None
        for s in m["streams"]:
            if "offeredIos" not in s or "read" not in s:
                continue
            offered += s["offeredIos"]
            achieved += s["read"]["ios"]
            # one read stream per step in these sweeps: its histograms as they are
            service = s["read"]["latencyHistogram"]
            response = s["read"]["responseTime"]["latencyHistogram"]
        if offered:
            steps.append({"name": m["phaseName"], "offered": offered / seconds,
                          "achieved": achieved / seconds, "service": service,
                          "response": response,
                          "p9999": value_at(response, 99.99)})
    return steps


def judge(steps):
    saturated = next((i for i, s in enumerate(steps)
                      if s["achieved"] < (1 - SATURATION_MARGIN) * s["offered"]), None)
    low = steps[0]["p9999"]
    knee = 0 if saturated == 0 else None
    for i in range(1, len(steps)):
        if knee is not None:
            break
        if i == saturated or steps[i]["p9999"] > KNEE_MULTIPLE * low:
            knee = i
            break
        low = min(low, steps[i]["p9999"])
    return saturated, knee, low


def check_skipped(messages, steps, saturated, skipped, expected):
    if saturated is None:
        return ["no step saturated"]
    failures = []
    if len(skipped) != expected:
        failures.append(f"{len(skipped)} steps skipped, expected {expected}")
    if steps[-1]["name"] != steps[saturated]["name"]:
        failures.append(f"steps ran after the saturated {steps[saturated]['name']}: {steps[-1]['name']}")
    saturated_index = next(m["phaseIndex"] for m in messages if m.get("type") == "phase-completed"
                           and m["phaseName"] == steps[saturated]["name"])
    for m in skipped:
        index = m["phaseIndex"]
        if index <= saturated_index or m["skipped"]["saturatedPhaseIndex"] != saturated_index:
            failures.append(f"{m['phaseName']}: skipped for step {m['skipped']['saturatedPhaseIndex']}")
        if m["durationNs"] != 0 or m["samples"] != 0 or m["read"]["ios"] != 0:
            failures.append(f"{m['phaseName']}: a skipped step with time or IO")
        if any(o.get("phaseIndex") == index for o in messages
               if o.get("type") == "phase-started" or "t" in o):
            failures.append(f"{m['phaseName']}: a skipped step started or sampled")
    return failures


def main(argv):
    steps = steps_of(argv[1])
    if len(steps) < 2:
        print(f"{argv[1]}: fewer than two steps")
        return 1
    saturated, knee, low = judge(steps)
    messages = messages_of(argv[1])
    skipped = skipped_of(messages)
    print("step               offered   achieved      % | service P50 P99 P99.99 (us) | response P99 P99.99 max (us)")
    for i, s in enumerate(steps):
        mark = " <- knee" if i == knee else ""
        mark += " <- first saturated" if i == saturated else ""
        print(f"{s['name']:<16} {s['offered']:9.0f} {s['achieved']:9.0f} {100 * s['achieved'] / s['offered']:6.2f} |"
              f" {value_at(s['service'], 50) / 1e3:8.1f} {value_at(s['service'], 99) / 1e3:8.1f}"
              f" {value_at(s['service'], 99.99) / 1e3:8.1f} |"
              f" {value_at(s['response'], 99) / 1e3:10.1f} {s['p9999'] / 1e3:10.1f}"
              f" {s['response']['maxNs'] / 1e3:10.1f}{mark}")
    for m in skipped:
        print(f"{m['phaseName']:<16} {m['skipped']['message']}")
    completed = next((m for m in messages if m.get("type") == "completed"), None)
    ran_ns = sum(m["durationNs"] for m in messages if m.get("type") == "phase-completed")
    if completed is not None:
        print(f"job: {completed['durationNs'] / 1e9:.1f} s on its clock, its run phases {ran_ns / 1e9:.1f} s,"
              f" {len(skipped)} step(s) skipped")
    failures = []
    for key, value in (a.split("=", 1) if "=" in a else (a, "") for a in argv[2:] if a != "--check"):
        if key == "kept-up-pct":
            for s in steps[:saturated if saturated is not None else len(steps)]:
                if s["achieved"] < s["offered"] * (1 - float(value) / 100):
                    failures.append(f"{s['name']}: achieved {s['achieved']:.0f} of {s['offered']:.0f}")
        elif key == "saturated-from":
            if saturated is None or saturated + 1 != int(value):
                failures.append(f"first saturated step {None if saturated is None else saturated + 1}, expected {value}")
        elif key == "knee-at":
            if knee is None or knee + 1 != int(value):
                failures.append(f"knee at step {None if knee is None else knee + 1}, expected {value}")
        elif key == "tail-rises-past-knee":
            if knee is None:
                failures.append("no knee")
            else:
                for s in steps[knee:]:
                    if s["p9999"] <= KNEE_MULTIPLE * low:
                        failures.append(f"{s['name']}: P99.99 {s['p9999']} ns not above 3 x {low} ns")
        elif key == "skipped-after-saturation":
            failures += check_skipped(messages, steps, saturated, skipped, int(value))
        elif key == "job-time-is-ran-steps":
            if completed is None or not 0 <= completed["durationNs"] - ran_ns < 1e9:
                failures.append(f"job time {completed and completed['durationNs']} ns vs run phases {ran_ns} ns")
        else:
            failures.append(f"unknown check {key}")
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
