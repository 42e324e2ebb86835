#!/usr/bin/env bash
# Runs inside the guest (guest.sh boots it): waits for the emulated NVMe namespace, then runs each
# case script of cases/ that cases.txt names, in file order, one after the other, and appends one
# JSON line per case to results.jsonl: {"case", "status" (pass|fail|skip), "seconds", "message",
# "figures"}. A case's output goes to CASE.log. Everything written outside OUT is discarded at
# shutdown, so results must land there.
set -uo pipefail

OUT=${1:?results directory}
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=/dev/null
source "$OUT/guest.env"

log() { echo "inguest: $*"; }

# shellcheck source=drive.sh
source "$here/drive.sh"
wait_for_drive || log "the cases will fail"
log "kernel $(uname -r), $(nproc) CPUs; /dev/nvme0n1 $(cat /sys/block/nvme0n1/size 2>/dev/null) sectors"

: >"$OUT/results.jsonl"
while read -r wanted; do
	[ -n "$wanted" ] || continue
	script=$(ls "$here"/cases/[0-9][0-9]-"$wanted".sh 2>/dev/null | head -1)
	figures="$OUT/$wanted.figures"
	: >"$figures"
	log "case $wanted"
	started=$(date +%s.%N)
	OUT=$OUT CASE_NAME=$wanted CASE_FIGURES=$figures bash "$script" >"$OUT/$wanted.log" 2>&1
	status=$?
	seconds=$(awk -v now="$(date +%s.%N)" -v then="$started" 'BEGIN { printf "%.1f", now - then }')
	case $status in
	0) verdict=pass ;;
	77) verdict=skip ;;
	*) verdict=fail ;;
	esac
	message=$(grep -E '^(ok|FAIL|SKIP)' "$OUT/$wanted.log" | tail -1)
	[ -n "$message" ] || message="exit $status: $(grep -v '^[[:space:]]*$' "$OUT/$wanted.log" | tail -1)"
	jq -c -n --arg case "$wanted" --arg status "$verdict" --argjson seconds "$seconds" \
		--arg message "$message" --slurpfile figures "$figures" \
		'{case: $case, status: $status, seconds: $seconds, message: $message,
		  figures: ($figures | add // {})}' >>"$OUT/results.jsonl" ||
		echo "{\"case\":\"$wanted\",\"status\":\"fail\",\"seconds\":$seconds,\"message\":\"unreadable figures\",\"figures\":{}}" >>"$OUT/results.jsonl"
	log "case $wanted: $verdict in $seconds s: $message"
done <"$OUT/cases.txt"
sync
