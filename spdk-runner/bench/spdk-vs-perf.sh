#!/usr/bin/env bash
# Benchmark (c): the runner's spdk engine against SPDK's own spdk_nvme_perf on the same NVMe-oF
# target, same workload (4 KiB random write, QD32, one qpair), both pinned to the same core,
# interleaved rounds (the order alternates). Reports IOPS and p50/p99/p99.9 latency of each
# (perf's from -L software latency tracking, the runner's from its phase histogram; both time an
# IO on the TSC from submission to its completion callback), the IOPS ratio (target >= 0.95x), and
# IOs per CPU second of each process (user + system, /usr/bin/time): both poll, so on a shared
# machine that is the steadier figure of what each costs.
# Expects an installed SPDK and a running target (bench/spdk-target.sh start); builds nothing.
# Usage: SPDK_PERF=/path/to/spdk_nvme_perf bench/spdk-vs-perf.sh
#   env: TRID (default: spdk-target.sh's), RUNNER, CPU=1, RUNTIME=30, ROUNDS=3, MEM_MB=512,
#        NO_HUGE=1 (runner: --spdk_no_huge; perf: SPDK_PERF_ENV_CONTEXT, see docs/spdk.md), PERF_ARGS,
#        DATA_PATTERN=zeros (the runner's --data-pattern: spdk_nvme_perf writes its buffers as they
#        are, never refilling them, so the like-for-like runner writes fixed buffers too; `random`
#        adds the fresh incompressible data per IO that drivequal's qualifications write)
# Destroys the target namespace's data.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
RUNNER="${RUNNER:-$HERE/../target/build/drivequal-runner}"
SPDK_PERF="${SPDK_PERF:?set SPDK_PERF to an installed spdk_nvme_perf}"
TRID="${TRID:-trtype:TCP adrfam:IPv4 traddr:127.0.0.1 trsvcid:4420 subnqn:nqn.2016-06.io.drivequal:bench}"
CPU="${CPU:-1}"
RUNTIME="${RUNTIME:-30}"
ROUNDS="${ROUNDS:-3}"
MEM_MB="${MEM_MB:-512}"
NO_HUGE="${NO_HUGE:-1}"
DATA_PATTERN="${DATA_PATTERN:-zeros}"
[ -x "$RUNNER" ] || { echo "build the runner with SPDK first (or set RUNNER=)" >&2; exit 2; }
[ -x "$SPDK_PERF" ] || { echo "SPDK_PERF=$SPDK_PERF is not executable" >&2; exit 2; }

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
echo "{\"devices\": [{\"transportAddress\": \"$TRID\"}]}" >"$scratch/allow.json"
engine_args=(--engine spdk --spdk_mem_mb="$MEM_MB" --spdk_no_pci=1)
[ "$NO_HUGE" = 1 ] && engine_args+=(--spdk_no_huge=1)

# Each prints "NAME IOPS P50_US P99_US P999_US IOS_PER_CPU_S".
run_perf() {
	# shellcheck disable=SC2086 # PERF_ARGS is a word list
	/usr/bin/time -f "%U %S" -o "$scratch/cpu" "$SPDK_PERF" -c "$(printf '0x%x' $((1 << CPU)))" \
		-q 32 -o 4096 -w randwrite -t "$RUNTIME" -s "$MEM_MB" -L -r "$TRID" ${PERF_ARGS:-} \
		2>/dev/null >"$scratch/perf.txt"
	python3 - "$scratch/perf.txt" "$RUNTIME" "$(tail -1 "$scratch/cpu")" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
cpu = sum(map(float, sys.argv[3].split()))
iops = float(re.search(r"^Total\s*:\s*([\d.]+)", text, re.M).group(1))
pct = {float(p): float(v) for p, v in re.findall(r"^\s*([\d.]+)%\s*:\s*([\d.]+)us", text, re.M)}
print("spdk_nvme_perf %.0f %.1f %.1f %.1f %.0f" % (iops, pct[50.0], pct[99.0], pct[99.9],
      iops * float(sys.argv[2]) / cpu))
PY
}

run_runner() {
	/usr/bin/time -f "%U %S" -o "$scratch/cpu" taskset -c "$CPU" "$RUNNER" run \
		--output-format json "${engine_args[@]}" --filename "$TRID" --rw randwrite --bs 4k --iodepth 32 --runtime "$RUNTIME" \
		--data-pattern "$DATA_PATTERN" --allowlist "$scratch/allow.json" 2>/dev/null >"$scratch/runner.jsonl"
	python3 - "$scratch/runner.jsonl" "$(tail -1 "$scratch/cpu")" <<'PY'
import json, math, sys
cpu = sum(map(float, sys.argv[2].split()))
for line in open(sys.argv[1]):
    m = json.loads(line)
    if m.get("type") == "phase-completed" and m["kind"] == "workload":
        w = m["write"]
        hist = w["latencyHistogram"]
        iops = w["ios"] / (m["durationNs"] / 1e9)
        ios = w["ios"]
def pct(p):  # nearest rank over the histogram's buckets
    rank, seen = max(1, math.ceil(p / 100 * hist["totalCount"])), 0
    for value, count in hist["counts"]:
        seen += count
        if seen >= rank:
            return value / 1000
print("drivequal-spdk %.0f %.1f %.1f %.1f %.0f" % (iops, pct(50), pct(99), pct(99.9), ios / cpu))
PY
}

echo "# $TRID, 4KiB randwrite QD32, runner data pattern $DATA_PATTERN, ${RUNTIME}s x ${ROUNDS}, core $CPU, load $(cut -d' ' -f1-3 /proc/loadavg)"
for round in $(seq "$ROUNDS"); do
	if [ $((round % 2)) = 1 ]; then
		run_perf
		run_runner
	else
		run_runner
		run_perf
	fi
done | tee /dev/stderr | python3 -c '
import statistics, sys
rows, order = {}, []
for line in sys.stdin:
    name, *values = line.split()
    if name not in rows:
        rows[name] = []
        order.append(name)
    rows[name].append([float(v) for v in values])
print("| tool | rounds | IOPS (median) | IOPS per round | p50 us | p99 us | p99.9 us | IOs per CPU s |")
print("|---|---|---|---|---|---|---|---|")
med = {}
for name in order:
    cols = list(zip(*rows[name]))
    med[name] = [statistics.median(c) for c in cols]
    print("| %s | %d | %.0f | %s | %.1f | %.1f | %.1f | %.0f |" % (name, len(cols[0]),
          med[name][0], " ".join("%.0f" % x for x in cols[0]), med[name][1], med[name][2],
          med[name][3], med[name][4]))
if len(order) == 2:
    pairs = [b[0] / a[0] for a, b in zip(rows[order[0]], rows[order[1]])]
    print("- IOPS ratio %s / %s: %.3fx of the medians, %.3fx the median of per-round ratios "
          "(target >= 0.95x); IOs per CPU second: %.3fx" % (order[1], order[0],
          med[order[1]][0] / med[order[0]][0], statistics.median(pairs),
          med[order[1]][4] / med[order[0]][4]))
'
