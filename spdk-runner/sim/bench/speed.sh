#!/usr/bin/env bash
# How fast the simulated drive runs each shipped profile (simulated seconds per CPU second, the
# median of RUNS runs), and proof that a faster model is the same drive: every run's digest must
# equal the one recorded in speed-digests.txt for its arguments, or the script fails.
#
#   speed.sh [BENCH_SIM]
#     RUNS=3          runs per line (the median is reported; 1 is enough to check digests)
#     MATCH=REGEX     the lines of speed-digests.txt to run (default: the 2000 s test and the
#                     7200 s check of every profile; MATCH=. runs every line, other seeds and
#                     ranges too)
#
# Per CPU second, not per wall second: the CPU time is the model's own cost, wall time also
# counts whatever else the machine runs.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bin="${1:-$here/../../target/build/sim/bench_sim}"
runs="${RUNS:-3}"
match="${MATCH:---seconds (2000|7200) \|}"
[ -x "$bin" ] || { echo "speed: no bench_sim at $bin (build the runner, or pass its path)" >&2; exit 2; }

failed=0
printf '%-26s %-34s %6s  %-28s %s\n' profile arguments runs "overall x (min..max)" digest
while IFS='|' read -r args digest; do
	args="${args% }"
	digest="${digest# }"
	speeds=()
	verdict=same
	for ((r = 0; r < runs; r++)); do
		# shellcheck disable=SC2086 # the arguments are words
		out="$("$bin" --profile $args)"
		speeds+=("$(sed -n 's/^speed (simulated s \/ CPU s):.*overall=\([0-9]*\)x.*/\1/p' <<<"$out")")
		got="$(sed -n 's/^digest=\([0-9a-f]*\).*/\1/p' <<<"$out")"
		if [ "$got" != "$digest" ]; then
			verdict="DIFFERENT: $got, recorded $digest"
			failed=1
		fi
	done
	sorted=($(printf '%s\n' "${speeds[@]}" | sort -n))
	printf '%-26s %-34s %6s  %-28s %s\n' "${args%% *}" "${args#* }" "$runs" \
		"${sorted[$(((runs - 1) / 2))]}x (${sorted[0]}..${sorted[$((runs - 1))]})" "$verdict"
done < <(grep -v '^#' "$here/speed-digests.txt" | grep -E -- "$match")
exit "$failed"
