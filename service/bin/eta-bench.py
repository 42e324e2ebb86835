#!/usr/bin/env python3
"""The ETA benchmark's driver (service/bin/drivequal-eta-bench starts the stack and calls it).

Submits each scenario's jobs through the API, polls every job once a second until all are final,
records every answer (polls.jsonl), then compares what the API predicted with what happened:
for a running job, the predicted total duration (time since it started + etaS) against the actual
one (endedAt - startedAt) at 10 %, 50 % and 90 % of the actual duration; for a queued job, the
predicted end (now + etaS, the wait included) against its actual end; and at every poll of a running
job from 10 % of its run on, whether the interval (lowS-highS) held the actual time left. Standard
library only.
"""
import argparse
import base64
import datetime
import json
import os
import sys
import time
import urllib.error
import urllib.request

FINAL = {"COMPLETED", "FAILED", "CANCELLED", "INTERRUPTED"}
POINTS = (0.10, 0.50, 0.90)
SEARCHABLE_AFTER_S = 2.0

# The demo's submission (service/bin/drivequal-local): the same spec and criteria.
DEMO_SPEC = {"rawNandBytes": 274877906944, "ratedPeCycles": 3000, "warrantyYears": 5}
DEMO_CRITERIA = [
    {"metric": "steadyStateIops", "comparator": "atLeast", "limit": 20000},
    {"metric": "consistencyRatio", "comparator": "atLeast", "limit": 0.8},
    {"metric": "writeLatencyP9999Us", "comparator": "atMost", "limit": 10000},
    {"metric": "waf", "comparator": "atMost", "limit": 3.0},
]


class Api:
    def __init__(self, url, users):
        self.url = url.rstrip("/") + "/api/v1"
        self.users = users

    def call(self, method, path, user, body=None, headers=None):
        request = urllib.request.Request(self.url + path, method=method)
        token = base64.b64encode(f"{user}:{self.users[user]}".encode()).decode()
        request.add_header("Authorization", "Basic " + token)
        for name, value in (headers or {}).items():
            request.add_header(name, value)
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            request.add_header("Content-Type", "application/json")
        for _ in range(30):
            try:
                with urllib.request.urlopen(request, data, timeout=30) as response:
                    return json.loads(response.read() or b"null")
            except urllib.error.HTTPError as error:
                # 503: Elasticsearch did not answer in time (e.g. a new index's shard not yet
                # allocated); the service says when to ask again.
                if error.code != 503:
                    raise SystemExit(f"{method} {path}: {error.code} {error.read().decode()[:500]}")
                time.sleep(int(error.headers.get("Retry-After", "1")))
        raise SystemExit(f"{method} {path}: 503 thirty times")

    def serial(self, runner, target, timeout_s=120):
        deadline = time.time() + timeout_s
        while time.time() < deadline:
            for entry in self.call("GET", "/drives", "ops"):
                drive = entry.get("drive", {})
                if drive.get("transportAddress") == target and drive.get("runnerId") == runner \
                        and entry.get("runnerAlive"):
                    return drive["serial"]
            time.sleep(1)
        raise SystemExit(f"no live drive {target} on runner {runner} after {timeout_s} s")

    def submit(self, serial, runner, plan, key, demo=False):
        body = {"drive": {"serial": serial, "runnerId": runner}, "plan": plan}
        if demo:
            body["spec"] = DEMO_SPEC
            body["criteria"] = DEMO_CRITERIA
        return self.call("POST", "/qualifications", "procurement", body, {"Idempotency-Key": key})["id"]


def users_of(path):
    users = {}
    with open(path) as lines:
        for line in lines:
            name, _, rest = line.strip().partition(":")
            if name:
                users[name] = rest.split()[0]
    return users


def instant(text):
    return datetime.datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp() if text else None


def poll(api, scenario, jobs, poll_s, log):
    """Every job once per poll_s until all are final; returns each job's polls and last view."""
    polls = {job: [] for job in jobs}
    last = {}
    while True:
        for job in jobs:
            if job in last and last[job]["state"] in FINAL:
                continue
            now = time.time()
            view = api.call("GET", f"/qualifications/{job}", "ops")
            record = {"scenario": scenario, "job": job, "pollS": now, "state": view["state"],
                      "progressPercent": view.get("progressPercent"), "etaS": view.get("etaS"),
                      "eta": view.get("eta"), "phase": (view.get("currentPhase") or {}).get("name"),
                      "queuePosition": view.get("queuePosition")}
            polls[job].append(record)
            log.write(json.dumps(record) + "\n")
            last[job] = view
        log.flush()
        if all(view["state"] in FINAL for view in last.values()):
            return polls, last
        time.sleep(poll_s)


def label(record):
    eta = record.get("eta") or {}
    return eta.get("label") or "etaS only"


def inside(record, actual_s, elapsed_s):
    eta = record.get("eta") or {}
    if eta.get("lowS") is None or eta.get("highS") is None:
        return None
    return eta["lowS"] <= actual_s - elapsed_s <= eta["highS"]


def running_rows(view, polls):
    """Predicted vs actual total duration at 10/50/90 % of the job's actual run."""
    started, ended = instant(view.get("startedAt")), instant(view.get("endedAt"))
    if view["state"] != "COMPLETED" or started is None or ended is None:
        return None
    actual = ended - started
    running = [p for p in polls if p["state"] == "RUNNING" and p["etaS"] is not None]
    row = {"job": view["id"], "profile": view.get("profile"), "drive": view["drive"].get("transportAddress"),
           "actualS": round(actual), "points": [], "maxErrorFrom10": None}
    worst = 0.0
    for point in POINTS:
        before = [p for p in running if p["pollS"] - started <= point * actual]
        if not before:
            row["points"].append(None)
            continue
        p = before[-1]
        elapsed = p["pollS"] - started
        predicted = elapsed + p["etaS"]
        row["points"].append({"at": point, "elapsedS": round(elapsed), "predictedS": round(predicted),
                              "errorPercent": round(100 * (predicted - actual) / actual, 1), "basis": label(p),
                              "inside": inside(p, actual, elapsed)})
    held = outside = unbounded = 0
    for p in running:
        elapsed = p["pollS"] - started
        if elapsed >= 0.1 * actual:
            worst = max(worst, abs(elapsed + p["etaS"] - actual) / actual)
            verdict = inside(p, actual, elapsed)
            held += verdict is True
            outside += verdict is False
            unbounded += verdict is None
    row["maxErrorFrom10"] = round(100 * worst, 1)
    # every poll from 10 % on: did its interval hold the actual end (none: no interval given)
    row["intervals"] = {"held": held, "outside": outside, "none": unbounded}
    return row


def queued_row(view, polls):
    """The ETA a queued job was given at submission (its wait included) against its end: the first
    poll once the jobs submitted with it are searchable (Elasticsearch refreshes every second)."""
    ended = instant(view.get("endedAt"))
    submitted = instant(view.get("queuedAt"))
    queued = [p for p in polls if p["state"] == "QUEUED" and p["etaS"] is not None
              and p["pollS"] >= submitted + SEARCHABLE_AFTER_S]
    if view["state"] != "COMPLETED" or not queued:
        return None
    first = queued[0]
    actual = ended - first["pollS"]
    eta = first.get("eta") or {}
    return {"job": view["id"], "profile": view.get("profile"), "queuePosition": first.get("queuePosition"),
            "actualS": round(actual), "predictedS": first["etaS"], "waitS": eta.get("waitS"),
            "errorPercent": round(100 * (first["etaS"] - actual) / actual, 1), "basis": label(first),
            "inside": inside(first, actual, 0), "actualWaitS": round(instant(view["startedAt"]) - first["pollS"])}


def scenario_demo(api, stamp, passes):
    client = [api.serial("local", "sim:client-7pct@1"), api.serial("local", "sim:client-7pct@2")]
    for n in range(1, passes + 1):
        yield f"demo pass {n}", [
            api.submit(client[0], "local", {"profile": "consistency-2000s"}, f"eta-{stamp}-{n}-plain", True),
            api.submit(client[1], "local", {"profile": "consistency-2000s-op25"}, f"eta-{stamp}-{n}-op25", True)]


def scenario_demo_paced(api, stamp, passes):
    client = [api.serial("eta-paced", "sim:client-7pct@33"), api.serial("eta-paced", "sim:client-7pct@34")]
    for n in range(1, passes + 1):
        yield f"demo paced pass {n}", [
            api.submit(client[0], "eta-paced", {"profile": "consistency-2000s"}, f"eta-{stamp}-{n}-paced-plain", True),
            api.submit(client[1], "eta-paced", {"profile": "consistency-2000s-op25"}, f"eta-{stamp}-{n}-paced-op25",
                       True)]


def scenario_demo_unpaced(api, stamp, passes):
    client = [api.serial("eta-paced", "sim:client-7pct@35"), api.serial("eta-paced", "sim:client-7pct@36")]
    for n in range(1, passes + 1):
        yield f"demo unpaced pass {n}", [
            api.submit(client[0], "eta-paced", {"profile": "consistency-2000s"}, f"eta-{stamp}-{n}-unpaced-plain",
                       True),
            api.submit(client[1], "eta-paced", {"profile": "consistency-2000s-op25"}, f"eta-{stamp}-{n}-unpaced-op25",
                       True)]


def scenario_pts(api, stamp):
    serial = api.serial("eta-paced", "sim:test-enterprise-eager@31")
    yield "pts-iops", [api.submit(serial, "eta-paced", {"profile": "pts-iops"}, f"eta-{stamp}-pts")]


def scenario_queued(api, stamp, passes):
    serial = api.serial("eta-paced", "sim:test-client-7pct@32")
    for p in range(1, passes + 1):
        yield f"queued pass {p}", [api.submit(serial, "eta-paced", {"profile": "steady-state-2h"},
                                              f"eta-{stamp}-{p}-q{n}") for n in range(1, 4)]


def cell(point):
    if point is None:
        return "—"
    inside_text = {True: ", in interval", False: ", outside interval", None: ""}[point["inside"]]
    return f"{point['predictedS']} s ({point['errorPercent']:+.1f} %; {point['basis']}{inside_text})"


def report(results):
    lines = ["| scenario | job | profile | drive | actual | at 10 % | at 50 % | at 90 % | max error from 10 % on "
             "| intervals that held the end (polls from 10 % on) |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    held = polls = 0
    queued = ["| job | position | predicted at submission (wait) | actual end (wait) | error | basis |",
              "|---|---|---|---|---|---|"]
    for scenario, rows in results:
        for row in rows["running"]:
            counts = row["intervals"]
            total = counts["held"] + counts["outside"] + counts["none"]
            held += counts["held"]
            polls += total
            lines.append(f"| {scenario} | {row['job']} | {row['profile']} | {row['drive']} | {row['actualS']} s | "
                         + " | ".join(cell(p) for p in row["points"]) + f" | {row['maxErrorFrom10']} % | "
                         + f"{counts['held']} of {total}"
                         + (f" ({counts['none']} without one)" if counts["none"] else "") + " |")
        for row in rows["queued"]:
            queued.append(f"| {row['job']} | {row['queuePosition'] or '—'} | {row['predictedS']} s "
                          f"({row['waitS'] if row['waitS'] is not None else '?'} s) | {row['actualS']} s "
                          f"({row['actualWaitS']} s) | {row['errorPercent']:+.1f} % | {row['basis']} |")
    lines.append(f"\nIntervals that held the actual end, all running jobs: {held} of {polls} polls from 10 % on.")
    return "\n".join(lines) + "\n\nQueued jobs (ETA at submission, the wait behind the jobs ahead included):\n\n" \
        + "\n".join(queued) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--url", required=True)
    parser.add_argument("--users", required=True)
    parser.add_argument("--scenarios", default="demo,demo-paced,pts-iops,queued")
    parser.add_argument("--poll-s", type=float, default=1.0)
    parser.add_argument("--demo-passes", type=int, default=2,
                        help="passes of the demo and of the queued scenario: the second has the first in its history")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    api = Api(args.url, users_of(args.users))
    stamp = int(time.time())
    makers = {"demo": lambda: scenario_demo(api, stamp, args.demo_passes),
              "demo-paced": lambda: scenario_demo_paced(api, stamp, args.demo_passes),
              "demo-unpaced": lambda: scenario_demo_unpaced(api, stamp, args.demo_passes),
              "pts-iops": lambda: scenario_pts(api, stamp),
              "queued": lambda: scenario_queued(api, stamp, args.demo_passes)}
    results = []
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "polls.jsonl"), "a") as log:
        for name in args.scenarios.split(","):
            for scenario, jobs in makers[name]():
                print(f"== {scenario}: {', '.join(jobs)}", flush=True)
                started = time.time()
                polls, views = poll(api, scenario, jobs, args.poll_s, log)
                rows = {"running": [], "queued": []}
                for job in jobs:
                    row = running_rows(views[job], polls[job])
                    if row:
                        rows["running"].append(row)
                    row = queued_row(views[job], polls[job])
                    if row and row["actualWaitS"] > 5:
                        rows["queued"].append(row)
                    if views[job]["state"] != "COMPLETED":
                        print(f"   {job} ended {views[job]['state']}: {views[job].get('failureReason')}")
                print(f"   done in {time.time() - started:.0f} s", flush=True)
                results.append((scenario, rows))
    text = report(results)
    with open(os.path.join(args.out, "report.md"), "w") as out:
        out.write(text)
    with open(os.path.join(args.out, "report.json"), "w") as out:
        json.dump(results, out, indent=1)
    print(text)


if __name__ == "__main__":
    sys.exit(main())
