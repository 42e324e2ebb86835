#!/usr/bin/env bash
# Benchmark: what health polling costs the IO it watches (on demand; not in ctest or CI).
#  - the sim engine (virtual clock, polls between seconds of simulated time): the same 4 KiB
#    random write with polling off, every 10 s and every second: the samples must be identical,
#    and the wall and CPU time per run show what the polls cost the simulation;
#  - with DEVICE=/dev/nvmeXnY, the uring engine on a real NVMe namespace (polls on their own
#    thread through the passthrough ioctl): 4 KiB random reads at QD32, polling off and every
#    second, rounds alternated; IOPS medians and their ratio.
# Usage: bench/health-poll.sh   (env: RUNNER, PROFILE=test-thermal-throttle, SIM_S=600, ROUNDS=3,
#                                DEVICE, RUNTIME=20)
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
RUNNER="${RUNNER:-$HERE/../target/build/drivequal-runner}"
PROFILE="${PROFILE:-test-thermal-throttle}"
SIM_S="${SIM_S:-600}"
ROUNDS="${ROUNDS:-3}"
RUNTIME="${RUNTIME:-20}"
[ -x "$RUNNER" ] || { echo "build the runner first (mvn -B verify, or set RUNNER=)" >&2; exit 2; }
command -v python3 >/dev/null || { echo "python3 is needed to read the runner's JSON" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# run NAME INTERVAL ARGS...: prints "NAME interval ios seconds wall cpu health samples-digest"
run() {
	local name=$1 interval=$2 out="$work/run.jsonl" times
	shift 2
	times=$( { /usr/bin/time -f "%e %U %S" "$RUNNER" run --output-format json \
		--health-poll-interval "$interval" "$@" >"$out"; } 2>&1 | tail -1)
	python3 - "$out" "$name" "$interval" "$times" <<'PY'
import hashlib, json, sys
digest, ios, seconds, health = hashlib.sha256(), 0, 0.0, 0
for line in open(sys.argv[1]):
    message = json.loads(line)
    if "type" not in message:  # a sample: its figures, not its wall-clock stamp
        message.pop("timeMs")
        message.pop("jobId")
        digest.update(json.dumps(message, sort_keys=True).encode())
    elif message["type"] == "health":
        health += 1
    elif message["type"] == "phase-completed" and message["kind"] == "workload":
        ios = message["read"]["ios"] + message["write"]["ios"]
        seconds = message["durationNs"] / 1e9
wall, user, system = map(float, sys.argv[4].split())
print(sys.argv[2], sys.argv[3], ios, seconds, wall, user + system, health, digest.hexdigest()[:16])
PY
}

summarize() {
	python3 -c '
import sys, statistics
rows = {}
for line in sys.stdin:
    name, interval, ios, seconds, wall, cpu, health, digest = line.split()
    rows.setdefault((name, int(interval)), []).append((int(ios) / float(seconds), float(wall), float(cpu), int(health), digest))
print("| engine | health poll | rounds | IOPS (median) | wall s (median) | CPU s (median) | health readings | samples digest |")
print("|---|---|---|---|---|---|---|---|")
base = {}
for (name, interval), runs in rows.items():
    iops = statistics.median(r[0] for r in runs)
    wall = statistics.median(r[1] for r in runs)
    cpu = statistics.median(r[2] for r in runs)
    digests = sorted({r[4] for r in runs})
    print("| %s | %s | %d | %.0f | %.2f | %.2f | %d | %s |" % (name, "off" if interval == 0 else "every %d s" % interval,
          len(runs), iops, wall, cpu, runs[0][3], " ".join(digests)))
    if interval == 0:
        base[name] = (iops, wall, cpu, digests)
for (name, interval), runs in rows.items():
    if interval and name in base:
        iops = statistics.median(r[0] for r in runs)
        wall = statistics.median(r[1] for r in runs)
        cpu = statistics.median(r[2] for r in runs)
        same = sorted({r[4] for r in runs}) == base[name][3]
        print("- %s, every %d s / off: IOPS x%.4f, wall x%.3f, CPU x%.3f%s" % (name, interval,
              iops / base[name][0], wall / base[name][1], cpu / base[name][2],
              ", samples identical" if same and name == "sim" else ""))
'
}

{
	echo "# sim:$PROFILE, 4KiB randwrite QD32, ${SIM_S} simulated s x ${ROUNDS} (seed 1)" >&2
	for round in $(seq "$ROUNDS"); do
		for interval in 0 10 1; do
			run sim "$interval" --engine sim --filename "sim:$PROFILE" --rw randwrite --bs 4k \
				--iodepth 32 --runtime "$SIM_S" --seed 1 --job-id bench --runner-id bench
		done
	done
	if [ -n "${DEVICE:-}" ]; then
		echo "# uring $DEVICE, 4KiB randread QD32, ${RUNTIME}s x ${ROUNDS}" >&2
		for round in $(seq "$ROUNDS"); do
			for interval in 0 1; do
				run uring "$interval" --engine uring --filename "$DEVICE" --rw randread --bs 4k \
					--iodepth 32 --runtime "$RUNTIME"
			done
		done
	fi
} | tee /dev/stderr | summarize
