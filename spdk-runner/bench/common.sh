# Helpers of the on-demand benchmarks (not run by ctest or CI): run fio and drivequal-runner the
# same way, pinned to one core, and read IOs, duration and CPU seconds from each.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
RUNNER="${RUNNER:-$HERE/../target/build/drivequal-runner}"
CPU="${CPU:-1}"
RUNTIME="${RUNTIME:-10}"
ROUNDS="${ROUNDS:-3}"
[ -x "$RUNNER" ] || { echo "build the runner first (mvn -B verify, or set RUNNER=)" >&2; exit 2; }
# A build tree configured by hand as Debug (-O0) makes the runner look slow: say so.
runner_cache="$(dirname "$RUNNER")/CMakeCache.txt"
if [ -f "$runner_cache" ] && grep -q '^CMAKE_BUILD_TYPE:STRING=Debug$' "$runner_cache"; then
	echo "warning: $RUNNER is a Debug build (-O0); Maven builds RelWithDebInfo (target/build) and Release (target/build-release)" >&2
fi
command -v fio >/dev/null || { echo "fio is not installed" >&2; exit 2; }
command -v python3 >/dev/null || { echo "python3 is needed to read fio's JSON" >&2; exit 2; }

# measure NAME COMMAND...: prints "NAME ios seconds cpu_seconds" (cpu = user + sys of the process)
measure_fio() {
	local name="$1" out cpu
	shift
	out=$(mktemp)
	cpu=$( { /usr/bin/time -f "%U %S" taskset -c "$CPU" fio --output-format=json "$@" >"$out"; } 2>&1 | tail -1)
	python3 - "$out" "$name" "$cpu" <<'PY'
import json, sys
job = json.load(open(sys.argv[1]))["jobs"][0]
ios = job["read"]["total_ios"] + job["write"]["total_ios"]
seconds = job["job_runtime"] / 1000.0
user, system = map(float, sys.argv[3].split())
print(sys.argv[2], ios, seconds, user + system)
PY
	rm -f "$out"
}

measure_runner() {
	local name="$1" out cpu
	shift
	out=$(mktemp)
	cpu=$( { /usr/bin/time -f "%U %S" taskset -c "$CPU" "$RUNNER" run --output-format json "$@" >"$out"; } 2>&1 | tail -1)
	python3 - "$out" "$name" "$cpu" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    message = json.loads(line)
    if message.get("type") == "phase-completed" and message["kind"] == "workload":
        ios = message["read"]["ios"] + message["write"]["ios"]
        seconds = message["durationNs"] / 1e9
user, system = map(float, sys.argv[3].split())
print(sys.argv[2], ios, seconds, user + system)
PY
	rm -f "$out"
}

# summarize: reads "name ios seconds cpu" lines; prints per-tool medians and ratios vs the first.
summarize() {
	python3 -c '
import sys, statistics
rows = {}
order = []
for line in sys.stdin:
    name, ios, seconds, cpu = line.split()
    if name not in rows:
        rows[name] = []
        order.append(name)
    rows[name].append((int(ios), float(seconds), float(cpu)))
print("| tool | rounds | IOPS (median) | IOPS per round | CPU s per million IOs (median) |")
print("|---|---|---|---|---|")
median = {}
for name in order:
    iops = [ios / s for ios, s, c in rows[name]]
    cpu = [c / ios * 1e6 for ios, s, c in rows[name]]
    median[name] = (statistics.median(iops), statistics.median(cpu))
    print("| %s | %d | %.0f | %s | %.3f |" % (name, len(iops), median[name][0],
          " ".join("%.0f" % x for x in iops), median[name][1]))
for name in order[1:]:
    for base in order:
        if base.startswith("fio"):
            print("- %s / %s: IOPS x%.2f, CPU per IO x%.2f" % (name, base,
                  median[name][0] / median[base][0], median[name][1] / median[base][1]))
'
}
