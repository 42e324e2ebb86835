#!/usr/bin/env bash
# Benchmark: the runner's per-IO latency and throughput against fio's `lat` on the same targets in
# one run: a file on tmpfs and a loop device (direct IO over a tmpfs-backed file), 4 KiB randread
# and randwrite at QD1 and QD32, O_DIRECT, both tools pinned to one core, interleaved rounds.
# fio runs with the runner's io_uring set-up (registered buffers and file), its offsets (uniform
# with replacement: --norandommap, where fio's default visits each block once per pass), its
# batching (every IO that can go is submitted in one call before waiting: --iodepth_batch_submit
# and --iodepth_batch_complete_max at the queue depth, where fio's default is one io_uring_enter
# per IO) and, for writes, fresh data in every IO (--refill_buffers), as the runner writes: the
# same work on both sides.
# Reports per cell the medians of: IOPS, p50/p99/p99.9 of `lat` (fio: lat_ns with
# lat_percentiles=1; runner: its phase histogram, HdrHistogram's percentile), mean latency x IOPS,
# the runner's effective queue depth and its Little's-law error, CPU seconds per million IOs
# (user + system of the process, getrusage through /usr/bin/time) -- and the ratios runner / fio.
# Above QD1 the two tools keep different numbers of IOs outstanding at one queue depth (fio refills
# a slot only after reaping, the runner while other IOs fly), and where a CPU sets the throughput
# latency follows the outstanding count (Little's law). So, with MATCH=1 (the default), each cell
# above QD1 also runs the runner at the queue depth nearest fio's lat x IOPS at the cell's depth
# (measured before the rounds by a CAL_RUNTIME-second fio run), and a third table compares the
# percentiles at equal outstanding IOs. (Not the other way round: fio's lat x IOPS is not monotonic
# in its iodepth here; on tmpfs randwrite 32 gives 26.5 and 34 gives 47.6, more than the depth,
# since its `lat` also counts IOs waiting inside fio to be submitted.)
# Context switches per IO (voluntary + involuntary, of the process and its threads, io_uring's
# worker among them) show how each tool shares the one core with the kernel's work: on a tmpfs file
# io_uring hands each IO to a worker thread of the process, pinned with it, and a tool woken as
# soon as one IO completes pre-empts that worker. SCHED=batch runs both tools under SCHED_BATCH
# (chrt -b 0: a woken task does not pre-empt the running one), which takes that scheduling out of
# the comparison.
# The loop device does its IO in a kworker of an unbound workqueue, which the scheduler places on
# either core: when it lands on the other one, each IO crosses cores twice and wakes an idle vCPU
# (this VM does not halt-poll), and a round's p50 jumps from ~11 to ~17 us, for either tool. With
# WQ_PIN=1 (the default) the script puts the unbound workqueues on the tools' core while it runs
# (/sys/devices/virtual/workqueue/cpumask, restored on exit, INT and TERM, not after SIGKILL: the
# first lines printed give the mask to write back), so the loop device's work shares that
# core as io_uring's worker does on tmpfs; WQ_PIN=0 leaves them where they are.
# KSPAN=1 checks each tool's `lat` against the kernel's own span of the same IOs: bpftrace (needed
# then) stamps every request at io_uring's submit_req tracepoint, inside the submitting call, and at
# its complete tracepoint, where the CQE is posted (with DEFER_TASKRUN, which both tools ask for, in
# the waiting call), and a fourth table gives per tool the percentiles of that span and how far the
# tool's `lat` lies above it. The probes cost each IO about a microsecond, the same for both tools, so
# that run's IOPS are not the tools' own: take the other tables from a run without KSPAN.
# Usage: bench/latency-vs-fio.sh   (env: RUNNER, CPU=1, RUNTIME=10, ROUNDS=3, SIZE=1G, TARGETS="tmpfs loop",
#        QDS="1 32", FIO_BATCH=qd: fio's submission batch, the queue depth; 1 is fio's default,
#        MATCH=1, CAL_RUNTIME=2, SCHED=other|batch, WQ_PIN=1, KSPAN=0)
# Needs root for the loop device; writes only the scratch files it makes.
source "$(dirname "$0")/common.sh"

SIZE="${SIZE:-1G}"
TARGETS="${TARGETS:-tmpfs loop}"
QDS="${QDS:-1 32}"
FIO_BATCH="${FIO_BATCH:-qd}"
RUNTIME="${RUNTIME:-5}"
MATCH="${MATCH:-1}"
CAL_RUNTIME="${CAL_RUNTIME:-2}"
SCHED="${SCHED:-other}"
case "$SCHED" in
other) sched=() ;;
batch) sched=(chrt -b 0) ;;
*) echo "SCHED is other or batch" >&2; exit 2 ;;
esac
WQ_PIN="${WQ_PIN:-1}"
KSPAN="${KSPAN:-0}"
if [ "$KSPAN" = 1 ] && ! command -v bpftrace >/dev/null; then
	echo "KSPAN=1 needs bpftrace (apt-get install bpftrace)" >&2
	exit 2
fi
wq_mask=/sys/devices/virtual/workqueue/cpumask
wq_saved=""
scratch=$(mktemp -d)
shm_file="/dev/shm/drivequal-bench-$$.img"
loop_file="/dev/shm/drivequal-bench-loop-$$.img"
loop=""
span_pid=""
cleanup() {
	[ -n "$span_pid" ] && kill "$span_pid" 2>/dev/null
	[ -n "$wq_saved" ] && echo "$wq_saved" >"$wq_mask"
	[ -n "$loop" ] && losetup -d "$loop"
	rm -f "$shm_file" "$loop_file"
	rm -rf "$scratch"
}
trap cleanup EXIT
# so that cleanup runs, and the workqueues' cpumask is restored
trap 'exit 130' INT
trap 'exit 143' TERM
case " $TARGETS " in
*" loop "*) ;;
*) WQ_PIN=0 ;; # only the loop device's work runs in a workqueue
esac
if [ "$WQ_PIN" = 1 ]; then
	wq_saved=$(cat "$wq_mask")
	printf '%x\n' $((1 << CPU)) >"$wq_mask" || {
		wq_saved=""
		echo "cannot write $wq_mask (root needed); WQ_PIN=0 runs without the pin" >&2
		exit 2
	}
fi

declare -A target_of
for target in $TARGETS; do
	case "$target" in
	tmpfs)
		fallocate -l "$SIZE" "$shm_file"
		target_of[tmpfs]="$shm_file"
		;;
	loop)
		fallocate -l "$SIZE" "$loop_file"
		loop=$(losetup -f --show --direct-io=on "$loop_file")
		target_of[loop]="$loop"
		;;
	esac
done
{
	echo '{"devices": ['
	sep=""
	for target in $TARGETS; do
		echo "$sep{\"transportAddress\": \"${target_of[$target]}\", \"allowSignatures\": true}"
		sep=","
	done
	echo ']}'
} >"$scratch/allow.json"

# The kernel's span of each IO of the process named COMM (at most 15 characters, as the kernel keeps
# it), in a linear histogram of 1000 buckets: 100 ns (up to 100 us) at QD1, 500 ns (up to 500 us)
# above. span_begin COMM DEPTH, the run, then span_end writes its percentiles and mean as JSON to
# $scratch/span.json ({} without KSPAN=1; not in a command substitution, whose subshell could not
# wait for bpftrace).
span_width=""
span_begin() {
	[ "$KSPAN" = 1 ] || return 0
	if [ "$2" -gt 1 ]; then span_width=500; else span_width=100; fi
	rm -f "$scratch/span.txt"
	# reads and writes only (READV 1, WRITEV 2, READ_FIXED 4, WRITE_FIXED 5, READ 22, WRITE 23):
	# not the runner's 100 ms timeout request
	bpftrace -e 'tracepoint:io_uring:io_uring_submit_req /comm == str($1) && (args->opcode == 1 ||
			args->opcode == 2 || args->opcode == 4 || args->opcode == 5 || args->opcode == 22 ||
			args->opcode == 23)/ { @s[args->req] = nsecs; }
		tracepoint:io_uring:io_uring_complete /@s[args->req]/ {
			@span = lhist((nsecs - @s[args->req]) / $2, 0, 1000, 1); delete(@s[args->req]); }' \
		"${1:0:15}" "$span_width" >"$scratch/span.txt" 2>&1 &
	span_pid=$!
	until grep -qs '^Attaching' "$scratch/span.txt"; do
		kill -0 "$span_pid" 2>/dev/null || { cat "$scratch/span.txt" >&2; exit 2; }
		sleep 0.2
	done
	sleep 1 # Attaching is printed before the probes are
}
span_end() {
	[ "$KSPAN" = 1 ] || { echo '{}' >"$scratch/span.json"; return 0; }
	# bpftrace prints its histogram on SIGINT; once, here, it went on waiting: ask again
	for _ in 1 2 3 4 5; do
		kill -INT "$span_pid" 2>/dev/null || break
		for _ in $(seq 20); do
			kill -0 "$span_pid" 2>/dev/null || break 2
			sleep 0.1
		done
	done
	wait "$span_pid" || true
	span_pid=""
	python3 - "$scratch/span.txt" "$span_width" >"$scratch/span.json" <<'PY'
import json, math, re, sys
width = int(sys.argv[2])
buckets = []  # (lower edge ns, count); the overflow bucket [1000, ...) counts at its lower edge
for line in open(sys.argv[1]):
    m = re.match(r"\[(\d+)(?:, \d+\)|, \.\.\.\))\s+(\d+)", line)
    if m:
        buckets.append((int(m.group(1)) * width, int(m.group(2))))
total = sum(c for _, c in buckets)
def pct(p):
    rank, seen = math.ceil(p / 100 * total), 0
    for low, count in buckets:
        seen += count
        if seen >= rank:
            return low + width / 2
print(json.dumps({"kspan_ios": total, "kp50": pct(50), "kp99": pct(99), "kp999": pct(99.9),
                  "kmean": sum((low + width / 2) * c for low, c in buckets) / total} if total else {}))
PY
}

# One fio run: prints a JSON line with its figures. fio_run TARGET RW QD [DEPTH TOOL [SECONDS]]:
# fio's iodepth DEPTH (default QD) for the cell QD, reported as TOOL (default fio).
fio_run() {
	local target="$1" rw="$2" qd="$3" depth="${4:-$3}" tool="${5:-fio}" runtime="${6:-$RUNTIME}"
	local out="$scratch/fio.json" cpu refill=() batch="$depth" span
	[ "$rw" = randwrite ] && refill=(--refill_buffers)
	[ "$FIO_BATCH" = qd ] || batch="$FIO_BATCH"
	span_begin fio "$depth"
	cpu=$( { /usr/bin/time -f "%U %S %w %c" taskset -c "$CPU" "${sched[@]}" fio --output-format=json \
		--name=bench --filename="${target_of[$target]}" --ioengine=io_uring --direct=1 \
		--fixedbufs=1 --registerfiles=1 --norandommap "${refill[@]}" \
		--rw="$rw" --bs=4k --iodepth="$depth" --iodepth_batch_submit="$batch" \
		--iodepth_batch_complete_max="$depth" --time_based --runtime="$runtime" \
		--lat_percentiles=1 >"$out"; } 2>&1 | tail -1)
	span_end
	span=$(cat "$scratch/span.json")
	python3 - "$out" "$target" "$rw" "$qd" "$cpu" "$depth" "$tool" "$span" <<'PY'
import json, sys
job = json.load(open(sys.argv[1]))["jobs"][0]
d = job["read" if "read" in sys.argv[3] else "write"]
lat = d["lat_ns"]
pct = lat["percentile"]
user, system, waits, preempted = map(float, sys.argv[5].split())
seconds = job["job_runtime"] / 1000.0
print(json.dumps({"tool": sys.argv[7], "target": sys.argv[2], "rw": sys.argv[3], "qd": int(sys.argv[4]),
                  "depth": int(sys.argv[6]), "ios": d["total_ios"], "seconds": seconds, "cpu": user + system,
                  "switches": waits + preempted,
                  "p50": pct["50.000000"], "p99": pct["99.000000"], "p999": pct["99.900000"],
                  "mean": lat["mean"], "effective": None, **json.loads(sys.argv[8])}))
PY
}

# One runner run (a timed phase of the same length): the same figures from its phase-completed.
# runner_run TARGET RW QD [DEPTH TOOL [SECONDS]]: the runner's iodepth DEPTH (default QD) for the
# cell QD, reported as TOOL (default runner).
runner_run() {
	local target="$1" rw="$2" qd="$3" depth="${4:-$3}" tool="${5:-runner}" runtime="${6:-$RUNTIME}"
	local out="$scratch/runner.jsonl" cpu span
	span_begin "$(basename "$RUNNER")" "$depth"
	cpu=$( { /usr/bin/time -f "%U %S %w %c" taskset -c "$CPU" "${sched[@]}" "$RUNNER" run --output-format json \
		--filename "${target_of[$target]}" --rw "$rw" --bs 4k --iodepth "$depth" \
		--runtime "$runtime" --allowlist "$scratch/allow.json" >"$out"; } 2>&1 | tail -1)
	span_end
	span=$(cat "$scratch/span.json")
	python3 - "$out" "$target" "$rw" "$qd" "$cpu" "$depth" "$tool" "$span" <<'PY'
import json, math, sys

def highest_equivalent(value):
    # HdrHistogram, 2 significant digits: sub-buckets of 256, a bucket's width doubles per octave
    bucket = max(0, (value | 255).bit_length() - 8)
    return value + (1 << bucket) - 1

def percentile(histogram, p):
    rank = max(1, math.ceil(p / 100 * histogram["totalCount"]))
    seen = 0
    for value, count in histogram["counts"]:
        seen += count
        if seen >= rank:
            return min(highest_equivalent(value), histogram["maxNs"])

for line in open(sys.argv[1]):
    m = json.loads(line)
    if m.get("type") == "phase-completed" and m["kind"] == "workload":
        d = m["read" if "read" in sys.argv[3] else "write"]
        h = d["latencyHistogram"]
        user, system, waits, preempted = map(float, sys.argv[5].split())
        print(json.dumps({"tool": sys.argv[7], "target": sys.argv[2], "rw": sys.argv[3],
                          "qd": int(sys.argv[4]), "depth": int(sys.argv[6]), "ios": d["ios"], "seconds": m["durationNs"] / 1e9,
                          "cpu": user + system, "switches": waits + preempted, "p50": percentile(h, 50), "p99": percentile(h, 99),
                          "p999": percentile(h, 99.9), "mean": d["meanLatencyNs"],
                          "effective": m["effectiveQueueDepthMilli"] / 1000, **json.loads(sys.argv[8])}))
PY
}

# Outstanding IOs (mean latency x IOPS) of one result line.
outstanding() {
	python3 -c 'import json, sys; r = json.loads(sys.argv[1]); print("%.3f" % (r["mean"] * 1e-9 * r["ios"] / r["seconds"]))' "$1"
}

# The runner's queue depth nearest fio's outstanding IOs at the cell's depth.
declare -A matched
calibrate() {
	local target="$1" rw="$2" qd="$3" got depth
	got=$(outstanding "$(fio_run "$target" "$rw" "$qd" "$qd" fio "$CAL_RUNTIME")")
	depth=$(python3 -c 'import sys; print(max(1, round(float(sys.argv[1]))))' "$got")
	matched["$target $rw $qd"]="$depth"
	echo "# fio's lat x IOPS at iodepth $qd, $target $rw: $got; the runner's matching queue depth: $depth"
}

echo "# $(uname -r), fio $(fio --version), 4KiB O_DIRECT, ${RUNTIME}s x ${ROUNDS} per tool and cell, taskset -c $CPU, fio batch $FIO_BATCH, scheduling policy $SCHED, $([ "$KSPAN" = 1 ] && echo "kernel span probes on (IOPS under probes)" || echo "no probes"), unbound workqueues on $([ "$WQ_PIN" = 1 ] && echo "CPU $CPU (cpumask $wq_saved until now: restored on exit)" || echo "cpumask $(cat "$wq_mask")")"
echo "# uptime at start: $(uptime)"
if [ "$MATCH" = 1 ]; then
	for target in $TARGETS; do
		for rw in randread randwrite; do
			for qd in $QDS; do
				if [ "$qd" -gt 1 ]; then
					calibrate "$target" "$rw" "$qd"
				fi
			done
		done
	done
fi
for round in $(seq "$ROUNDS"); do
	for target in $TARGETS; do
		for rw in randread randwrite; do
			for qd in $QDS; do
				# alternate which tool goes first, so neither always meets the same conditions
				if [ $((round % 2)) -eq 1 ]; then
					fio_run "$target" "$rw" "$qd"
					runner_run "$target" "$rw" "$qd"
				else
					runner_run "$target" "$rw" "$qd"
					fio_run "$target" "$rw" "$qd"
				fi
				if [ -n "${matched["$target $rw $qd"]:-}" ]; then
					runner_run "$target" "$rw" "$qd" "${matched["$target $rw $qd"]}" runner-matched
				fi
			done
		done
	done
done | tee "$scratch/rounds.jsonl" >&2
echo "# uptime at end: $(uptime)"
python3 - "$scratch/rounds.jsonl" <<'PY'
import json, statistics, sys
from collections import defaultdict

runs = defaultdict(list)
for line in open(sys.argv[1]):
    r = json.loads(line)
    runs[(r["target"], r["rw"], r["qd"], r["tool"])].append(r)

def med(rows, f):
    return statistics.median(f(r) for r in rows)

def cells():
    """Each cell both tools ran: target, rw, qd, fio's rounds, the runner's rounds."""
    for (target, rw, qd, tool) in sorted(runs):
        if tool == "fio" and (target, rw, qd, "runner") in runs:
            yield target, rw, qd, runs[(target, rw, qd, "fio")], runs[(target, rw, qd, "runner")]

print("| target | rw | QD | fio IOPS | runner IOPS | IOPS ratio | p50 ratio | p99 ratio | p99.9 ratio"
      " | fio lat x IOPS | runner effective QD | runner lat x IOPS | Little error | fio CPU us/IO"
      " | runner CPU us/IO | CPU/IO ratio | fio switches/IO | runner switches/IO |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
for target, rw, qd, f, r in cells():
    iops = lambda x: x["ios"] / x["seconds"]
    cpu = lambda x: x["cpu"] / x["ios"] * 1e6
    little = lambda x: x["mean"] * 1e-9 * x["ios"] / x["seconds"]
    error = lambda x: little(x) / x["effective"] - 1
    switches = lambda x: x["switches"] / x["ios"]
    print("| %s | %s | %d | %.0f | %.0f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %+.2f%% | %.2f | %.2f | %.3f | %.3f | %.3f |" % (
        target, rw, qd, med(f, iops), med(r, iops), med(r, iops) / med(f, iops),
        med(r, lambda x: x["p50"]) / med(f, lambda x: x["p50"]),
        med(r, lambda x: x["p99"]) / med(f, lambda x: x["p99"]),
        med(r, lambda x: x["p999"]) / med(f, lambda x: x["p999"]),
        med(f, little), med(r, lambda x: x["effective"]), med(r, little), 100 * med(r, error),
        med(f, cpu), med(r, cpu), med(r, cpu) / med(f, cpu), med(f, switches), med(r, switches)))
print()
print("| target | rw | QD | fio IOPS per round | runner IOPS per round | fio p50 us per round"
      " | runner p50 us per round |")
print("|---|---|---|---|---|---|---|")
for target, rw, qd, f, r in cells():
    rounds = lambda rows, g: " ".join(g(x) for x in rows)
    iops = lambda x: "%.0f" % (x["ios"] / x["seconds"])
    p50 = lambda x: "%.1f" % (x["p50"] / 1000)
    print("| %s | %s | %d | %s | %s | %s | %s |" % (target, rw, qd, rounds(f, iops),
          rounds(r, iops), rounds(f, p50), rounds(r, p50)))

spans = [(t, rw, qd) for t, rw, qd, f, r in cells() if "kp50" in f[0] and "kp50" in r[0]]
if spans:
    print()
    print("Each tool's lat against the kernel's span of the same IOs (io_uring's submit_req to complete"
          " tracepoints, bpftrace): us, medians of the rounds; IOPS under the probes.")
    print()
    print("| target | rw | QD | tool | IOPS | spans / IOs | lat p50 | span p50 | lat - span p50 | lat p99"
          " | span p99 | lat p99.9 | span p99.9 | lat mean | span mean | lat - span mean |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for t, rw, qd in spans:
        for tool in ("fio", "runner"):
            x = runs[(t, rw, qd, tool)]
            us = lambda k: med(x, lambda y: y[k]) / 1000
            gap = lambda a, b: med(x, lambda y: y[a] - y[b]) / 1000
            print("| %s | %s | %d | %s | %.0f | %.4f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |" % (
                t, rw, qd, tool, med(x, lambda y: y["ios"] / y["seconds"]),
                med(x, lambda y: y["kspan_ios"] / y["ios"]), us("p50"), us("kp50"),
                gap("p50", "kp50"), us("p99"), us("kp99"), us("p999"), us("kp999"), us("mean"), us("kmean"),
                gap("mean", "kmean")))

matched = [(t, rw, qd) for (t, rw, qd, tool) in sorted(runs) if tool == "runner-matched" and (t, rw, qd, "fio") in runs]
if matched:
    print()
    print("At equal outstanding IOs: fio at the cell's iodepth, the runner at the queue depth nearest fio's"
          " lat x IOPS there.")
    print()
    print("| target | rw | QD | runner QD | fio lat x IOPS | runner effective QD | fio IOPS | runner IOPS | IOPS ratio"
          " | p50 ratio | p99 ratio | p99.9 ratio | mean ratio |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for t, rw, qd in matched:
        f, r = runs[(t, rw, qd, "fio")], runs[(t, rw, qd, "runner-matched")]
        iops = lambda x: x["ios"] / x["seconds"]
        little = lambda x: x["mean"] * 1e-9 * x["ios"] / x["seconds"]
        ratio = lambda k: med(r, lambda x: x[k]) / med(f, lambda x: x[k])
        print("| %s | %s | %d | %d | %.3f | %.3f | %.0f | %.0f | %.3f | %.3f | %.3f | %.3f | %.3f |" % (
            t, rw, qd, r[0]["depth"], med(f, little), med(r, lambda x: x["effective"]), med(f, iops), med(r, iops),
            med(r, iops) / med(f, iops), ratio("p50"), ratio("p99"), ratio("p999"), ratio("mean")))
PY
