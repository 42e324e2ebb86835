#!/usr/bin/env bash
# The runner's open loop against fio's on the same job: 4 KiB random reads at a set rate
# (Poisson arrivals, fio's --rate_iops with --rate_process=poisson), QD16, io_uring, on a tmpfs
# file and (as root) on a loop device backed by a tmpfs file. Prints achieved IOPS and service
# time (fio's lat) percentiles side by side. Not in ctest: results go to docs/benchmarks.md.
#   bench/streams-vs-fio.sh [RATE_IOPS] [SECONDS]
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
RUNNER="${RUNNER:-$HERE/../target/build/drivequal-runner}"
RATE="${1:-20000}"
SECONDS_RUN="${2:-20}"
WORK=$(mktemp -d /tmp/dq-streams-fio.XXXXXX)
LOOP=""
cleanup() {
	[ -n "$LOOP" ] && losetup -d "$LOOP" 2>/dev/null || true
	umount "$WORK/tmpfs" 2>/dev/null || true
	rm -rf "$WORK"
}
trap cleanup EXIT
mkdir -p "$WORK/tmpfs"
if [ "$(id -u)" -eq 0 ]; then
	mount -t tmpfs -o size=1200m dq-bench "$WORK/tmpfs"
fi
FILE="$WORK/tmpfs/data.img"
head -c 1G /dev/urandom >"$FILE"

runner_row() { # TARGET DIRECT LABEL
	"$RUNNER" run --engine uring --filename "$1" --direct="$2" --runtime "$SECONDS_RUN" --seed 1 \
		--output-format json \
		--stream "name=reads,rw=randread,bs=4k,iodepth=16,rate_iops=$RATE,rate_process=poisson" \
		>"$WORK/runner.jsonl"
	python3 - "$WORK/runner.jsonl" "$3" "$SECONDS_RUN" <<'PY'
import json, math, sys
done = next(json.loads(l) for l in open(sys.argv[1]) if '"phase-completed"' in l)
s = done["streams"][0]; r = s["read"]; h = r["latencyHistogram"]
def at(h, p):
    rank = max(1, math.ceil(p / 100 * h["totalCount"])); seen = 0
    for v, c in h["counts"]:
        seen += c
        if seen >= rank: return v
pct = [at(h, p) / 1000 for p in (50, 99, 99.9, 99.99)]
print(f"| {sys.argv[2]} | drivequal-runner | {r['ios'] / int(sys.argv[3]):.0f} | "
      + " | ".join(f"{v:.1f}" for v in pct) + f" | {h['maxNs'] / 1000:.1f} |")
PY
}

fio_row() { # TARGET DIRECT LABEL
	fio --name=reads --filename="$1" --ioengine=io_uring --direct="$2" --rw=randread --bs=4k \
		--iodepth=16 --rate_iops="$RATE" --rate_process=poisson --time_based \
		--runtime="$SECONDS_RUN" --size=1g --lat_percentiles=1 \
		--percentile_list=50:99:99.9:99.99 --randrepeat=0 --norandommap \
		--output-format=json >"$WORK/fio.json"
	python3 - "$WORK/fio.json" "$3" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]["read"]
p = j["lat_ns"]["percentile"]
vals = [p[k] / 1000 for k in ("50.000000", "99.000000", "99.900000", "99.990000")]
print(f"| {sys.argv[2]} | fio {__import__('subprocess').run(['fio','--version'],capture_output=True,text=True).stdout.strip()} | {j['iops']:.0f} | "
      + " | ".join(f"{v:.1f}" for v in vals) + f" | {j['lat_ns']['max'] / 1000:.1f} |")
PY
}

echo "| target | tool | achieved IOPS (offered $RATE) | p50 us | p99 us | p99.9 us | p99.99 us | max us |"
echo "|---|---|---|---|---|---|---|---|"
runner_row "$FILE" 0 "tmpfs file (buffered)"
fio_row "$FILE" 0 "tmpfs file (buffered)"
if [ "$(id -u)" -eq 0 ]; then
	LOOP=$(losetup -f --show "$FILE")
	runner_row "$LOOP" 1 "loop device (O_DIRECT)"
	fio_row "$LOOP" 1 "loop device (O_DIRECT)"
fi
