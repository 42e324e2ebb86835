#!/usr/bin/env bash
# The known-truth matrix's table: judges the drives that spdk-runner/sim/bench/truth-matrix.sh ran
# (one CSV each) with the steady-state rule, prints every cell against its truth, the totals and the
# 2-hour checks' one-line answers, and with EXPORT_DIR writes the CI subset's round fixtures.
#
#   service/analysis/bench/truth-matrix.sh DIR [EXPORT_DIR]     (exit 1 when a figure, or a window
#   where a run to steady state would stop, lies more than 10 % from the truth)
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: $0 DIR [EXPORT_DIR]" >&2; exit 2; }
args=()
for arg in "$@"; do
	args+=("$(realpath -m "$arg")")
done
cd "$(dirname "$0")/.."
mvn -B -q test-compile dependency:build-classpath -Dmdep.outputFile=target/truth-matrix.classpath >/dev/null
exec java -cp "target/classes:target/test-classes:$(cat target/truth-matrix.classpath)" \
	io.drivequal.analysis.TruthMatrix "${args[@]}"
