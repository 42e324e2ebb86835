#!/usr/bin/env bash
# The full table of write amplification with Flexible Data Placement and without, on the simulated
# drive, against the analytic models (bench/sim_fdp_waf.c states them): four spare levels, two
# hot/cold skews, an 8 GB drive (ctest's sim.fdp_waf runs 2 GB at 7 % and 28 % spare). Fails if a
# run misses its model by more than CHECK_PCT (default 3) %.
#
#   fdp-waf.sh [SIM_FDP_WAF]     env: USER_BYTES (8000000000), CHECK_PCT (3), SKEWS ("0.9:0.1 0.8:0.2")
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bin="${1:-$here/../../target/build/sim/sim_fdp_waf}"
[ -x "$bin" ] || { echo "fdp-waf: no sim_fdp_waf at $bin (build the runner, or pass its path)" >&2; exit 2; }
failed=0
for skew in ${SKEWS:-0.9:0.1 0.8:0.2}; do
	"$bin" --user-bytes "${USER_BYTES:-8000000000}" --hot-writes "${skew%%:*}" --hot-lba "${skew##*:}" \
		--spare-pct 7 --spare-pct 14 --spare-pct 28 --spare-pct 50 \
		--check-pct "${CHECK_PCT:-3}" || failed=1
done
exit "$failed"
