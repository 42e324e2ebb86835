#!/usr/bin/env python3
"""Gathers the fault suite's figures into one report (Markdown and JSON).

Input, all under the suite's output directory: figures/item-*.json, written by the fault tests
(io.drivequal.service.it.FaultFigures), and interlocks.log, the verbose ctest output of the
runner's realio.refuse-* cases. Output: report.md and report.json next to them. Exit status 1 when
an item is missing or did not pass.
"""
import json
import pathlib
import re
import sys

REQUIREMENTS = {
    "1": "Service killed -9 three times during a 2000-sample job on a simulated drive: exactly 2000 samples, no duplicates, job completes",
    "2": "Elasticsearch stopped 60 s mid-job: ingestion pauses and catches up, nothing lost",
    "3": "Kafka broker restarted mid-job: the runner keeps its samples and delivers them all",
    "4": "Runner killed mid-job: INTERRUPTED within 30 s, drive released, partial data queryable, resubmission runs",
    "5": "Poison (garbage, wrong schema, 10 MB) on every consumed topic: dead-lettered with the reason, consumers keep going",
    "6": "API fuzzing from the OpenAPI document, >= 1000 requests: 0 responses 5xx, 0 schema violations",
    "7": "Authorization matrix, every endpoint x {anonymous, viewer, submitter, admin}; cross-submitter cancel refused",
    "8": "Runner interlocks on loop devices: refused with a clear event, device bytes unchanged",
    "9": "Load: 200 API clients for 60 s (p99, error rate); 50 runners at once without lag growth",
    "10": "Drain a runner holding a running job, restart it once drained: 0 jobs cancelled",
    "11": "Allowlist changed under a running agent: applied without a restart, only the removed drive's job cancelled",
    "12": "Runner SIGKILLed and back within the resume grace: the job resumes, completes, the gap's round marked",
    "13": "Service replica and runner SIGKILLed mid-campaign: the lost cell rerun alone, the campaign completes, every count exact",
}

# Figures shown in the summary table, per item; everything else stays in report.json.
HEADLINE = {
    "1": ["samplesInElasticsearch", "duplicates", "jobState", "analysedSamples", "kills"],
    "2": ["outageMs", "samplesProducedDuringOutage", "caughtUpAfterRestartMs", "samplesIndexed", "lost"],
    "3": ["brokerDownMs", "samplesExpected", "samplesDelivered", "jobState"],
    "4": ["interruptedAfterKillMs", "failureReason", "driveLeaseReleased", "partialSamplesQueryable",
          "resubmissionState", "resubmissionCompletedAfterMs"],
    "5": ["topics"],
    "5b": ["wrongSchema", "tenMB", "nextJob"],
    "6": ["tool", "requests", "responses5xx", "schemaViolations"],
    "7": ["endpoints", "requests", "mismatches"],
    "7b": ["otherSubmitterCancel", "viewerCancel", "ownerCancel", "adminCancel"],
    "8": ["cases", "reasons", "refusals", "devicesUnchanged"],
    "9": ["requests", "requestsPerSecond", "latencyP50Ms", "latencyP99Ms", "errorRatePercent", "runners",
          "lagFirstHalfMax", "lagSecondHalfMax", "lagDrainedAfterLoadMs"],
    "10": ["runningJobEnd", "drainingToDrainedMs", "queuedJobWhileDrained", "stateAfterRestart",
           "queuedJobAfterUndrain", "jobsCancelled"],
    "11": ["malformedFileKeptPreviousAllowlist", "removedDriveJobCancelledAfterMs", "removedDriveJobMessage",
           "otherJobEnd", "agentRestarted"],
    "12": ["samplesAtKill", "stateWhileRunnerLost", "resumedAfterKillMs", "gapFromSecond", "gapRound", "gapS",
           "finalState", "samplesOfPhase", "verdict"],
    "13": ["killedReplicaCreatedTheCampaign", "lostJobSamplesIndexedAtKill", "lostJobInterruptedAfterKillMs",
           "previousJobIds", "finalCounts", "modelVerdict", "samplesPerCriterion", "webhookIds"],
}


def interlocks(log_path):
    if not log_path.exists():
        return None
    text = log_path.read_text(errors="replace")
    refusals = re.findall(r"ok refused (\S+), (\S+) unchanged \(([0-9a-f]+)\)", text)
    cases = {}
    for name, verdict in re.findall(r"realio\.(refuse-\S+) \.+\s*(Passed|\*\*\*Failed|\*\*\*Skipped|Not Run)", text):
        cases[name] = verdict.strip("*")
    for name in re.findall(r"realio\.(refuse-\S+) \.+\s*\*\*\*Skipped", text):
        cases[name] = "Skipped"
    reasons = sorted({reason for reason, _, _ in refusals})
    passed = bool(cases) and all(v == "Passed" for v in cases.values()) and set(reasons) >= {
        "not-allowlisted", "serial-mismatch", "mounted", "partition-table", "signature"}
    return {
        "item": "8",
        "title": "Runner interlocks on loop devices",
        "cases": cases,
        "refusals": len(refusals),
        "reasons": reasons,
        "devicesUnchanged": f"{len(refusals)} of {len(refusals)} (sha256 before = after)",
        "examples": [f"{r} on {t}" for r, t, _ in refusals[:8]],
        "passed": passed,
    }


def cell(value):
    if isinstance(value, dict):
        return "; ".join(f"{k}: {cell(v)}" for k, v in value.items())
    if isinstance(value, list):
        return ", ".join(cell(v) for v in value) if value else "none"
    if isinstance(value, float):
        return f"{value:.2f}"
    return str(value).replace("|", "\\|").replace("\n", " ")


def main():
    out = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "service/app/target/fault-suite")
    items = {}
    for path in sorted((out / "figures").glob("item-*.json")):
        figures = json.loads(path.read_text())
        items[figures["item"]] = figures
    eight = interlocks(out / "interlocks.log")
    if eight:
        items["8"] = eight
    ok = True
    lines = ["# drivequal fault-injection suite: report", "",
             "Produced by `service/bin/drivequal-fault-suite`; every figure below comes from that run.", "",
             "| item | requirement | result | figures |", "|---|---|---|---|"]
    for key in ["1", "2", "3", "4", "5", "5b", "6", "7", "7b", "8", "9", "10", "11", "12", "13"]:
        figures = items.get(key)
        requirement = REQUIREMENTS.get(key, figures.get("title", "") if figures else "")
        if figures is None:
            if key in REQUIREMENTS:
                ok = False
                lines.append(f"| {key} | {requirement} | **MISSING** (the test did not record figures) | |")
            continue
        passed = bool(figures.get("passed"))
        ok = ok and passed
        shown = {name: figures[name] for name in HEADLINE.get(key, []) if name in figures}
        lines.append(f"| {key} | {requirement} | {'PASS' if passed else '**FAIL**'} | {cell(shown)} |")
    lines += ["", f"Overall: {'PASS' if ok else '**FAIL**'}", "",
              "Details (every figure, per item) are in report.json next to this file; logs of each item",
              "under service/app/target (failsafe-reports, agents/, crash-replay/, fault-suite/)."]
    (out / "report.md").write_text("\n".join(lines) + "\n")
    (out / "report.json").write_text(json.dumps({"passed": ok, "items": items}, indent=2) + "\n")
    print("\n".join(lines))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
