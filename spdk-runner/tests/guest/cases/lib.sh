# Helpers of the guest cases (sourced by each cases/NN-name.sh inside the guest): the real-IO
# tests' helpers (fail, skip, checksum, allowlists, run_json, expect_refused: tests/realio/lib.sh),
# plus job files, events, figures for results.jsonl, what the drive holds, and the SMART/OCP
# arithmetic the write cases share.

# shellcheck source=/dev/null
source "$OUT/guest.env"
: "${CASE_NAME:?}" "${CASE_FIGURES:?}"
SCRATCH=$(mktemp -d /tmp/guest-case-XXXXXX)
WORK=$SCRATCH
# shellcheck source=../../realio/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../../realio/lib.sh"
CASE_DIR=$SCRATCH # where expect_refused keeps its outputs

DEV=/dev/nvme0n1
BYTES_PER_DATA_UNIT=512000

# figure NAME VALUE: one figure of this case in results.jsonl (numbers stay numbers).
figure() {
	if [[ "$2" =~ ^-?[0-9]+(\.[0-9]+)?$ ]]; then
		jq -c -n --arg k "$1" --argjson v "$2" '{($k): $v}' >>"$CASE_FIGURES"
	else
		jq -c -n --arg k "$1" --arg v "$2" '{($k): $v}' >>"$CASE_FIGURES"
	fi
}

# job_file FILE ENGINE PHASES_JSON: a job-command start for the emulated drive, as the service
# sends it.
job_file() {
	jq -c -n --arg job "$CASE_NAME-$RANDOM" --arg serial "$NVME_SERIAL" --arg engine "$2" \
		--argjson phases "$3" \
		'{schemaVersion: 1, type: "start", commandId: ("cmd-" + $job), jobId: $job,
		  runnerId: "guest", issuedAt: (now | strftime("%Y-%m-%dT%H:%M:%S.000Z")),
		  device: {serial: $serial}, engine: $engine,
		  phases: [$phases | to_entries[] | .value + {index: .key}]}' >"$1"
	"$RUNNER" validate job-command "$1" >/dev/null || fail "job $1 breaks the contract"
}

# run_job OUT TARGET JOB [ARGS...]: a job on TARGET that must complete.
run_job() {
	local out=$1 target=$2 job=$3
	shift 3
	run_json "$out" --filename "$target" --job "$job" "$@"
	[ "$STATUS" -eq 0 ] || fail "job $(jq -r .jobId "$job") on $target: exit $STATUS: $(jq -r 'select(.type == "failed" or .type == "refused") | .message' "$out")"
	jq -e 'select(.type == "completed")' "$out" >/dev/null || fail "no completed event in $out"
}

# event OUT TYPE [PHASE]: the job's event of that type (in that phase), compact JSON.
event() {
	if [ $# -ge 3 ]; then
		jq -c --arg t "$2" --argjson p "$3" 'select(.type == $t and .phaseIndex == $p)' "$1"
	else
		jq -c --arg t "$2" 'select(.type == $t)' "$1"
	fi
}

# expect_refusal JOB ALLOWLIST PATTERN FIGURE: the job is refused (invalid-command) before any IO
# with the namespace's sha256 unchanged, its message matches PATTERN (grep), recorded as FIGURE.
expect_refusal() {
	local refusal
	rm -f "$SCRATCH"/refused-invalid-command-*.jsonl
	expect_refused invalid-command "$DEV" --job "$1" --allowlist "$2"
	refusal=$(jq -r 'select(.type == "refused") | .message' "$SCRATCH"/refused-invalid-command-*.jsonl)
	echo "refused: $refusal"
	grep -q "$3" <<<"$refusal" || fail "the refusal must match '$3': $refusal"
	figure "$4" "$refusal"
}

# expect_zeros TARGET OFFSET LENGTH and expect_random TARGET OFFSET LENGTH: what the drive holds
# there, read through the kernel (O_DIRECT), judged by check_output (zeros: every byte; random:
# every 4 KiB block distinct, none zero, ~8 bits of entropy per byte).
expect_pattern() {
	local pattern=$1 target=$2 offset=$3 length=$4
	dd if="$target" bs=1M iflag=direct,skip_bytes,count_bytes skip="$offset" count="$length" \
		status=none | "$CHECK" blocks /dev/stdin 4096 "$length" "$pattern" ||
		fail "$target bytes $offset..$((offset + length)) are not $pattern"
}
expect_zeros() { expect_pattern zeros "$@"; }
expect_random() { expect_pattern random "$@"; }

# smart_deltas OUT PHASE PREFIX BS QD: checks a write phase's SMART 02h and OCP C0h snapshots
# against what the runner wrote, records the figures and sets WAF.
#
# The phase's write totals count every IO it sent, the up to QD still in flight at its end (drained
# then) included. So the drive's own count of write commands (02h Host Write Commands; one per
# BS-byte IO when the block layer merges nothing, as the kernel-path case sets with
# queue/nomerges) equals the phase's IOs, and the bytes the host sent are D = that count x BS.
# Data Units Written counts thousands of 512-byte units, rounded up: with S0 units written before
# and d = D/512 during the phase, its delta is ceil((S0 + d)/1000) - ceil(S0/1000), i.e.
# floor(d/1000) or ceil(d/1000) for any S0. Where the C0h physical media bytes count every byte
# the media took (QEMU's do: its media is the host file), S0 = PMUW_before / 512 is known and the
# delta is exact; PMUW must grow by exactly D, and WAF = dPMUW / (dDUW x 512,000) is 1 within
# DUW's rounding of one unit.
smart_deltas() {
	local out=$1 phase=$2 prefix=$3 bs=$4 qd=$5 before after written ios
	local duw0 duw1 pmuw0 pmuw1 hwc0 hwc1 commands device_bytes s0 d lo hi exact
	before=$(jq -c --argjson p "$phase" 'select(.type == "smart-snapshot" and .phaseIndex == $p and .when == "before") | .smart' "$out")
	after=$(jq -c --argjson p "$phase" 'select(.type == "smart-snapshot" and .phaseIndex == $p and .when == "after") | .smart' "$out")
	[ -n "$before" ] && [ -n "$after" ] || fail "phase $phase has no SMART snapshots before and after"
	for snapshot in "$before" "$after"; do
		[ "$(jq -r '.available and .source == "nvme-log-02h"' <<<"$snapshot")" = true ] ||
			fail "SMART not read from the drive's 02h log: $snapshot"
		[ "$(jq -r 'has("ocp")' <<<"$snapshot")" = true ] || fail "no OCP C0h counters: $snapshot"
	done
	written=$(event "$out" phase-completed "$phase" | jq -r .write.bytes)
	ios=$(event "$out" phase-completed "$phase" | jq -r .write.ios)
	read -r duw0 hwc0 pmuw0 < <(jq -r '"\(.dataUnitsWritten) \(.hostWriteCommands) \(.ocp.physicalMediaUnitsWrittenBytes)"' <<<"$before")
	read -r duw1 hwc1 pmuw1 < <(jq -r '"\(.dataUnitsWritten) \(.hostWriteCommands) \(.ocp.physicalMediaUnitsWrittenBytes)"' <<<"$after")
	[ "$ios" -gt 0 ] && [ "$written" -eq $((ios * bs)) ] || fail "phase $phase: $ios IOs, $written bytes"
	commands=$((hwc1 - hwc0))
	device_bytes=$((commands * bs))
	figure "${prefix}HostBytesWritten" "$written"
	figure "${prefix}WriteIos" "$ios"
	figure "${prefix}HostWriteCommandsDelta" "$commands"
	figure "${prefix}DataUnitsWrittenBefore" "$duw0"
	figure "${prefix}DataUnitsWrittenAfter" "$duw1"
	figure "${prefix}DataUnitsWrittenDelta" "$((duw1 - duw0))"
	figure "${prefix}PhysicalMediaBytesBefore" "$pmuw0"
	figure "${prefix}PhysicalMediaBytesAfter" "$pmuw1"
	figure "${prefix}PhysicalMediaBytesDelta" "$((pmuw1 - pmuw0))"
	echo "phase $phase: $ios writes counted ($written bytes), the IOs drained at its end included;" \
		"the drive took $commands write commands; SMART DUW $duw0 -> $duw1; C0h PMUW $pmuw0 -> $pmuw1"
	[ "$commands" -eq "$ios" ] ||
		fail "the drive counted $commands write commands, the phase $ios IOs (QD $qd): IOs missing from the totals"
	[ $((pmuw1 - pmuw0)) -eq "$device_bytes" ] ||
		fail "C0h PMUW grew by $((pmuw1 - pmuw0)) bytes; the host sent $commands x $bs = $device_bytes"
	d=$((device_bytes / 512))
	lo=$((d / 1000))
	hi=$(((d + 999) / 1000))
	[ $((duw1 - duw0)) -ge "$lo" ] && [ $((duw1 - duw0)) -le "$hi" ] ||
		fail "DUW delta $((duw1 - duw0)) is not floor/ceil of $d/1000 ($lo..$hi)"
	[ $((pmuw0 % 512)) -eq 0 ] || fail "PMUW $pmuw0 is not a whole number of 512-byte units"
	s0=$((pmuw0 / 512))
	exact=$(((s0 + d + 999) / 1000 - (s0 + 999) / 1000))
	figure "${prefix}DataUnitsWrittenExpectedDelta" "$exact"
	[ "$duw0" -eq $(((s0 + 999) / 1000)) ] || fail "DUW before $duw0 is not ceil($s0/1000)"
	[ $((duw1 - duw0)) -eq "$exact" ] ||
		fail "DUW delta $((duw1 - duw0)) != ceil(($s0 + $d)/1000) - ceil($s0/1000) = $exact"
	WAF=$(awk -v m="$((pmuw1 - pmuw0))" -v h="$(((duw1 - duw0) * BYTES_PER_DATA_UNIT))" 'BEGIN { printf "%.4f", m / h }')
	figure "${prefix}Waf" "$WAF"
	awk -v waf="$WAF" -v b="$device_bytes" -v u="$BYTES_PER_DATA_UNIT" \
		'BEGIN { exit !(waf >= b / (b + u) - 0.00005 && waf <= b / (b - u) + 0.00005) }' ||
		fail "WAF $WAF is not 1 within DUW's rounding (one unit of $BYTES_PER_DATA_UNIT in $device_bytes bytes)"
	echo "   DUW delta $((duw1 - duw0)) = ceil(($s0 + $d)/1000) - ceil($s0/1000) exactly;" \
		"WAF = $((pmuw1 - pmuw0)) / ($((duw1 - duw0)) x $BYTES_PER_DATA_UNIT) = $WAF"
}

# no_merges: the block layer stops merging neighbouring IOs on the namespace and its paths (for
# the rest of the boot).
no_merges() {
	local queue
	for queue in /sys/class/block/nvme*/queue/nomerges; do
		echo 2 >"$queue"
		echo "no merges: $queue"
	done
}

cleanup_case() {
	rm -rf "$SCRATCH"
}
trap cleanup_case EXIT
