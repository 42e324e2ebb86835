#!/usr/bin/env bash
# The firmware-regression check on the simulator: two "firmwares" of one model that differ in one
# parameter (test-enterprise-eager and test-enterprise-eager-fw2: NAND program time 2000 vs 2400 us).
# Runs each simulated drive once with sim_truth (purge, 128 KiB fill, 4 KiB random write QD32), then
# the analysis library's FirmwareRegression forms the comparisons from those runs:
#   truth   8 seeds per profile run on to 5 x the range; truth = mean IOPS after 4 x the range
#   jobs    160 seeds of the baseline, 80 of the candidate, each a 600 s random-write phase whose
#           last five 60 s rounds are what the campaign comparison reads
#   A/A     20 repeats, each 4 baseline samples against 4 other baseline samples (disjoint seeds)
#   A/B     20 repeats, each 4 baseline samples against 4 candidate samples (disjoint seeds)
# Every run is used in one comparison only, so the 20 repeats are independent.
#
#   service/analysis/bench/firmware-regression.sh OUT_DIR     (exit 1 when fewer than 19 of 20 A/A
#   repeats report no regression at 95 %, or fewer than 19 of 20 A/B intervals hold the truth)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="$(realpath -m "${1:?usage: firmware-regression.sh OUT_DIR}")"
bin="${SIM_TRUTH:-$here/../../../spdk-runner/target/build/sim/sim_truth}"
[ -x "$bin" ] || { echo "firmware-regression: no sim_truth at $bin (build the runner, or set SIM_TRUTH)" >&2; exit 2; }
baseline=test-enterprise-eager
candidate=test-enterprise-eager-fw2
mkdir -p "$out/truth" "$out/jobs"
run() { # file args...: reuses a finished run
	local file="$1"
	shift
	[ -s "$file" ] || { "$bin" "$@" >"$file.tmp" && mv "$file.tmp" "$file"; }
}
for seed in $(seq 1 8); do
	run "$out/truth/$baseline@$seed.csv" --profile "$baseline" --seed "$seed" --drive-writes 5 --min-seconds 0
	run "$out/truth/$candidate@$seed.csv" --profile "$candidate" --seed "$seed" --drive-writes 5 --min-seconds 0
done
for seed in $(seq 101 260); do
	run "$out/jobs/$baseline@$seed.csv" --profile "$baseline" --seed "$seed" --drive-writes 0.01 --min-seconds 600
done
for seed in $(seq 301 380); do
	run "$out/jobs/$candidate@$seed.csv" --profile "$candidate" --seed "$seed" --drive-writes 0.01 --min-seconds 600
done
cd "$here/.."
mvn -B -q -o test-compile dependency:build-classpath -Dmdep.outputFile=target/firmware-regression.classpath >/dev/null
exec java -cp "target/classes:target/test-classes:$(cat target/firmware-regression.classpath)" \
	io.drivequal.analysis.FirmwareRegression "$out" "$baseline" "$candidate"
