#!/usr/bin/env bash
# Benchmark (b): the uring engine against fio's io_uring engine on the same target (a loop device
# over a preallocated file, made here unless TARGET is given), 4 KiB random write at QD32,
# O_DIRECT, both pinned to one core, alternating rounds. Reports IOPS and CPU seconds per million
# IOs (user + system of the process, /usr/bin/time). Targets: >= 1.0x fio's IOPS at <= its CPU;
# and the runner's IOPS within 10% of fio's on the same device.
# Usage: bench/uring-vs-fio.sh   (env: TARGET, SIZE=2G, RUNNER, CPU=1, RUNTIME=10, ROUNDS=3)
# Needs root for the loop device; destroys TARGET's data.
source "$(dirname "$0")/common.sh"

SIZE="${SIZE:-2G}"
scratch=$(mktemp -d)
loop=""
cleanup() {
	[ -n "$loop" ] && losetup -d "$loop"
	rm -rf "$scratch"
}
trap cleanup EXIT
if [ -z "${TARGET:-}" ]; then
	backing="${BACKING_DIR:-/var/tmp}/drivequal-bench-$$.img"
	fallocate -l "$SIZE" "$backing"
	loop=$(losetup -f --show --direct-io=on "$backing")
	rm -f "$backing" # the loop device keeps it open
	TARGET="$loop"
fi
echo "{\"devices\": [{\"transportAddress\": \"$TARGET\"}]}" >"$scratch/allow.json"
echo "# $TARGET ($(uname -r)), 4KiB randwrite QD32 direct, ${RUNTIME}s x ${ROUNDS}, taskset -c $CPU"
common=(--filename="$TARGET" --ioengine=io_uring --direct=1 --rw=randwrite --bs=4k --iodepth=32
	--time_based --runtime="$RUNTIME" --name=bench)
for round in $(seq "$ROUNDS"); do
	measure_fio fio-io_uring "${common[@]}"
	measure_fio fio-io_uring-fixedbufs "${common[@]}" --fixedbufs --registerfiles
	measure_runner drivequal-uring --engine uring --filename "$TARGET" --rw randwrite --bs 4k \
		--iodepth 32 --runtime "$RUNTIME" --allowlist "$scratch/allow.json"
	measure_runner drivequal-uring-coop --engine uring --filename "$TARGET" --rw randwrite \
		--bs 4k --iodepth 32 --runtime "$RUNTIME" --allowlist "$scratch/allow.json" \
		--defer_taskrun=0
done | tee /dev/stderr | summarize
