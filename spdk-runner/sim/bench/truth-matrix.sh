#!/usr/bin/env bash
# The known-truth matrix's drives: each cell is one simulated drive run by sim_truth from its fill
# to 5 x the tested range of random writes (and at least 7200 s), one CSV per cell. The steady-state
# rule is then judged on prefixes of each run (the 2000 s test, the 2-hour check, adaptive rounds)
# by the analysis library's TruthMatrix (service/analysis), against the mean after 4 x the range.
#
#   truth-matrix.sh OUT_DIR [CELL...]      (no CELL: every cell below)
#
# Drives of 3.84 TB and more are time-scaled equivalents: 1/16 (1/32, 1/64) of the user capacity
# and of the dies of a 128-die drive, so the superblock count, the drive writes per second and so the
# curve's shape on the time axis are those of the full-size drive, and its IOPS are 1/16 (1/32,
# 1/64) of it. Their thermal model is off (it does not scale).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="${1:?usage: truth-matrix.sh OUT_DIR [CELL...]}"
shift
bin="${SIM_TRUTH:-$here/../../target/build/sim/sim_truth}"
[ -x "$bin" ] || { echo "truth-matrix: no sim_truth at $bin (build the runner, or set SIM_TRUTH)" >&2; exit 2; }
mkdir -p "$out"

# name | sim_truth arguments
cells=(
	"ee-256g-28|--profile enterprise-eager"
	"ee-256g-28-r75|--profile enterprise-eager --range 0.75"
	"dc-256g-45|--profile datacenter-high-op"
	"dc-256g-45-r75|--profile datacenter-high-op --range 0.75"
	"ee-256g-7|--profile enterprise-eager --spare-pct 7"
	"client-256g-7|--profile client-7pct"
	"client-256g-7-r75|--profile client-7pct --range 0.75"
	"client-256g-28|--profile client-7pct --spare-pct 28"
	"ee-1t-28|--profile enterprise-eager --user-bytes 1024000000000 --channels 16 --dies-per-channel 4 --no-thermal"
	"ee-3.84t-28|--profile enterprise-eager --user-bytes 240000000000 --channels 4 --dies-per-channel 2 --no-thermal"
	"ee-3.84t-28-r75|--profile enterprise-eager --user-bytes 240000000000 --channels 4 --dies-per-channel 2 --no-thermal --range 0.75"
	"ee-3.84t-7|--profile enterprise-eager --user-bytes 240000000000 --channels 4 --dies-per-channel 2 --no-thermal --spare-pct 7"
	"dc-3.84t-45|--profile datacenter-high-op --user-bytes 240000000000 --channels 4 --dies-per-channel 2 --no-thermal"
	"client-3.84t-7|--profile client-7pct --user-bytes 240000000000 --channels 2 --dies-per-channel 1 --no-thermal"
	"ee-7.68t-28|--profile enterprise-eager --user-bytes 240000000000 --channels 2 --dies-per-channel 2 --no-thermal"
	"dc-7.68t-45|--profile datacenter-high-op --user-bytes 240000000000 --channels 2 --dies-per-channel 2 --no-thermal"
	"ee-15.36t-28|--profile enterprise-eager --user-bytes 240000000000 --channels 2 --dies-per-channel 1 --no-thermal"
	"dc-15.36t-45|--profile datacenter-high-op --user-bytes 240000000000 --channels 2 --dies-per-channel 1 --no-thermal"
	"ee-30.72t-28|--profile enterprise-eager --user-bytes 240000000000 --channels 1 --dies-per-channel 1 --no-thermal"
)
# Full size, on request only (7.5 GiB of memory): the 3.84 TB drive itself with 128 dies and its
# thermal model on, which throttles.
full_size=(
	"ee-3.84t-28-full-thermal|--profile enterprise-eager --user-bytes 3840000000000 --channels 32 --dies-per-channel 4"
)
if [ "${FULL_SIZE:-0}" = 1 ]; then
	cells+=("${full_size[@]}")
fi

want=("$@")
for cell in "${cells[@]}"; do
	name="${cell%%|*}"
	args="${cell#*|}"
	if [ ${#want[@]} -gt 0 ] && [[ " ${want[*]} " != *" $name "* ]]; then
		continue
	fi
	start=$(date +%s)
	# shellcheck disable=SC2086 # the arguments are words
	"$bin" $args > "$out/$name.csv.tmp"
	mv "$out/$name.csv.tmp" "$out/$name.csv"
	echo "truth-matrix: $name $(( $(date +%s) - start )) s, $(grep -vc '^[#t]' "$out/$name.csv") seconds"
done
