#!/usr/bin/env bash
# Benchmark (a): the runner's core on the null engine against fio's null engine, 4 KiB random
# write at QD32, both pinned to one core for the same time. Target: >= 2.0x fio's IOPS.
# Usage: bench/null-vs-fio.sh   (env: RUNNER, CPU=1, RUNTIME=10, ROUNDS=3)
source "$(dirname "$0")/common.sh"

echo "# null engine, 4KiB randwrite QD32, ${RUNTIME}s x ${ROUNDS}, taskset -c $CPU"
for round in $(seq "$ROUNDS"); do
	measure_fio fio-null --name=null --ioengine=null --rw=randwrite --bs=4k --iodepth=32 \
		--size=1T --time_based --runtime="$RUNTIME"
	measure_runner drivequal-null --engine null --filename null:1t --rw randwrite --bs 4k \
		--iodepth 32 --runtime "$RUNTIME"
done | tee /dev/stderr | summarize
