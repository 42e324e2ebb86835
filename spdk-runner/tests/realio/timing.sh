#!/usr/bin/env bash
# The instrument's own checks on every engine that runs here (null, sim, uring on a tmpfs file and
# on a loop device): each IO timed from its own submission to its own completion, so mean latency
# x IOPS equals the effective queue depth integrated independently (Little's law, within 2%: a
# ratio, robust to a loaded machine), and a closed-loop QD32 phase keeps >= 0.99 x 32 IOs in
# flight (buffers are filled off the timed path). The phases are sized, so every IO they issue
# completes inside them: a timed phase's end cuts through IOs in flight (in the integral, drained
# from the latencies, as in fio), a boundary term a scheduler stall across the end can make a few
# percent of a 3 s phase on a loaded machine. And what the runner writes: a random-write phase's
# blocks captured in a file keep >= 99% under gzip, no two 4 KiB blocks alike.
# Usage: RUNNER=... CHECK=... CAPTURE=... WORK=... timing.sh CASE
source "$(dirname "$0")/lib.sh"

LITTLE_MAX_ERROR=0.02
MIN_QD32=31.68 # 0.99 x 32

# A scratch file on tmpfs (memory: the kernel, not a disk, sets the pace).
tmpfs_file() {
	local dir=/dev/shm
	[ "$(stat -f -c %T "$dir" 2>/dev/null)" = tmpfs ] || skip "$dir is not a tmpfs"
	TMPFS_FILE="$dir/drivequal-ctest-$$.img"
	fallocate -l "$1" "$TMPFS_FILE"
	trap 'rm -f "$TMPFS_FILE"; cleanup' EXIT
}

# little OUT TARGET_QD SIZE ARGS...: one sized phase; Little's law holds, and at QD32 the queue
# is full.
little() {
	local out="$1" qd="$2" size="$3"
	shift 3
	run_json "$out" "$@" --iodepth "$qd" --size "$size"
	[ "$STATUS" -eq 0 ] || fail "run $*: exit $STATUS"
	if [ "$qd" -eq 32 ] && [ "${NO_MIN_QD:-0}" -eq 0 ]; then
		"$CHECK" stream "$out" --final completed --little 0 "$LITTLE_MAX_ERROR" \
			--min-qd 0 "$MIN_QD32"
	else
		"$CHECK" stream "$out" --final completed --little 0 "$LITTLE_MAX_ERROR"
	fi
}

case_little_engines() {
	local allow
	start_case little-engines
	tmpfs_file 256M
	allow="$CASE_DIR/allow.json"
	allow_address "$allow" "$TMPFS_FILE"
	# null: no device time at all, so the core's own time between reaping and resubmitting is
	# most of each IO's cycle: Little's law still holds, a full queue is not expected.
	NO_MIN_QD=1 little "$CASE_DIR/null.jsonl" 32 16g --engine null --filename null \
		--rw randwrite --bs 4k
	little "$CASE_DIR/sim.jsonl" 32 1g --engine sim --filename sim:test-enterprise-eager \
		--rw randwrite --bs 4k
	little "$CASE_DIR/tmpfs-randwrite.jsonl" 32 512m --filename "$TMPFS_FILE" --rw randwrite \
		--bs 4k --allowlist "$allow"
	little "$CASE_DIR/tmpfs-randread.jsonl" 32 512m --filename "$TMPFS_FILE" --rw randread \
		--bs 4k
	little "$CASE_DIR/tmpfs-randread-qd1.jsonl" 1 64m --filename "$TMPFS_FILE" --rw randread \
		--bs 4k
	echo "ok Little's law on null, sim and a tmpfs file"
}

case_little_loop() {
	local file serial allow
	need_root_loop
	start_case little-loop
	file=$(new_file backing.img 256M)
	new_loop "$file"
	serial=$(serial_of "$LOOP_DEV")
	allow="$CASE_DIR/allow.json"
	allow_serial "$allow" "$serial"
	little "$CASE_DIR/loop-randwrite.jsonl" 32 512m --filename "$LOOP_DEV" --rw randwrite \
		--bs 4k --allowlist "$allow" --serial "$serial"
	little "$CASE_DIR/loop-randread.jsonl" 32 512m --filename "$LOOP_DEV" --rw randread --bs 4k
	little "$CASE_DIR/loop-randwrite-qd1.jsonl" 1 64m --filename "$LOOP_DEV" --rw randwrite \
		--bs 4k --allowlist "$allow" --serial "$serial"
	echo "ok Little's law on a loop device"
}

case_write_capture() {
	local out size=$((64 * 1024 * 1024)) compressed
	start_case write-capture
	out="$CASE_DIR/writes.bin"
	"$CAPTURE" "$out" 64
	[ "$(stat -c %s "$out")" -eq "$size" ] || fail "captured $(stat -c %s "$out") bytes"
	"$CHECK" blocks "$out" 4096 "$size" headers || fail "the captured writes are not all unique"
	compressed=$(gzip -c "$out" | wc -c)
	echo "gzip: $size -> $compressed bytes ($(awk "BEGIN{printf \"%.4f\", $compressed/$size}"))"
	[ "$compressed" -ge $((size * 99 / 100)) ] || fail "the writes compressed to $compressed"
	echo "ok a randwrite phase's writes are incompressible and unique per 4 KiB block"
}

case "${1:?case}" in
little-engines) case_little_engines ;;
little-loop) case_little_loop ;;
write-capture) case_write_capture ;;
*) fail "unknown case $1" ;;
esac
echo "PASS $1"
