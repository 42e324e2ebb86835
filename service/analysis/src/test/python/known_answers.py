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
# indices and compares max-min <= (1/5)*avg and |b|*4 <= (1/10)*avg as Fractions; eligibility
# compares the random writes at a round's start with Fraction(repr(W)) * range; percentiles use
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


NOT_APPLICABLE = {"applies": False, "rangeWritesRequired": 1.0, "testedRangeBytes": None, "randomWriteBytesBefore": 0}


def eligible_at(eligibility, written):
    """A round is eligible once the random writes since the last purge or fill, counted to its start, reach
    W x the tested range (inclusive; W as the decimal it prints as). A phase that does not write: always."""
    if not eligibility["applies"]:
        return True
    if eligibility["testedRangeBytes"] is None:
        return False
    required = Fraction(repr(float(eligibility["rangeWritesRequired"]))) * eligibility["testedRangeBytes"]
    return Fraction(written) >= required


def rounds_from_totals(totals, length_s, eligibility):
    """Round r counts with >= 90% of L present; it is eligible per eligible_at."""
    rounds = []
    written = eligibility["randomWriteBytesBefore"]
    for r, total in enumerate(totals):
        present = total["secondsPresent"]
        rounds.append({
            "index": r,
            "secondsPresent": present,
            "counted": Fraction(present) >= Fraction(9, 10) * length_s,
            "sumIops": total["sumIops"],
            "mean": Fraction(total["sumIops"], present) if present else None,
            "randomWriteBytes": total["randomWriteBytes"],
            "randomWriteBytesAtStart": written,
            "eligible": eligible_at(eligibility, written),
        })
        written += total["randomWriteBytes"]
    return rounds


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


def end_window(rounds, limit, length_s, eligibility):
    """The five rounds ending at the last counted round: they hold when all count, all are eligible and both
    bounds hold. Failures in the order counted, eligible, bounds."""
    counted = [r["index"] for r in rounds[:limit] if r["counted"]]
    last = counted[-1] if counted else -1
    if last < 4:
        return {"firstRound": -1, "lastRound": last, "holds": False, "window": None,
                "failures": [{"kind": "too-few-rounds", "rounds": []}]}
    window_rounds = rounds[last - 4:last + 1]
    failures = []
    not_counted = [r["index"] for r in window_rounds if not r["counted"]]
    not_eligible = [r["index"] for r in window_rounds if not r["eligible"]]
    if not_counted:
        failures.append({"kind": "rounds-not-counted", "rounds": not_counted})
    if not_eligible:
        kind = "tested-range-unknown" if eligibility["testedRangeBytes"] is None else "rounds-not-eligible"
        failures.append({"kind": kind, "rounds": not_eligible})
    figures = None
    if not not_counted:
        figures = window_figures(rounds, last, length_s)
        if not figures["rangeWithinBound"]:
            failures.append({"kind": "range-above-bound", "rounds": []})
        if not figures["slopeWithinBound"]:
            failures.append({"kind": "slope-above-bound", "rounds": []})
    return {"firstRound": last - 4, "lastRound": last, "holds": not failures, "window": figures, "failures": failures}


def detect(rounds, length_s, eligibility, max_rounds=None):
    """The first window x-4..x of five counted, eligible rounds meeting both bounds; and the end window."""
    limit = len(rounds) if max_rounds is None else min(len(rounds), max_rounds)
    last = None
    evaluated = 0
    reached = False
    for x in range(4, limit):
        if not all(r["counted"] and r["eligible"] for r in rounds[x - 4:x + 1]):
            continue
        evaluated += 1
        last = window_figures(rounds, x, length_s)
        if last["rangeWithinBound"] and last["slopeWithinBound"]:
            reached = True
            break
    end = end_window(rounds, limit, length_s, eligibility)
    first_eligible = next((r["index"] for r in rounds[:limit] if r["eligible"]), None)
    return {
        "firstEligibleRound": first_eligible,
        "reached": reached,
        "reachedAtRound": last["lastRoundIndex"] if reached else None,
        "windowsEvaluated": evaluated,
        "window": last,
        "end": end,
        "steadyStateIops": end["window"]["avgIops"] if end["holds"] else None,
    }


def steady_state(samples, length_s, max_rounds=None):
    """Per-second IOPS of a phase that does not write: every round eligible."""
    rounds = rounds_from_totals(round_totals(samples, length_s), length_s, NOT_APPLICABLE)
    result = detect(rounds, length_s, NOT_APPLICABLE, max_rounds)
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


def eligibility(w=1.0, tested_range=None, before=0, applies=True):
    return {"applies": applies, "rangeWritesRequired": w, "testedRangeBytes": tested_range,
            "randomWriteBytesBefore": before}


def vector(name, description, totals, elig, length_s=60, max_rounds=None):
    rounds = rounds_from_totals(totals, length_s, elig)
    expected = detect(rounds, length_s, elig, max_rounds)
    expected["rounds"] = reported(rounds, ("index", "counted", "eligible", "randomWriteBytesAtStart", "meanIops"))
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
        "consistency-2000s-op25 on the simulated client drive (sim:client-7pct@2, 75% of 256 GB): a fresh-out-of-box "
        "plateau of ~68k IOPS for rounds 0-4 that meets both bounds, then ~22k-36k. The plateau is not eligible "
        "(random writes reach 1.0 x the range only by the start of round 20): reached at round 24, steady at end over rounds "
        "28-32 (round 33 holds 20 s and does not count). The old rule (first window, no eligibility) reported "
        "rounds 0-4 at 67,569 IOPS.",
        op25, eligibility(1.0, op25_range)))
    vectors.append(vector(
        "sim-client-7pct-op25-w0",
        "the same rounds with W = 0: every round is eligible, so the plateau (rounds 0-4) is where steady state is "
        "reached; the steady-state IOPS still come from the end window (rounds 28-32).",
        op25, eligibility(0.0, op25_range)))
    plain_iops, plain_bytes = read_capture("client-7pct-randwrite.csv")
    vectors.append(vector(
        "sim-client-7pct",
        "consistency-2000s on the simulated client drive (sim:client-7pct@1, all of 256 GB): 2000 s of random "
        "writes reach only 0.30 x the range, so no round is eligible: not reached, not steady at end.",
        round_totals(plain_iops, 60, plain_bytes), eligibility(1.0, 256_000_000_000)))

    tested = 4_000_000_000
    quarter = tested // 4
    vectors.append(vector(
        "eligible-exactly-at-w",
        "12 flat rounds writing a quarter of the range each: round 4 starts with exactly 1.0 x the range written "
        "(inclusive bound): first eligible round 4, reached at round 8.",
        flat_totals(12, 50_000, quarter), eligibility(1.0, tested)))
    short = [quarter - 1] + [quarter] * 11
    vectors.append(vector(
        "eligible-one-byte-short",
        "the same, with round 0 writing one byte less: round 4 starts 1 byte short of the range, so round 5 is the "
        "first eligible round and steady state is reached at round 9.",
        flat_totals(12, 50_000, short), eligibility(1.0, tested)))
    vectors.append(vector(
        "earlier-phase-writes-count",
        "random writes of an earlier phase since the fill (0.9 x the range) count: with 0.05 x the range per "
        "round, round 2 is the first eligible round.",
        flat_totals(10, 40_000, tested // 20), eligibility(1.0, tested, before=tested * 9 // 10)))
    vectors.append(vector(
        "fractional-w",
        "W = 0.75: with a quarter of the range per round, round 3 is the first eligible round.",
        flat_totals(10, 40_000, quarter), eligibility(0.75, tested)))
    plateau = [{"sumIops": 60 * 100_000, "secondsPresent": 60, "randomWriteBytes": 0}] * 5 + [
        {"sumIops": 60 * 30_000, "secondsPresent": 60, "randomWriteBytes": 0}] * 6
    vectors.append(vector(
        "read-only-phase",
        "a phase that does not write: every round is eligible (reading leaves the drive as it is).",
        plateau, eligibility(applies=False)))
    vectors.append(vector(
        "tested-range-unknown",
        "a writing phase whose tested range is unknown (no drive capacity): no round is eligible.",
        flat_totals(8, 40_000, quarter), eligibility(1.0, None)))

    for kind in ("range", "slope"):
        on_bound = find_on_bound(kind, rng)
        for label, delta in (("on", 0), ("just-outside", -1)):
            sums = list(on_bound)
            sums[2] += delta
            naive_range, naive_slope = naive_double_decision(sums)
            name, v = vector(
                kind + "-bound-" + label,
                "5 eligible rounds (W = 0) with the %s criterion %s its bound: round sums %s over 60 s each. A "
                "naive double comparison says range %s, slope %s." % (
                    kind, "exactly on" if label == "on" else "1/60 IOPS outside", sums,
                    "holds" if naive_range else "fails", "holds" if naive_slope else "fails"),
                [{"sumIops": s_, "secondsPresent": 60, "randomWriteBytes": 1_000_000} for s_ in sums],
                eligibility(0.0, tested))
            vectors.append((name, v))

    vectors.append(vector(
        "end-round-not-counted",
        "12 flat, eligible rounds; round 10 has 53 of 60 seconds (< 90%): reached at round 4, but the end window "
        "(rounds 7-11) spans round 10 and is not evaluated.",
        flat_totals(12, 50_000, quarter, present={10: 53}), eligibility(0.0, tested)))
    decay = [{"sumIops": int(60 * 120_000 * 0.9 ** min(r, 12)), "secondsPresent": 60, "randomWriteBytes": quarter}
             for r in range(30)]
    vectors.append(vector(
        "max-rounds-25",
        "30 rounds that settle after round 12, with a limit of 25 rounds: only rounds 0-24 are used, the end window "
        "is rounds 20-24.",
        decay, eligibility(1.0, tested), max_rounds=25))
    collapse = [{"sumIops": 60 * (80_000 if r < 17 else 40_000), "secondsPresent": 60, "randomWriteBytes": quarter}
                for r in range(20)]
    vectors.append(vector(
        "reached-then-collapses",
        "flat from round 4 (the first eligible round) to round 16, then half the IOPS: reached at round 8, but the "
        "last five rounds (15-19) break the range bound, so there is no steady-state IOPS.",
        collapse, eligibility(1.0, tested)))
    vectors.append(vector(
        "too-few-rounds",
        "three rounds: no window of five, neither reached nor steady at end.",
        flat_totals(3, 50_000, quarter), eligibility(0.0, tested)))
    return vectors


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
