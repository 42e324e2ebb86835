#!/usr/bin/env python3
# Computes drivequal's analysis known answers INDEPENDENTLY of the Java code, from docs/methodology.md's definitions
# taken literally in exact rational arithmetic (fractions.Fraction), and writes them to
# src/test/resources/known-answers.json, which the Java tests read and compare; and the shared
# steady-state vectors in schemas/examples/steady-state (round totals and eligibility inputs in,
# reached round, end window and failure reasons out), which the Java tests and the C runner read.
#
# Plain Python 3 (no numpy). Deterministic: fixed seeds, so re-running rewrites the same file.
#   python3 service/analysis/src/test/python/known_answers.py
#
# Independence: nothing here mirrors the Java implementation's shortcuts. Rounds filter samples with
# r*L < t <= (r+1)*L; steady state uses the general least-squares slope over the actual round
# indices and compares max-min <= (1/5)*avg and |b|*4 <= (1/10)*avg as Fractions (the horizon likewise: ten
# rounds with |b|*9 <= 10% of avg once the record has crossed the level by more than 5% either way; on a first
# approach the later half of the record since the fresh state's end within 5%, and slowing; what the spec decides in
# doubles is computed exactly here, and no vector may sit within 1e-9 of such a bound); the fresh state's end follows the rule-v2 spec's evidence order (read-only,
# no-reset, media writes, IOPS cliff, written bytes: Fraction(repr(W)) * range); percentiles use
# the nearest rank ceil(p/100*N) with p as a Fraction of its decimal text; latency buckets follow
# HdrHistogram's published layout (2 significant digits: 256 sub-buckets, unit 1).

import json
import math
import os
import random
from fractions import Fraction

HERE = os.path.dirname(os.path.abspath(__file__))
OUTPUT = os.path.normpath(os.path.join(HERE, "..", "resources", "known-answers.json"))


# ---------------------------------------------------------------------------------------------
# Definitions (docs/methodology.md), literally
# ---------------------------------------------------------------------------------------------

def round_totals(samples, length_s, write_bytes=None):
    """Per-round totals of per-second samples (dict t -> iops; write_bytes dict t -> bytes): round r holds
    r*L < t <= (r+1)*L."""
    last_t = max(samples) if samples else 0
    count = -(-last_t // length_s)  # ceil
    totals = []
    for r in range(count):
        ts = [t for t in samples if r * length_s < t <= (r + 1) * length_s]
        totals.append({
            "sumIops": sum(samples[t] for t in ts),
            "secondsPresent": len(ts),
            "randomWriteBytes": sum((write_bytes or {}).get(t, 0) for t in ts),
        })
    return totals


NOT_APPLICABLE = {"applies": False, "history": "reset", "rangeWritesRequired": 1.0, "testedRangeBytes": None,
                  "randomWriteBytesBefore": 0}

WINDOW = 5
HORIZON = 10


def written_bytes_reached(eligibility, written):
    """The old rule: the random writes since the last purge or fill, counted to a round's start, reach W x the
    tested range (inclusive; W as the decimal it prints as)."""
    if eligibility["testedRangeBytes"] is None:
        return False
    required = Fraction(repr(float(eligibility["rangeWritesRequired"]))) * eligibility["testedRangeBytes"]
    return Fraction(written) >= required


def has_media(total):
    return total.get("mediaBytes") is not None and total.get("hostBytes") is not None


def fresh_state_end(rounds, totals, limit, eligibility):
    """The first eligible round F (None: none) and the evidence that decided it, in the spec's order: a phase
    that does not write; a history without purge or fill; the drive's media writes (round WAF >= 1.10); the
    IOPS cliff (a counted round below 0.8 x the best earlier counted round); the written bytes."""
    if not eligibility["applies"]:
        return 0, "read-only"
    if eligibility.get("history", "reset") == "unknown":
        return 0, "no-reset"
    # Media figures for every COUNTED round below the limit (a round that does not count may lack them), and at least
    # one counted round carrying them: a phase with no counted round, or no media figures at all, is never judged by
    # them.
    counted = [t for t, r in zip(totals[:limit], rounds[:limit]) if r["counted"]]
    if counted and all(has_media(t) for t in counted):
        for r in range(limit):
            if not has_media(totals[r]):
                continue
            host, media = totals[r]["hostBytes"], totals[r]["mediaBytes"]
            if host > 0 and Fraction(media, host) >= Fraction(110, 100):
                return r + 1, "media-writes"
        return None, "media-writes"
    best = None
    for r in rounds[:limit]:
        if not r["counted"]:
            continue
        if best is not None and r["mean"] < Fraction(8, 10) * best:
            return r["index"] + 1, "iops-cliff"
        best = r["mean"] if best is None else max(best, r["mean"])
    first = next((r["index"] for r in rounds if written_bytes_reached(eligibility, r["randomWriteBytesAtStart"])),
                 None)
    return first, "written-bytes"


def rounds_from_totals(totals, length_s, eligibility, max_rounds=None):
    """Round r counts with >= 90% of L present; it is eligible from the first eligible round on. Returns the
    rounds and the evidence."""
    rounds = []
    written = eligibility["randomWriteBytesBefore"]
    for r, total in enumerate(totals):
        present = total["secondsPresent"]
        waf = None
        if has_media(total) and total["hostBytes"] > 0:
            waf = total["mediaBytes"] / total["hostBytes"]  # a double, as the spec takes it
        rounds.append({
            "index": r,
            "secondsPresent": present,
            "counted": Fraction(present) >= Fraction(9, 10) * length_s,
            "sumIops": total["sumIops"],
            "mean": Fraction(total["sumIops"], present) if present else None,
            "randomWriteBytes": total["randomWriteBytes"],
            "randomWriteBytesAtStart": written,
            "waf": waf,
        })
        written += total["randomWriteBytes"]
    limit = len(rounds) if max_rounds is None else min(len(rounds), max_rounds)
    first, evidence = fresh_state_end(rounds, totals, limit, eligibility)
    for r in rounds:
        r["eligible"] = first is not None and r["index"] >= first
    return rounds, evidence


def least_squares_slope(xs, ys):
    n = len(xs)
    x_mean = Fraction(sum(xs), n)
    y_mean = sum(ys, Fraction(0)) / n
    numerator = sum((Fraction(x) - x_mean) * (y - y_mean) for x, y in zip(xs, ys))
    denominator = sum((Fraction(x) - x_mean) ** 2 for x in xs)
    return numerator / denominator


def window_figures(rounds, x, length_s):
    window = rounds[x - 4:x + 1]
    ys = [r["mean"] for r in window]
    avg = sum(ys, Fraction(0)) / 5
    b = least_squares_slope([r["index"] for r in window], ys)
    range_ok = max(ys) - min(ys) <= Fraction(20, 100) * avg
    slope_ok = abs(b) * 4 <= Fraction(10, 100) * avg
    return {
        "firstRoundIndex": x - 4,
        "lastRoundIndex": x,
        "windowStartS": (x - 4) * length_s,
        "windowEndS": (x + 1) * length_s,
        "avgIops": float(avg),
        "minRoundIops": float(min(ys)),
        "maxRoundIops": float(max(ys)),
        "rangePercent": float(100 * (max(ys) - min(ys)) / avg) if avg else 0.0,
        "slopeIopsPerRound": float(b),
        "slopeExcursionPercent": float(100 * abs(b) * 4 / avg) if avg else 0.0,
        "rangeWithinBound": range_ok,
        "slopeWithinBound": slope_ok,
    }


def waf_steady(rounds, x):
    """SNIA's two bounds on the five rounds' WAFs, in doubles (a round without host writes has no WAF: not
    steady)."""
    wafs = [r["waf"] for r in rounds[x - 4:x + 1]]
    if any(w is None for w in wafs):
        return False
    avg = sum(wafs) / 5
    b = sum((i - 2) * w for i, w in enumerate(wafs)) / 10
    return max(wafs) - min(wafs) <= 0.2 * avg and abs(b) * 4 <= 0.1 * avg


def unusable_rounds(rounds, first, x):
    """The rounds first..x (from 0) that are not counted or not eligible."""
    return [r["index"] for r in rounds[max(0, first):x + 1] if not (r["counted"] and r["eligible"])]


# The comparisons the spec decides in doubles (and the crossing margin, which Java compares in doubles), each as
# (what, left, right) for left <= right or left < right: a vector must not sit on (or within 1e-9 relative of) one,
# where doubles and these exact Fractions could disagree. vector() checks.
DOUBLE_DECIDED = []


def decided_in_doubles(what, left, right):
    DOUBLE_DECIDED.append((what, Fraction(left), Fraction(right)))


CROSSING_ABOVE = Fraction(21, 20)  # 1.05 x the horizon's average
CROSSING_BELOW = Fraction(19, 20)  # 0.95 x


def first_eligible(rounds):
    return next((r["index"] for r in rounds if r["eligible"]), None)


def crossed_level(rounds, first_eligible_round, first, avg):
    """Whether the counted, eligible rounds F..first-1 before the horizon have been more than 5% above its average
    avg and more than 5% below it (exactly): the record has crossed this level already and is settling around it,
    rather than approaching it for the first time."""
    before = [r["mean"] for r in rounds[first_eligible_round:first] if r["counted"] and r["eligible"]]
    for m in before:
        decided_in_doubles("crossed above", m, CROSSING_ABOVE * avg)
        decided_in_doubles("crossed below", m, CROSSING_BELOW * avg)
    return any(m > CROSSING_ABOVE * avg for m in before) and any(m < CROSSING_BELOW * avg for m in before)


def line_change(rounds, first, last):
    """|b1| x (last counted - first counted) of the least-squares line over the counted rounds first..last against
    the round index; 0 with fewer than 2 counted rounds."""
    counted = [r for r in rounds[max(0, first):last + 1] if r["counted"]]
    if len(counted) < 2:
        return Fraction(0)
    b = least_squares_slope([r["index"] for r in counted], [r["mean"] for r in counted])
    return abs(b) * (counted[-1]["index"] - counted[0]["index"])


# The horizon's random writes reach at least this share of the tested range (rule v2, revision 3).
HORIZON_RANGE_WRITES = Fraction(1, 20)


def horizon_length(rounds, x, tested_range):
    """How many rounds the horizon ending at x spans: ten; with the tested range known, the fewest from ten on
    whose random writes (counted or not) reach 1/20 of it, exactly, back to round 0 at most."""
    first = x - (HORIZON - 1)
    if first <= 0 or tested_range is None:
        return HORIZON
    written = sum(r["randomWriteBytes"] for r in rounds[first:x + 1])
    while first > 0 and Fraction(written) < HORIZON_RANGE_WRITES * tested_range:
        first -= 1
        written += rounds[first]["randomWriteBytes"]
    return x - first + 1


def horizon_of(rounds, x, tested_range):
    """The horizon of the window ending at x (rule v2, revision 3) as (figures, unusable rounds): figures None when
    not evaluated, with the rounds that do not count or are not eligible. Its length m: ten rounds, extended back
    (tested range known) until their random writes reach 1/20 of the tested range. First the m rounds x-m+1..x
    must count and be eligible. When the counted, eligible rounds since the fresh state's end F and before them have
    been more than 5% above and below their average (crossed), the m rounds hold with max-min <= 20% of avg and
    |b| (m - 1) <= 10% of avg (exact for m = 10; for m > 10 as the spec's doubles: range% <= 20, excursion% <= 10).
    Else (a first approach) the horizon is the later half of the record since F, n = max(m, floor((x - F + 2) / 2))
    rounds s..x: the bounds (exactly for n = 10, with 5% for the excursion; for n > 10 as the spec's doubles:
    range% <= 20, excursion% <= 5) and the approach slowing: |b| (n - 1) <= max(half the change of the
    least-squares line over the counted rounds F..s-1, 2.5% of avg)."""
    length = horizon_length(rounds, x, tested_range)
    first = x - (length - 1)
    missing = unusable_rounds(rounds, first, x)
    if first < 0 or missing:
        return None, missing
    fresh = first_eligible(rounds)
    ten = [r["mean"] for r in rounds[first:x + 1]]
    avg10 = sum(ten, Fraction(0)) / length
    if crossed_level(rounds, fresh, first, avg10):
        figures = line_figures(rounds, first, x)
        total = sum(ten, Fraction(0))
        if length == HORIZON:
            weighted = sum((2 * i - 9) * y for i, y in enumerate(ten))
            holds = 50 * (max(ten) - min(ten)) <= total and 60 * abs(weighted) <= 11 * total
        else:
            avg = figures["avg"]
            decided_in_doubles("range% <= 20", 5 * (max(ten) - min(ten)), avg)
            decided_in_doubles("excursion% <= 10", 10 * figures["late"], avg)
            holds = 5 * (max(ten) - min(ten)) <= avg and 10 * figures["late"] <= avg
        figures.update({"earlierChangePercent": 0.0, "crossed": True, "holds": holds})
        del figures["late"], figures["avg"]
        return figures, []
    n = max(length, (x - fresh + 2) // 2)
    start = x - n + 1
    missing = unusable_rounds(rounds, start, x)
    if missing:
        return None, missing
    figures = line_figures(rounds, start, x)
    ys = [r["mean"] for r in rounds[start:x + 1]]
    total = sum(ys, Fraction(0))
    avg = figures["avg"]
    if n == HORIZON:
        weighted = sum((2 * i - 9) * y for i, y in enumerate(ys))
        bounds = 50 * (max(ys) - min(ys)) <= total and 120 * abs(weighted) <= 11 * total
    else:
        decided_in_doubles("range% <= 20", 5 * (max(ys) - min(ys)), avg)
        decided_in_doubles("excursion% <= 5", 20 * figures["late"], avg)
        bounds = 5 * (max(ys) - min(ys)) <= avg and 20 * figures["late"] <= avg
    earlier = line_change(rounds, fresh, start - 1)
    allowed = max(earlier / 2, avg / 40)
    decided_in_doubles("slowing", figures["late"], allowed)
    slowing = figures["late"] <= allowed
    figures.update({"earlierChangePercent": float(100 * earlier / avg) if avg else 0.0, "crossed": False,
                    "holds": bounds and slowing})
    del figures["late"], figures["avg"]
    return figures, []


def line_figures(rounds, first, x):
    """rangePercent and slopeExcursionPercent (100 |b| (n - 1) / avg) over the n rounds first..x; late = |b| (n - 1),
    avg exact."""
    ys = [r["mean"] for r in rounds[first:x + 1]]
    n = len(ys)
    avg = sum(ys, Fraction(0)) / n
    b = least_squares_slope(list(range(first, x + 1)), ys)
    late = abs(b) * (n - 1)
    return {
        "firstRoundIndex": first,
        "lastRoundIndex": x,
        "rangePercent": float(100 * (max(ys) - min(ys)) / avg) if avg else 0.0,
        "slopeExcursionPercent": float(100 * late / avg) if avg else 0.0,
        "late": late,
        "avg": avg,
    }


def horizon_figures(rounds, x, tested_range):
    return horizon_of(rounds, x, tested_range)[0]


def horizon_required(evidence):
    return evidence not in ("read-only", "no-reset")


def end_window(rounds, limit, length_s, eligibility, evidence):
    """The five rounds ending at the last counted round: they hold when all count, all are eligible, both
    bounds hold, the WAF is steady (media evidence) and the level has stopped moving over ten rounds (the
    horizon). Failures in the spec's order."""
    counted = [r["index"] for r in rounds[:limit] if r["counted"]]
    last = counted[-1] if counted else -1
    if last < 4:
        return {"firstRound": -1, "lastRound": last, "holds": False, "window": None, "horizon": None,
                "failures": [{"kind": "too-few-rounds", "rounds": []}]}
    window_rounds = rounds[last - 4:last + 1]
    failures = []
    not_counted = [r["index"] for r in window_rounds if not r["counted"]]
    not_eligible = [r["index"] for r in window_rounds if not r["eligible"]]
    if not_counted:
        failures.append({"kind": "rounds-not-counted", "rounds": not_counted})
    if not_eligible:
        kind = ("tested-range-unknown" if evidence == "written-bytes" and eligibility["testedRangeBytes"] is None
                else "rounds-not-eligible")
        failures.append({"kind": kind, "rounds": not_eligible})
    figures = None
    if not not_counted:
        figures = window_figures(rounds, last, length_s)
        if not figures["rangeWithinBound"]:
            failures.append({"kind": "range-above-bound", "rounds": []})
        if not figures["slopeWithinBound"]:
            failures.append({"kind": "slope-above-bound", "rounds": []})
        if evidence == "media-writes" and not waf_steady(rounds, last):
            failures.append({"kind": "waf-not-steady", "rounds": []})
    horizon = None
    if horizon_required(evidence):
        horizon, missing = horizon_of(rounds, last, eligibility["testedRangeBytes"])
        if horizon is None or not horizon["holds"]:
            failures.append({"kind": "level-still-moving", "rounds": missing})
    return {"firstRound": last - 4, "lastRound": last, "holds": not failures, "window": figures,
            "horizon": horizon, "failures": failures}


def detect(rounds, length_s, eligibility, evidence, max_rounds=None):
    """The first window x-4..x of five counted, eligible rounds meeting every condition; and the end window."""
    limit = len(rounds) if max_rounds is None else min(len(rounds), max_rounds)
    last = None
    evaluated = 0
    reached = False
    for x in range(4, limit):
        if not all(r["counted"] and r["eligible"] for r in rounds[x - 4:x + 1]):
            continue
        evaluated += 1
        last = window_figures(rounds, x, length_s)
        if not (last["rangeWithinBound"] and last["slopeWithinBound"]):
            continue
        if evidence == "media-writes" and not waf_steady(rounds, x):
            continue
        if horizon_required(evidence):
            horizon = horizon_figures(rounds, x, eligibility["testedRangeBytes"])
            if horizon is None or not horizon["holds"]:
                continue
        reached = True
        break
    end = end_window(rounds, limit, length_s, eligibility, evidence)
    first_eligible = next((r["index"] for r in rounds[:limit] if r["eligible"]), None)
    return {
        "firstEligibleRound": first_eligible,
        "freshStateEvidence": evidence,
        "reached": reached,
        "reachedAtRound": last["lastRoundIndex"] if reached else None,
        "windowsEvaluated": evaluated,
        "window": last,
        "end": end,
        "steadyStateIops": end["window"]["avgIops"] if end["holds"] else None,
    }


def steady_state(samples, length_s, max_rounds=None):
    """Per-second IOPS of a phase that does not write: every round eligible."""
    rounds, evidence = rounds_from_totals(round_totals(samples, length_s), length_s, NOT_APPLICABLE, max_rounds)
    result = detect(rounds, length_s, NOT_APPLICABLE, evidence, max_rounds)
    result["rounds"] = reported(rounds, ("index", "secondsPresent", "counted", "sumIops", "meanIops", "eligible"))
    return result


def reported(rounds, keys):
    """The rounds as the expected answers list them: the given keys, meanIops as a float (None without seconds)."""
    def value(r, key):
        if key == "meanIops":
            return float(r["mean"]) if r["mean"] is not None else None
        return r[key]
    return [{key: value(r, key) for key in keys} for r in rounds]


def nearest_rank(percent_text, n):
    rank = math.ceil(Fraction(percent_text) / 100 * n)
    return min(max(rank, 1), n)


def consistency(values, first_t, last_t):
    n = len(values)
    ordered = sorted(values)
    mean = Fraction(sum(values), n)
    variance = sum((Fraction(v) - mean) ** 2 for v in values) / n
    stddev = math.sqrt(variance)

    def p(text):
        return ordered[nearest_rank(text, n) - 1]

    within10 = sum(1 for v in values if abs(v - mean) <= Fraction(10, 100) * mean)
    within20 = sum(1 for v in values if abs(v - mean) <= Fraction(20, 100) * mean)
    return {
        "firstT": first_t,
        "lastT": last_t,
        "sampleCount": n,
        "minIops": ordered[0],
        "maxIops": ordered[-1],
        "meanIops": float(mean),
        "stddevIops": stddev,
        "cv": (stddev / float(mean)) if mean else None,
        "p0_1Iops": p("0.1"),
        "p1Iops": p("1"),
        "p5Iops": p("5"),
        "p50Iops": p("50"),
        "p99Iops": p("99"),
        "ratio": float(Fraction(p("0.1")) / mean) if mean else None,
        "within10PercentCount": within10,
        "within20PercentCount": within20,
        "p0_1Rank": nearest_rank("0.1", n),
    }


def window_values(samples, first_t, last_t):
    return [v for t, v in sorted(samples.items()) if first_t <= t <= last_t]


# HdrHistogram layout, 2 significant digits, unit 1: 256 sub-buckets; values < 256 exact.
def hdr_bucket(value):
    bucket = max((value | 255).bit_length() - 8, 0)
    sub = value >> bucket
    return bucket, sub


def hdr_lowest(value):
    bucket, sub = hdr_bucket(value)
    return sub << bucket


def hdr_size(value):
    bucket, _ = hdr_bucket(value)
    return 1 << bucket


def hdr_highest(value):
    return hdr_lowest(value) + hdr_size(value) - 1


def hdr_median(value):
    return hdr_lowest(value) + (hdr_size(value) >> 1)


LATENCY_PERCENTILES = ["50", "90", "99", "99.9", "99.99", "99.999", "99.9999"]


def latency_qos(histograms):
    merged = {}
    for histogram in histograms:
        for value, count in histogram["counts"]:
            key = hdr_lowest(value)
            merged[key] = merged.get(key, 0) + count
    total = sum(merged.values())
    max_ns = max(h["maxNs"] for h in histograms if h["totalCount"])
    min_ns = min(h["minNs"] for h in histograms if h["totalCount"])
    buckets = sorted(merged.items())
    values = {}
    for text in LATENCY_PERCENTILES:
        rank = nearest_rank(text, total)
        cumulative = 0
        for lowest, count in buckets:
            cumulative += count
            if cumulative >= rank:
                values[text] = min(hdr_highest(lowest), max_ns)
                break
    mean = sum(Fraction(hdr_median(v) * c) for v, c in buckets) / total
    return {
        "count": total,
        "minNs": min_ns,
        "maxNs": max_ns,
        "meanNs": float(mean),
        "p50Ns": values["50"],
        "p90Ns": values["90"],
        "p99Ns": values["99"],
        "p99_9Ns": values["99.9"],
        "p99_99Ns": values["99.99"],
        "p99_999Ns": values["99.999"],
        "p99_9999Ns": values["99.9999"],
    }


def histogram_of(latencies_ns):
    counts = {}
    for value in latencies_ns:
        key = hdr_lowest(value)
        counts[key] = counts.get(key, 0) + 1
    return {
        "totalCount": len(latencies_ns),
        "minNs": min(latencies_ns),
        "maxNs": max(latencies_ns),
        "counts": [[v, c] for v, c in sorted(counts.items())],
    }


# ---------------------------------------------------------------------------------------------
# Series builders
# ---------------------------------------------------------------------------------------------

def spread(rng, round_sum, seconds, noise):
    """`seconds` non-negative integers summing exactly to round_sum, each within about ±noise of the mean."""
    base = round_sum // seconds
    values = [base + rng.randint(-noise, noise) for _ in range(seconds)]
    values[-1] += round_sum - sum(values)
    assert all(v >= 0 for v in values) and sum(values) == round_sum
    return values


def series_from_round_sums(rng, sums, length_s, noise, seconds_present=None):
    """Per-second samples whose round r sums exactly to sums[r]; seconds_present[r] drops seconds from the end."""
    samples = {}
    for r, round_sum in enumerate(sums):
        present = length_s if seconds_present is None else seconds_present.get(r, length_s)
        if present == 0:
            continue
        for i, value in enumerate(spread(rng, round_sum, present, noise)):
            samples[r * length_s + 1 + i] = value
    return samples


def naive_double_decision(sums, n=60):
    """The textbook check in IEEE doubles (as Java would do it): what exact arithmetic avoids."""
    ys = [s / n for s in sums]
    total = 0.0
    for y in ys:
        total += y
    avg = total / 5
    weighted = 0.0
    for i, y in enumerate(ys):
        weighted += (i - 2) * y
    b = weighted / 10
    return (max(ys) - min(ys) <= 0.2 * avg), (abs(b) * 4 <= 0.1 * avg)


def find_on_bound(kind, rng):
    """Round sums exactly on a bound where the naive double check gets it wrong, if such exist nearby."""
    for _ in range(200000):
        if kind == "range":
            # 25*(max - min) == sum: sums [m, m + d, c, c, c], so 25d = 2m + d + 3c  =>  3c = 24d - 2m.
            m = rng.randint(1000000, 3000000)
            d = rng.randint(m * 208 // 1000, m * 238 // 1000)
            rest = 24 * d - 2 * m
            if rest <= 0 or rest % 3:
                continue
            c = rest // 3
            sums = [m, m + d, c, c, c]
            if not m < c < m + d:
                continue
            total = sum(sums)
            if 25 * (max(sums) - min(sums)) != total:
                continue
            weighted = sum((i - 2) * s for i, s in enumerate(sums))
            if 20 * abs(weighted) >= total:
                continue
            if not naive_double_decision(sums)[0]:
                return sums
        else:
            # 20*|Σ(i-2)S_i| == ΣS with S_i = B + d*(i-2): 200d = 5B => B = 40d.
            d = rng.randint(10000, 400000)
            sums = [40 * d + d * (i - 2) for i in range(5)]
            if not naive_double_decision(sums)[1]:
                return sums
    raise SystemExit("no on-bound " + kind + " case found where doubles fail")


# ---------------------------------------------------------------------------------------------
# Cases
# ---------------------------------------------------------------------------------------------

def t_ranges(ts):
    ranges = []
    for t in ts:
        if ranges and ranges[-1][1] == t - 1:
            ranges[-1][1] = t
        else:
            ranges.append([t, t])
    return ranges


def encode_series(samples):
    ts = sorted(samples)
    return {"tRanges": t_ranges(ts), "iops": [samples[t] for t in ts]}


def steady_state_case(name, description, samples, length_s=60, max_rounds=None, extra=None):
    result = steady_state(samples, length_s, max_rounds)
    case = {"name": name, "description": description, "roundLengthS": length_s, "maxRounds": max_rounds}
    case.update(encode_series(samples))
    case["expected"] = result
    if result["end"]["holds"]:
        w = result["end"]["window"]
        case["expected"]["steadyStateConsistency"] = consistency(
            window_values(samples, w["windowStartS"] + 1, w["windowEndS"]), w["windowStartS"] + 1, w["windowEndS"])
    if extra:
        case.update(extra)
    return case


def steady_state_cases():
    rng = random.Random(20261122)
    cases = []

    stable = [6_000_000 + rng.randint(-60_000, 60_000) for _ in range(8)]
    cases.append(steady_state_case("reached-at-first-check",
                                   "8 stable rounds of ~100k IOPS: the first window (rounds 0..4) holds, x = 4",
                                   series_from_round_sums(rng, stable, 60, 3000)))

    decaying = [int(12_000_000 * 0.9 ** r) for r in range(30)]
    cases.append(steady_state_case("not-reached-decaying",
                                   "IOPS falls 10% per round for 30 rounds; PTS limit 25: not reached, figures of x = 24",
                                   series_from_round_sums(rng, decaying, 60, 1000), max_rounds=25))

    for kind in ("range", "slope"):
        on_bound = find_on_bound(kind, rng)
        for label, delta in (("on", 0), ("just-inside", +1), ("just-outside", -1)):
            sums = list(on_bound)
            # Round 2 has weight 0 in the slope and is strictly between min and max: ±1 IOPS in one of its
            # seconds moves only Σy, by 1/60 IOPS.
            sums[2] += delta
            naive_range, naive_slope = naive_double_decision(sums)
            cases.append(steady_state_case(
                kind + "-bound-" + label,
                "5 rounds with the %s criterion %s its bound (round sums %s)" % (
                    kind, {"on": "exactly on", "just-inside": "1/60 IOPS inside", "just-outside": "1/60 IOPS outside"}[label],
                    sums),
                series_from_round_sums(rng, sums, 60, 500),
                extra={"roundSums": sums, "naiveDoubleRangeHolds": naive_range, "naiveDoubleSlopeHolds": naive_slope}))

    steady = [6_000_000 + rng.randint(-30_000, 30_000) for _ in range(10)]
    cases.append(steady_state_case("missing-round-breaks-window",
                                   "round 4 has 53 of 60 seconds (< 90%): windows x=4..8 span it; reached at x = 9",
                                   series_from_round_sums(rng, steady, 60, 2000, {4: 53})))
    cases.append(steady_state_case("ninety-percent-counts",
                                   "round 4 has exactly 54 of 60 seconds (90%): it counts; reached at x = 4",
                                   series_from_round_sums(rng, steady, 60, 2000, {4: 54})))
    cases.append(steady_state_case("empty-round",
                                   "round 2 has no second at all: reported with no mean; reached at x = 7",
                                   series_from_round_sums(rng, steady, 60, 2000, {2: 0})))

    settling = [int(12_000_000 * 0.93 ** r) for r in range(12)] + [
        int(12_000_000 * 0.93 ** 12) + rng.randint(-20_000, 20_000) for _ in range(20)]
    settling_samples = series_from_round_sums(rng, settling, 60, 1000)
    cases.append(steady_state_case("settles-after-round-12",
                                   "decays 7% per round for 12 rounds, then flat: reached in the flat part",
                                   settling_samples))
    cases.append(steady_state_case("settles-after-round-12-max-10",
                                   "the same series with a round limit of 10: not reached",
                                   settling_samples, max_rounds=10))

    full_2000 = series_from_round_sums(rng, [6_000_000] * 33 + [2_000_000], 60, 4000, {33: 20})
    cases.append(steady_state_case("phase-2000s-partial-last-round",
                                   "2000 s: 34 rounds, the last holding 20 s (t = 1981..2000) does not count",
                                   full_2000))

    cases.append(steady_state_case("all-zero",
                                   "a stalled drive, 0 IOPS: max - min = 0 <= 0.2*0 holds literally; x = 4",
                                   {t: 0 for t in range(1, 301)}))

    short_rounds = [1_000_000 + rng.randint(-5_000, 5_000) for _ in range(12)]
    cases.append(steady_state_case("round-length-10s",
                                   "L = 10 s; 12 rounds",
                                   series_from_round_sums(rng, short_rounds, 10, 3000), length_s=10))
    return cases


def consistency_cases():
    rng = random.Random(1400)
    cases = []

    def case(name, description, samples, first_t, last_t):
        c = {"name": name, "description": description, "firstT": first_t, "lastT": last_t}
        c.update(encode_series(samples))
        c["expected"] = consistency(window_values(samples, first_t, last_t), first_t, last_t)
        return c

    n2000 = {t: rng.randint(20_000, 120_000) for t in range(1, 2001)}
    cases.append(case("n2000-full", "N = 2000 distinct-ish values: P0.1 is rank 2 (doubles would say 3)",
                      n2000, 1, 2000))
    cases.append(case("n2000-fixed-window", "the same series, fixed window t >= 1400: N = 601",
                      n2000, 1400, 2000))
    n600 = {t: rng.randint(50_000, 60_000) for t in range(1, 601)}
    cases.append(case("n600", "N = 600: P0.1 rank ceil(0.6) = 1, P1 rank 6, P99 rank 594", n600, 1, 600))
    cases.append(case("all-equal", "300 seconds of 50000: stddev 0, ratio 1, all within",
                      {t: 50_000 for t in range(1, 301)}, 1, 300))
    boundaries = [1000] * 10 + [900, 1100, 899, 1101, 800, 1200, 799, 1201, 850, 1150]
    cases.append(case("within-boundaries-integer-mean",
                      "mean exactly 1000: 900 and 1100 are within ±10% (inclusive), 899/1101 not; 800/1200 within ±20%",
                      {t + 1: v for t, v in enumerate(boundaries)}, 1, len(boundaries)))
    fractional = [1000, 1000, 1001, 900, 1100, 1101, 800, 1201]
    cases.append(case("within-fractional-mean", "mean 1012.875: bounds at exact fractions",
                      {t + 1: v for t, v in enumerate(fractional)}, 1, len(fractional)))
    gappy = {t: rng.randint(30_000, 40_000) for t in range(1, 901) if t % 7 != 0}
    cases.append(case("window-with-missing-seconds", "t = 1..900 without multiples of 7, window 301..600",
                      gappy, 301, 600))
    return cases


def latency_cases():
    rng = random.Random(99999)
    cases = []
    example = {"totalCount": 96552000, "minNs": 9011, "maxNs": 48758783,
               "counts": [[8960, 120], [71680, 60000000], [157696, 36000000], [339968, 550000], [1196032, 1879],
                          [48496640, 1]]}
    cases.append({"name": "phase-completed-example", "description": "schemas/examples/job-event/valid/phase-completed.json",
                  "histograms": [example], "expected": latency_qos([example])})

    writes = [int(rng.lognormvariate(math.log(80_000), 0.35)) for _ in range(20000)] + [
        rng.randint(1_000_000, 9_000_000) for _ in range(20)]
    reads = [int(rng.lognormvariate(math.log(150_000), 0.5)) for _ in range(10000)] + [rng.randint(200, 250)]
    write_histogram = histogram_of(writes)
    read_histogram = histogram_of(reads)
    cases.append({"name": "writes", "description": "20020 random write latencies",
                  "histograms": [write_histogram], "expected": latency_qos([write_histogram])})
    cases.append({"name": "reads-and-writes-merged", "description": "reads (with sub-256 ns exact values) + writes",
                  "histograms": [read_histogram, write_histogram],
                  "expected": latency_qos([read_histogram, write_histogram])})

    boundary = {"totalCount": 1000, "minNs": 100000, "maxNs": 5000000,
                "counts": [[hdr_lowest(100000), 999], [hdr_lowest(5000000), 1]]}
    cases.append({"name": "rank-boundary-1000",
                  "description": "999 IOs in one bucket, 1 slow: P99.9 = rank 999 (fast bucket), P99.99 = rank 1000",
                  "histograms": [boundary], "expected": latency_qos([boundary]),
                  # ceil(99.9 / 100 * 1000) in doubles is 1000 (99.9 / 100 * 1000 = 999.0000000000001): the slow IO.
                  "p99_9NaiveDoubleRank": math.ceil(99.9 / 100 * 1000)})
    million = {"totalCount": 1000000, "minNs": 50000, "maxNs": 20000000,
               "counts": [[hdr_lowest(50000), 999000], [hdr_lowest(300000), 900], [hdr_lowest(2000000), 99],
                          [hdr_lowest(20000000), 1]]}
    cases.append({"name": "rank-boundary-million",
                  "description": "10^6 IOs: P99.9 rank 999000, P99.99 rank 999900, P99.9999 rank 999999",
                  "histograms": [million], "expected": latency_qos([million])})
    return cases


def endurance_cases():
    after = {"dataUnitsWritten": 1204551, "physicalMediaUnitsWrittenBytes": 1733955993600}
    before = {"dataUnitsWritten": 204551, "physicalMediaUnitsWrittenBytes": 433955993600}
    host_bytes = (after["dataUnitsWritten"] - before["dataUnitsWritten"]) * 512000
    media_bytes = after["physicalMediaUnitsWrittenBytes"] - before["physicalMediaUnitsWrittenBytes"]
    waf = Fraction(media_bytes, host_bytes)
    spec = {"ratedPeCycles": 3000, "rawNandBytes": 8796093022208, "userCapacityBytes": 7680000000000,
            "warrantyYears": 5}
    tbw = Fraction(spec["ratedPeCycles"] * spec["rawNandBytes"]) / waf
    dwpd = tbw / (spec["userCapacityBytes"] * 365 * spec["warrantyYears"])
    rated_tbw = 14_016_000_000_000_000
    rated_dwpd = Fraction(rated_tbw, spec["userCapacityBytes"] * 365 * spec["warrantyYears"])
    return {
        "waf": {"before": before, "after": after, "hostBytesWritten": host_bytes, "mediaBytesWritten": media_bytes,
                "waf": float(waf)},
        "projection": {"spec": spec, "tbwBytes": float(tbw), "dwpd": float(dwpd)},
        "ratedTbw": {"ratedTbwBytes": rated_tbw, "userCapacityBytes": spec["userCapacityBytes"],
                     "warrantyYears": spec["warrantyYears"], "dwpd": float(rated_dwpd)},
        "trimRecovery": {"cleanMBps": 3100.5, "dirtyMBps": 1200.25, "afterTrimMBps": 2900.75,
                         "recovery": float((Fraction("2900.75") - Fraction("1200.25"))
                                           / (Fraction("3100.5") - Fraction("1200.25")))},
        "idleRecovery": idle_case(),
    }


def idle_case():
    rng = random.Random(60)
    after = {t: rng.randint(80_000, 95_000) for t in range(1, 121)}
    first = [v for t, v in after.items() if t <= 60]
    steady = 61234.5
    c = {"steadyStateIopsBefore": steady, "expected": float(Fraction(sum(first), len(first)) / Fraction(steady))}
    c.update(encode_series(after))
    return c


# ---------------------------------------------------------------------------------------------
# Shared steady-state vectors (schemas/examples/steady-state): round totals + eligibility in,
# first eligible round, reached round, end window and failure reasons out. The Java tests read them,
# and the C runner's detector will.
# ---------------------------------------------------------------------------------------------

VECTORS = os.path.normpath(os.path.join(HERE, "..", "..", "..", "..", "..", "schemas", "examples", "steady-state"))
SIM_CAPTURES = os.path.normpath(os.path.join(HERE, "..", "resources", "sim"))


def read_capture(name):
    """A captured phase (t,writeIos,writeBytes): IOPS and write bytes per second."""
    iops, written = {}, {}
    with open(os.path.join(SIM_CAPTURES, name)) as capture:
        for line in capture:
            if line.startswith("#") or line.startswith("t,"):
                continue
            t, ios, nbytes = (int(v) for v in line.split(","))
            iops[t], written[t] = ios, nbytes
    return iops, written


def eligibility(w=1.0, tested_range=None, before=0, applies=True, history="reset"):
    return {"applies": applies, "history": history, "rangeWritesRequired": w, "testedRangeBytes": tested_range,
            "randomWriteBytesBefore": before}


def vector(name, description, totals, elig, length_s=60, max_rounds=None, edge_check=True):
    rounds, evidence = rounds_from_totals(totals, length_s, elig, max_rounds)
    del DOUBLE_DECIDED[:]
    expected = detect(rounds, length_s, elig, evidence, max_rounds)
    # Java decides these in doubles: no vector may sit within 1e-9 (relative) of one.
    for what, left, right in DOUBLE_DECIDED if edge_check else ():
        if (left or right) and abs(left - right) <= Fraction(1, 10 ** 9) * max(abs(left), abs(right)):
            raise SystemExit("%s: %s decided within 1e-9 of its bound (%s vs %s)" % (name, what, float(left),
                                                                                      float(right)))
    expected["rounds"] = reported(rounds, ("index", "counted", "eligible", "randomWriteBytesAtStart", "meanIops",
                                           "waf"))
    # A description may name the reached round (and its horizon's first round and excursion) as the rule computes
    # them, so that it stays true.
    description = description.replace("{reached}", str(expected["reachedAtRound"]))
    if expected["reached"] and "{h" in description:
        horizon = horizon_figures(rounds, expected["reachedAtRound"], elig["testedRangeBytes"])
        description = description.replace("{hfirst}", str(horizon["firstRoundIndex"]))
        description = description.replace("{hexc}", "%.1f" % horizon["slopeExcursionPercent"])
        description = description.replace("{hearlier}", "%.1f" % horizon["earlierChangePercent"])
    return name, {
        "description": description,
        "generatedBy": "service/analysis/src/test/python/known_answers.py",
        "input": {"roundLengthS": length_s, "maxRounds": max_rounds, "eligibility": elig, "rounds": totals},
        "expected": expected,
    }


def flat_totals(count, mean_iops, write_bytes, length_s=60, present=None):
    return [{"sumIops": mean_iops * (present or {}).get(r, length_s), "secondsPresent": (present or {}).get(r, length_s),
             "randomWriteBytes": write_bytes[r] if isinstance(write_bytes, list) else write_bytes}
            for r in range(count)]


def steady_state_vectors():
    rng = random.Random(20261125)
    vectors = []
    op25_iops, op25_bytes = read_capture("client-7pct-op25-randwrite.csv")
    op25 = round_totals(op25_iops, 60, op25_bytes)
    op25_range = 256_000_000_000 * 75 // 100
    vectors.append(vector(
        "sim-client-7pct-op25",
        "consistency-2000s-op25 on the simulated client drive (sim:client-7pct@2, 75% of 256 GB), after a purge: "
        "a fresh-out-of-box plateau of ~68k IOPS for rounds 0-4 that meets both SNIA bounds, then the IOPS cliff at "
        "round 5 (22.5k < 0.8 x 68k): first eligible round 6 (evidence iops-cliff). The climb after the cliff "
        "overshoots (36k at round 17) and settles; the 10-round horizon first holds at round 28 (rounds 19-28, "
        "excursion 5.8%: the record has been more than 5% above and more than 5% below its level before, so the "
        "10% bound applies): "
        "reached at round 28, steady at end over rounds 28-32 (round 33 holds 20 s and does not count). The "
        "2026-11-25 rule (W = 1.0) waited for round 20, the original one reported the plateau at 67,569 IOPS.",
        op25, eligibility(1.0, op25_range)))
    vectors.append(vector(
        "sim-client-7pct-op25-w0",
        "the same rounds with W = 0: the IOPS cliff decides the fresh state's end before the written bytes are "
        "looked at, so W changes nothing: the same answers as sim-client-7pct-op25.",
        op25, eligibility(0.0, op25_range)))
    plain_iops, plain_bytes = read_capture("client-7pct-randwrite.csv")
    vectors.append(vector(
        "sim-client-7pct",
        "consistency-2000s on the simulated client drive (sim:client-7pct@1, all of 256 GB): 2000 s of random "
        "writes reach only 0.30 x the range (the 2026-11-25 rule found no eligible round), but the cliff at round 1 "
        "(12.6k < 0.8 x 68k) ends the fresh state: first eligible round 2, reached at round 28 (horizon rounds "
        "19-28, excursion 6.3% after an overshoot to 9.8k: crossed, the 10% bound), steady at end over rounds "
        "28-32 at 8,110 IOPS (the 4x-capacity truth is ~8,000).",
        round_totals(plain_iops, 60, plain_bytes), eligibility(1.0, 256_000_000_000)))

    tested = 4_000_000_000
    quarter = tested // 4
    vectors.append(vector(
        "eligible-exactly-at-w",
        "16 flat rounds (no cliff: the written-bytes rule decides) writing a quarter of the range each: round 4 "
        "starts with exactly 1.0 x the range written (inclusive bound): first eligible round 4; the 10-round horizon "
        "needs rounds 4-13: reached at round 13.",
        flat_totals(16, 50_000, quarter), eligibility(1.0, tested)))
    short = [quarter - 1] + [quarter] * 15
    vectors.append(vector(
        "eligible-one-byte-short",
        "the same, with round 0 writing one byte less: round 4 starts 1 byte short of the range, so round 5 is the "
        "first eligible round and steady state is reached at round 14 (horizon rounds 5-14).",
        flat_totals(16, 50_000, short), eligibility(1.0, tested)))
    vectors.append(vector(
        "earlier-phase-writes-count",
        "random writes of an earlier phase since the fill (0.9 x the range) count: with 0.05 x the range per "
        "round and no cliff, round 2 is the first eligible round (written-bytes); reached at round 11.",
        flat_totals(14, 40_000, tested // 20), eligibility(1.0, tested, before=tested * 9 // 10)))
    vectors.append(vector(
        "fractional-w",
        "W = 0.75 (compared as the decimal 0.75, exactly): with a quarter of the range per round and no cliff, round "
        "3 is the first eligible round; reached at round 12.",
        flat_totals(14, 40_000, quarter), eligibility(0.75, tested)))
    plateau = [{"sumIops": 60 * 100_000, "secondsPresent": 60, "randomWriteBytes": 0}] * 5 + [
        {"sumIops": 60 * 30_000, "secondsPresent": 60, "randomWriteBytes": 0}] * 6
    vectors.append(vector(
        "read-only-phase",
        "a phase that does not write: every round is eligible (reading leaves the drive as it is; evidence "
        "read-only), no horizon: the first five rounds are reached at round 4 although a drop follows (a drop "
        "in a read phase is not a fresh state ending); steady at end over rounds 6-10.",
        plateau, eligibility(applies=False)))
    vectors.append(vector(
        "tested-range-unknown",
        "a writing phase after a purge whose tested range is unknown (no drive capacity) and without a cliff: the "
        "written-bytes rule cannot decide, no round is eligible (tested-range-unknown, and the horizon is missing: "
        "level-still-moving over rounds 0-7).",
        flat_totals(8, 40_000, quarter), eligibility(1.0, None)))

    for kind in ("range", "slope"):
        on_bound = find_on_bound(kind, rng)
        for label, delta in (("on", 0), ("just-outside", -1)):
            sums = list(on_bound)
            sums[2] += delta
            naive_range, naive_slope = naive_double_decision(sums)
            name, v = vector(
                kind + "-bound-" + label,
                "5 rounds of an imported log (history unknown: SNIA's published rules, every round eligible, no "
                "horizon) with the %s criterion %s its bound: round sums %s over 60 s each: %s. A naive double "
                "comparison says range %s, slope %s." % (
                    kind, "exactly on" if label == "on" else "1/60 IOPS outside", sums,
                    "reached at round 4" if label == "on" else "not reached",
                    "holds" if naive_range else "fails", "holds" if naive_slope else "fails"),
                [{"sumIops": s_, "secondsPresent": 60, "randomWriteBytes": 1_000_000} for s_ in sums],
                eligibility(0.0, tested, history="unknown"))
            vectors.append((name, v))

    vectors.append(vector(
        "end-round-not-counted",
        "12 flat rounds, all eligible (W = 0, no cliff); round 10 has 53 of 60 seconds (< 90%): reached at round 9 "
        "(the first round closing a 10-round horizon), but the end window (rounds 7-11) spans round 10: "
        "rounds-not-counted, and level-still-moving naming round 10.",
        flat_totals(12, 50_000, quarter, present={10: 53}), eligibility(0.0, tested)))
    decay = [{"sumIops": int(60 * 120_000 * 0.9 ** min(r, 12)), "secondsPresent": 60, "randomWriteBytes": quarter}
             for r in range(30)]
    vectors.append(vector(
        "max-rounds-25",
        "30 rounds that fall 10% per round and settle after round 12, with a limit of 25 rounds: only rounds 0-24 "
        "are used. Round 3 is the cliff (0.729 < 0.8 x round 0), first eligible round 4; the horizon of rounds "
        "11-20 holds the last step of the decay (10%): range 11% <= 20%, but excursion 5.4% > 5% (a first "
        "approach from above: not crossed), so the horizon first holds at round {reached} (rounds {hfirst}-"
        "{reached}, flat); the end window is rounds 20-24.",
        decay, eligibility(1.0, tested), max_rounds=25))
    collapse = [{"sumIops": 60 * (80_000 if r < 17 else 70_000), "secondsPresent": 60, "randomWriteBytes": quarter}
                for r in range(20)]
    vectors.append(vector(
        "reached-then-collapses",
        "flat 80k from round 0, 70k from round 17 (12.5% less: not a cliff, so the written-bytes rule decides: "
        "first eligible round 4): reached at round 13, but the last five rounds (15-19) break the slope bound and "
        "the horizon, so there is no steady-state IOPS.",
        collapse, eligibility(1.0, tested)))
    vectors.append(vector(
        "too-few-rounds",
        "three rounds: no window of five, neither reached nor steady at end.",
        flat_totals(3, 50_000, quarter), eligibility(0.0, tested)))
    vectors.extend(rule_v2_vectors(rng))
    return vectors


def totals_of(means, write_bytes=1_000_000_000, length_s=60, present=None, media=None):
    """Rounds of the given integer means (or exact round sums as ("sum", s)), each writing write_bytes at random;
    media: per round (mediaBytes, hostBytes), or None for a round without them."""
    totals = []
    for r, mean in enumerate(means):
        seconds = (present or {}).get(r, length_s)
        total = {"sumIops": mean[1] if isinstance(mean, tuple) else mean * seconds, "secondsPresent": seconds,
                 "randomWriteBytes": write_bytes}
        if media is not None and media[r] is not None:
            total["mediaBytes"], total["hostBytes"] = media[r]
        totals.append(total)
    return totals


def growth(start, rate, count):
    """count integer means growing by rate per round from start (exact, rounded down)."""
    return [int(Fraction(start) * Fraction(rate) ** i) for i in range(count)]


def naive_horizon_decision(sums, n=60, excursion=0.05):
    """The ten-round checks in IEEE doubles, textbook form (excursion 0.05: a first approach, nothing before)."""
    ys = [s / n for s in sums]
    avg = sum(ys) / 10
    b = sum((i - 4.5) * y for i, y in enumerate(ys)) / 82.5
    return (max(ys) - min(ys) <= 0.2 * avg), (abs(b) * 9 <= excursion * avg)


def find_on_horizon_bound(kind, rng):
    """Ten round sums exactly on a horizon bound (the other bound and every five-round window inside theirs),
    preferring sums where the naive double check gets it wrong."""
    fallback = None
    for _ in range(200000):
        if kind == "range":
            # c everywhere but a min m at index 4 (weight -1) and a max M at index 5 (weight +1):
            # 50 (M - m) = 8c + m + M  =>  8c = 49M - 51m; the slope sum is M - m, far inside.
            m = rng.randint(1000000, 3000000)
            M = m + rng.randint(m * 19 // 100, m * 22 // 100)
            if (49 * M - 51 * m) % 8:
                continue
            c = (49 * M - 51 * m) // 8
            sums = [c] * 4 + [m, M] + [c] * 4
            if not m < c < M or 50 * (M - m) != sum(sums):
                continue
        else:
            # nothing precedes the ten rounds, so the level is approached for the first time (not crossed: the
            # 5% bound). A straight line S_i = k (351 + 2i): 120 |sum((2i-9) S_i)| = 120 * 330 k = 11 * 3600 k
            # = 11 sum(S).
            k = rng.randint(5000, 20000)
            sums = [k * (351 + 2 * i) for i in range(10)]
        fallback = fallback or sums
        if not naive_horizon_decision(sums)[0 if kind == "range" else 1]:
            return sums, True
    return fallback, False


def rule_v2_vectors(rng):
    """Vectors of the 2026-11-28 rule: evidence of the fresh state's end, history, the 10-round horizon."""
    vectors = []
    tested = 4_000_000_000
    little = tested // 100  # 1% of the range a round: the written-bytes rule would wait 100 rounds

    cliff = [100_000] * 5 + [30_000] * 12
    vectors.append(vector(
        "iops-cliff",
        "after a purge: a fresh plateau of 100k IOPS for rounds 0-4 (the five-round bounds hold on it), the cliff "
        "at round 5 (30k < 0.8 x 100k), then flat: first eligible round 6 = cliff + 1 (evidence iops-cliff, long "
        "before 1.0 x the range is written); reached at round 15, where the horizon rounds 6-15 first exist and "
        "hold.",
        totals_of(cliff, little), eligibility(1.0, tested)))

    for label, round3 in (("at-0.8", 60 * 80_000), ("just-below-0.8", 60 * 80_000 - 1)):
        means = [100_000] * 3 + [("sum", round3)] + [80_000] * 14
        vectors.append(vector(
            "cliff-" + label,
            "rounds 0-2 at 100k IOPS, round 3 %s (exactly 0.8 x 100k%s), then 80k: %s" % (
                "at 80k" if round3 == 60 * 80_000 else "summing 4,799,999 over 60 s",
                ": 5 x mean < 4 x best does not hold, not a cliff" if round3 == 60 * 80_000 else
                " less 1/60 IOPS: a cliff, decided exactly in integers",
                "no cliff anywhere (80k is never below 0.8 x 100k), so the written-bytes rule decides: an eighth of "
                "the range a round, first eligible round 8, reached at round 17." if round3 == 60 * 80_000 else
                "first eligible round 4 (evidence iops-cliff), reached at round 13."),
            totals_of(means, tested // 8), eligibility(1.0, tested)))

    climb = [100_000] * 5 + growth(30_000, "1.01", 21) + [int(Fraction(30_000) * Fraction("1.01") ** 20)] * 12
    vectors.append(vector(
        "slow-climb",
        "after the cliff at round 5 (first eligible round 6), a climb of 1% per round (rounds 5-25) then flat: every "
        "five-round window of the climb holds SNIA's bounds (excursion ~4%), but the horizon sees 1% per round: "
        "ten rounds climbing 1% give |b| x 9 = 8.95% of avg, and the record approaches the level for the first "
        "time (every earlier eligible round is below it: not crossed), so the horizon is the later half of the "
        "record since round 6, held within 5% and to slowing (moving at most half as much as the rounds before it, "
        "or under 2.5% of avg): every horizon that climbs fails (level-still-moving; the 10% bound of a crossed "
        "level would have let it pass at round 15, mid-climb). Not reached mid-climb: reached at round {reached}, "
        "the first later half (rounds {hfirst}-{reached}) within 5% and slowing after the climb ends at round 25. "
        "A steady climb is never slowing (its later half moves as much as the rounds before it), so it passes only "
        "while its later half moves less than 2.5% of the level.",
        totals_of(climb, little), eligibility(1.0, tested)))
    climb15 = [100_000] * 5 + growth(30_000, "1.015", 21) + [int(Fraction(30_000) * Fraction("1.015") ** 20)] * 12
    vectors.append(vector(
        "slow-climb-1.5pct",
        "the same with a climb of 1.5% per round (rounds 5-25) then flat: the five-round windows of the climb hold "
        "SNIA's bounds (excursion ~6%), but every horizon that climbs fails (|b| x 9 ~ 13% of avg over ten rounds, "
        "above even the 10% bound): level-still-moving until the later half of the record since round 6 (a first "
        "approach) holds within 5% and moves at most half as much as the rounds before it: reached at round "
        "{reached} (rounds {hfirst}-{reached}).",
        totals_of(climb15, little), eligibility(1.0, tested)))

    hump = [100_000] * 5 + [30_000] * 8 + [35_000, 39_500] + [39_900] * 5 + [38_500, 37_000, 36_000] + [35_000] * 15
    vectors.append(vector(
        "overshoot-hump",
        "after the cliff at round 5 (first eligible round 6), 30k until round 12, a climb (35k, 39.5k) to a hump "
        "14% above the final level (39.9k over rounds 15-19), back down to 35k by round 23, then flat: the "
        "five-round windows on the hump top (rounds 14-18 .. 17-21) meet SNIA's bounds, but no window on the hump "
        "holds: their horizons span the level before the climb (range > 20%), and the windows of the descent fail "
        "the slope or the horizon's slope: reached at round {reached}, in the flat (horizon rounds {hfirst}-"
        "{reached}: the record has been more than 5% above the level, on the hump, and more than 5% below it, before "
        "the climb, so it has crossed it and its excursion of {hexc}% is held to the 10% bound).",
        totals_of(hump, little), eligibility(1.0, tested)))
    gentle = ([100_000] * 5 + [30_000] * 6 + [32_000, 34_500, 37_000, 39_500] + [39_900] * 5 +
              [38_500, 37_000, 36_000] + [35_000] * 15)
    vectors.append(vector(
        "overshoot-hump-gentle",
        "the same hump reached by a gentler climb (32k, 34.5k, 37k, 39.5k over rounds 11-14): the horizon of rounds "
        "12-21 straddles the hump symmetrically, so its least-squares slope is small (excursion 4.95%) and its "
        "range 14% <= 20%. Every eligible round before it (30k, rounds 6-11) is below its average, so the level is "
        "approached for the first time (not crossed): the 5% bound, which 4.95% meets, but the horizon also has to "
        "be slowing, and it moves more than half as much as rounds 6-11 before it (3.7% of avg) and more than 2.5%: "
        "not held at round 21. At round 22 the horizon 13-22 would hold (excursion 4.7%, less than half of the "
        "climb 6-12 before it), but the window 18-22 of the descent fails SNIA's slope bound; the descent's "
        "horizons fail: reached at round {reached}, in the flat (rounds {hfirst}-{reached}, crossed: the hump "
        "above, the level before the climb below). Pinned as the rule's limit: a first-approach horizon centred "
        "on a hump of less than 20% after a climb twice its change would pass; SNIA's window stopped it here.",
        totals_of(gentle, little), eligibility(1.0, tested)))

    for kind in ("range", "slope"):
        on_bound, doubles_fail = find_on_horizon_bound(kind, rng)
        for label, index in (("on", None), ("just-outside", 0 if kind == "slope" else 2)):
            sums = list(on_bound)
            if index is not None:
                sums[index] -= 1  # 1/60 IOPS: the sum falls by 1/60, the bound's other side does not move
            naive_range, naive_slope = naive_horizon_decision(sums)
            # The slope's on-bound horizon follows a first climb (rounds 0-9, 30% to 60% of its level), so that it is
            # the later half of the record (n = 10: decided exactly) and slowing: it moves 5% of avg, less than half
            # of the climb's change; the climb stays below the level, so it is not crossed.
            climb = [sums[0] * (90 + 10 * i) // 300 for i in range(10)] if kind == "slope" else []
            name, v = vector(
                "horizon-" + kind + "-bound-" + label,
                "%s, all eligible (W = 0, no cliff), every five-round window inside SNIA's bounds, with the "
                "horizon's %s criterion %s (%s): round sums %s over 60 s each: %s. A naive double comparison says "
                "range %s, slope %s%s." % (
                    "ten rounds after a purge" if kind == "range" else
                    "after a purge, a first climb (rounds 0-9, from 30% to 60% of the level) and ten rounds 10-19",
                    kind,
                    "exactly on its bound" if label == "on" else "1/60 IOPS outside its bound",
                    "50 (max - min) = sum(y); no round precedes the horizon, and it moves under 2.5% of avg: slowing"
                    if kind == "range" else
                    "every round before them is below their average, so the level is approached for the first time, "
                    "not crossed: the horizon is the later half of the record, rounds 10-19 (n = 10), with the 5% "
                    "bound, 120 |sum((2i - 9) y_i)| = 11 sum(y); it moves 5% of avg, less than half the climb's "
                    "change: slowing",
                    sums,
                    ("reached at round %d" % (9 + len(climb))) if label == "on" else
                    "not reached, level-still-moving at the end",
                    "holds" if naive_range else "fails", "holds" if naive_slope else "fails",
                    "" if doubles_fail else " (no nearby sums were found where doubles get it wrong)"),
                totals_of([("sum", s_) for s_ in climb + sums], little), eligibility(0.0, tested))
            vectors.append((name, v))

    # One ten-round horizon: a settling oscillation climbing into a level of ~38.2k (range 8.9%, excursion 6.2%:
    # between the 5% and the 10% bound), after two different records.
    settling = [36_000, 38_400, 36_800, 38_900, 37_500, 39_200, 38_000, 39_400, 38_600, 39_300]
    vectors.append(vector(
        "horizon-crossed-settling",
        "after the cliff at round 5 (first eligible round 6), a climb (34k-42k) to an overshoot (46k, 47k at rounds "
        "9-10), a fall below the level (42k, 36k, 31k at rounds 11-13) and a settling oscillation (rounds 14-23, "
        "36k-39.4k) whose ten-round excursion is 6.2% (range 8.9%): the eligible rounds before that horizon lie "
        "more than 5% above its average (the overshoot) and more than 5% below it (the climb, the undershoot), so "
        "the record has crossed the "
        "level and the 10% bound applies: reached at round {reached}, steady at end (every earlier horizon spans "
        "the undershoot or the overshoot: range > 20%).",
        totals_of([100_000] * 5 + [30_000, 34_000, 38_000, 42_000, 46_000, 47_000, 42_000, 36_000, 31_000] + settling,
                  little), eligibility(1.0, tested)))
    vectors.append(vector(
        "horizon-first-approach",
        "the same ten rounds 14-23 (excursion 6.2%, range 8.9%) after the cliff at round 5 and a first approach from "
        "below (30.5k to 34k, rounds 6-13): every earlier eligible round is below the horizon's average (the fresh "
        "plateau of rounds 0-4 is above it but not eligible), so the level has not been crossed and the 5% bound "
        "applies (the later half of the record since round 6 is these ten rounds: 5% fails, and they move more than "
        "half as much as rounds 6-13 before them: not slowing either): the five-round windows inside rounds 14-23 "
        "hold SNIA's bounds, but no horizon does: not reached, level-still-moving at the end.",
        totals_of([100_000] * 5 + [30_000, 30_500, 31_000, 31_500, 32_000, 32_500, 33_000, 33_500, 34_000] + settling,
                  little), eligibility(1.0, tested)))

    vectors.append(vector(
        "crossed-with-margin",
        "the same ten rounds 14-23 (average 38,210, excursion 6.2%, range 8.9%) after the cliff at round 5 and a "
        "first approach from below (30.5k to 34k, rounds 6-13) in which round 11 reaches 39,356, only 3% above the "
        "horizon's average: the record has been below the level by more than 5% but above it by less than 5%, so it "
        "has not crossed it (crossing needs a round above 1.05 x and one below 0.95 x the average): a first "
        "approach, the 5% bound (and slowing); no horizon holds: not reached, level-still-moving at the end. "
        "Counted as crossed (any round above and any below), the 10% bound would have let round 23 pass.",
        totals_of([100_000] * 5 + [30_000, 30_500, 31_000, 31_500, 32_000, 39_356, 33_000, 33_500, 34_000] + settling,
                  little), eligibility(1.0, tested)))

    # A convex climb after a cliff: the growth per round accelerates from 0.280% to 0.295% (compounded).
    accelerating, level = [], 30_000.0
    for t in range(36):
        accelerating.append(int(round(level)))
        level *= 1 + 0.0028 + 0.00015 * t / 35
    vectors.append(vector(
        "first-approach-still-climbing",
        "after a fresh plateau (rounds 0-3, 100k) the cliff at round 4 (first eligible round 5), then a convex climb "
        "over rounds 4-39 (from 30k, growing 0.280% per round at first and 0.295% at the end, accelerating): every "
        "five-round window holds SNIA's bounds and every ten-round horizon's excursion is under 5% (at most 2.6%), "
        "so a ten-round first-approach check would pass; but the record never crosses its level, so the horizon is "
        "the later half of the record since round 5, and it must be slowing: moving at most half as much as the "
        "rounds before it (or under 2.5% of avg). Each later half moves more than the rounds before it (at round 39: "
        "rounds 22-39, excursion 4.94%, within 5%, against an earlier change of 4.31%): not slowing, never reached, "
        "level-still-moving at the end.",
        totals_of([100_000] * 4 + accelerating, little), eligibility(1.0, tested)))

    exponential = [int(round(50_000 * (1 - 0.4 * math.exp(-t / 6)))) for t in range(40)]
    vectors.append(vector(
        "first-approach-slowing",
        "after a fresh plateau (rounds 0-4, 100k) the cliff at round 5 (first eligible round 6), then an exponential "
        "approach to 50k (30k at round 5, 50k x (1 - 0.4 e^(-t/6)) over rounds 5-44): it never crosses the level, "
        "so the horizon is the later half of the record since round 6. Once that half holds SNIA's bounds within 5% "
        "and is slowing (it moves at most half as much as the rounds before it) the level is steady: reached at "
        "round {reached} (rounds {hfirst}-{reached}, excursion {hexc}%, the rounds before it having moved "
        "{hearlier}% of its average); steady at end.",
        totals_of([100_000] * 5 + exponential, little), eligibility(1.0, tested)))

    vectors.append(vector(
        "no-reset-import",
        "an imported vendor log that does not start from a purge or fill (history unknown): SNIA's published rules, "
        "labelled (evidence no-reset): every round eligible, no horizon; the fresh plateau (rounds 0-4) passes and "
        "is reached at round 4 although a cliff follows at round 5; steady at end over rounds 10-14.",
        totals_of([100_000] * 5 + [30_000] * 10, little), eligibility(1.0, None, history="unknown")))

    decline = [100_000 - 1_000 * min(r, 15) for r in range(26)]
    vectors.append(vector(
        "written-bytes-fallback",
        "after a purge, no cliff at all (100k declining 1k a round to 85k, never below 0.8 x the best), range "
        "known, W = 1.5: eligible once 1.5 x the range is written, an eighth of the range a round: first eligible "
        "round 12 (evidence written-bytes). The horizon of rounds 12-21 (88k to 85k) is inside both bounds, but no "
        "counted round precedes it since round 12, so to be slowing it must move under 2.5% of avg: 2.9%, not held; "
        "reached at round {reached} (horizon rounds {hfirst}-{reached}: 87k to 85k, 1.6%).",
        totals_of(decline, tested // 8), eligibility(1.5, tested)))

    host = 4096 * 60 * 50_000
    gc_means = [100_000] * 4 + [90_000, 70_000] + [50_000] * 14
    gc_waf = ["1.0"] * 4 + ["1.2", "1.6"] + ["2.0"] * 14
    vectors.append(vector(
        "media-writes-gc",
        "rounds carrying the drive's media and host bytes written: WAF 1.0 for rounds 0-3 (fresh: no garbage "
        "collection), 1.2 at round 4 (>= 1.10: GC writes show, G = 4) while the IOPS are still at 0.9 x the plateau "
        "(the IOPS cliff would only come at round 5): first eligible round 5 = G + 1 (evidence media-writes); IOPS "
        "and WAF flat from round 6: reached at round 15 (horizon rounds 6-15).",
        totals_of(gc_means, host, media=[(int(host * Fraction(w)), host) for w in gc_waf]),
        eligibility(1.0, tested)))
    gap_media = [(int(host * Fraction(w)), host) for w in gc_waf]
    gap_media[2] = None
    vectors.append(vector(
        "media-round-not-counted",
        "the rounds of media-writes-gc, but round 2 holds 30 of 60 seconds (it does not count) and carries no media "
        "or host bytes (waf null): the media evidence needs them only for the counted rounds, so it still decides: "
        "G = 4 (WAF 1.2), first eligible round 5 (evidence media-writes), reached at round {reached}. Were media "
        "figures needed for every round, the IOPS cliff at round 5 would decide (first eligible round 6).",
        totals_of(gc_means, host, present={2: 30}, media=gap_media), eligibility(1.0, tested)))
    trend_waf = ["1.0"] * 3 + ["1.5"] + [str(Fraction(2) * Fraction("1.05") ** i) for i in range(16)]
    vectors.append(vector(
        "media-waf-not-steady",
        "GC shows at round 3 (WAF 1.5): first eligible round 4; the IOPS are flat at 50k from round 3 (SNIA's "
        "bounds and the horizon hold on them), but the round WAF keeps climbing 5% a round (2.0 at round 4 to "
        "4.16 at round 19): no window holds, waf-not-steady at the end.",
        totals_of([100_000] * 3 + [50_000] * 17, host,
                  media=[(int(host * Fraction(w)), host) for w in trend_waf]),
        eligibility(1.0, tested)))
    vectors.append(vector(
        "media-no-gc",
        "media and host bytes for every round, the round WAF never reaching 1.10 (1.0 to 1.09; a drive with enough "
        "spare that GC never shows, even though the IOPS drop at round 5): the media evidence decides that no "
        "round is eligible (the IOPS cliff is not consulted): not reached, not steady at end.",
        totals_of([100_000] * 5 + [60_000] * 10, host,
                  media=[(host + host * (r % 10) // 100, host) for r in range(15)]),
        eligibility(1.0, tested)))

    # A drive that writes little of its range per round (a 30 TB drive: 0.25% a round): after the cliff a trough
    # flat for 12 rounds, then a climb of 1% a round to a level 22% higher. Ten rounds of the trough write 2.5% of
    # the range, too little to see the climb; the horizon extends to the 20 rounds that write 5%.
    trough = [100_000] * 5 + [30_000] * 12 + [int(round(30_000 * 1.01 ** k)) for k in range(1, 21)] + [36_606] * 33
    vectors.append(vector(
        "horizon-extended-by-writes",
        "after the cliff at round 5 (first eligible round 6), a trough flat at 30k over rounds 5-16, a climb of 1% a "
        "round (rounds 17-36) to 36.6k, flat from round 36; each round writes 1/400 of the tested range, so the "
        "horizon spans the 20 rounds whose writes reach 1/20 of it, not ten: the trough's ten-round horizons (rounds "
        "6-15, flat, nothing before them to be slowing against) would hold at round 15, 18% below the level; the "
        "20-round horizons first exist at round 25 and span the climb's start, and no first-approach horizon holds "
        "until the record has been flat at the level as long as it climbed: reached at round {reached} (horizon "
        "rounds {hfirst}-{reached}); steady at end.",
        totals_of(trough, tested // 400), eligibility(1.0, tested)))
    crossed_settling = ([100_000] * 5 + [30_000, 33_000, 36_000, 39_000, 42_000, 45_000, 47_000, 46_000, 43_000,
                                         40_000, 37_000, 35_000, 34_000] +
                        [36_000, 38_400, 36_800, 38_900, 37_500, 39_200, 38_000, 39_400, 38_600, 39_300] * 3)
    vectors.append(vector(
        "horizon-crossed-extended-by-writes",
        "after the cliff at round 5 (first eligible round 6), a climb to an overshoot (47k at round 11), a fall below "
        "the level (34k at round 17) and a settling oscillation (36k-39.4k, rounds 18-47); each round writes 1/400 "
        "of the tested range, so the horizon is 20 rounds: crossed (the overshoot above, the climb and the "
        "undershoot below), held to range <= 20% and excursion <= 10% in doubles (a horizon longer than ten): "
        "reached at round {reached} (horizon rounds {hfirst}-{reached}, excursion {hexc}%); steady at end.",
        totals_of(crossed_settling, tested // 400), eligibility(1.0, tested)))

    vectors.append(vector(
        "horizon-round-not-counted",
        "12 flat rounds after a purge, all eligible (W = 0, no cliff); round 3 holds 50 of 60 seconds (< 90%): the "
        "end window (rounds 7-11) counts and meets SNIA's bounds, but its horizon (rounds 2-11) spans round 3: "
        "level-still-moving naming round 3; no horizon of ten counted rounds exists, so not reached.",
        totals_of([50_000] * 12, quarter_of(tested), present={3: 50}), eligibility(0.0, tested)))
    return vectors


def quarter_of(tested):
    return tested // 4



def readable_json(value, indent=""):
    """Objects one key per line, arrays of objects one element per line, everything else compact."""
    inner = indent + "  "
    if isinstance(value, dict) and any(isinstance(v, (dict, list)) for v in value.values()):
        items = [inner + json.dumps(k) + ": " + readable_json(v, inner) for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + indent + "}"
    if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        return "[\n" + ",\n".join(inner + json.dumps(v, separators=(", ", ": ")) for v in value) + "\n" + indent + "]"
    return json.dumps(value, separators=(", ", ": "))


def write_vectors(vectors):
    os.makedirs(VECTORS, exist_ok=True)
    for old in os.listdir(VECTORS):
        if old.endswith(".json"):
            os.remove(os.path.join(VECTORS, old))
    for name, v in vectors:
        with open(os.path.join(VECTORS, name + ".json"), "w") as out:
            out.write(readable_json(v) + "\n")
        e = v["expected"]
        print("%-28s first eligible %-4s reached %-4s end %s..%s holds=%s %s" % (
            name, e["firstEligibleRound"], e["reachedAtRound"], e["end"]["firstRound"], e["end"]["lastRound"],
            e["end"]["holds"], [f["kind"] for f in e["end"]["failures"]]))


def main():
    write_vectors(steady_state_vectors())
    answers = {
        "generatedBy": "service/analysis/src/test/python/known_answers.py",
        "steadyState": steady_state_cases(),
        "consistency": consistency_cases(),
        "latency": latency_cases(),
        "endurance": endurance_cases(),
    }
    with open(OUTPUT, "w") as out:
        json.dump(answers, out, separators=(",", ":"))
        out.write("\n")
    print("wrote", OUTPUT, os.path.getsize(OUTPUT), "bytes")
    for case in answers["steadyState"]:
        e = case["expected"]
        w = e["window"]
        print("%-36s reached=%-5s x=%s evaluated=%d %s" % (
            case["name"], e["reached"], w and w["lastRoundIndex"], e["windowsEvaluated"],
            {k: case[k] for k in ("naiveDoubleRangeHolds", "naiveDoubleSlopeHolds") if k in case}))
    for case in answers["consistency"]:
        e = case["expected"]
        print("%-36s N=%d p0.1 rank %d within10=%d within20=%d" % (
            case["name"], e["sampleCount"], e["p0_1Rank"], e["within10PercentCount"], e["within20PercentCount"]))


if __name__ == "__main__":
    main()
