# Helpers of the real-IO tests (sourced by realio.sh): scratch files and loop devices that are
# always released (trap, plus the ctest cleanup fixture), loud SKIPs, and runner invocations.

set -euo pipefail

: "${RUNNER:?RUNNER=path of drivequal-runner}"
: "${CHECK:?CHECK=path of check_output}"
: "${WORK:?WORK=scratch directory}"

SKIP_CODE=77
CASE_DIR=""
LOOPS=()
MOUNTS=()

skip() {
	echo "************************************************************************"
	echo "SKIP: $*"
	echo "************************************************************************"
	echo "SKIP: $*" >&2
	exit "$SKIP_CODE"
}

fail() {
	echo "FAIL: $*"
	exit 1
}

need_root_loop() {
	[ "$(id -u)" -eq 0 ] || skip "needs root for loop devices, mkfs and mount (CI runs as root)"
	command -v losetup >/dev/null || skip "losetup is not installed"
	[ -e /dev/loop-control ] || modprobe loop 2>/dev/null || true
	losetup -f >/dev/null 2>&1 || skip "this kernel/container has no free loop device"
}

cleanup() {
	local m l
	for m in "${MOUNTS[@]}"; do umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || true; done
	for l in "${LOOPS[@]}"; do losetup -d "$l" 2>/dev/null || true; done
	[ -n "$CASE_DIR" ] && rm -rf "$CASE_DIR"
	return 0
}

start_case() {
	CASE_DIR="$WORK/$1"
	rm -rf "$CASE_DIR"
	mkdir -p "$CASE_DIR"
	trap cleanup EXIT
}

# new_file NAME SIZE: a fully allocated scratch file (so hole punching shows in st_blocks).
new_file() {
	local path="$CASE_DIR/$1"
	fallocate -l "$2" "$path" 2>/dev/null || truncate -s "$2" "$path"
	echo "$path"
}

# new_loop FILE [losetup options...]: attach, remember for cleanup, set LOOP_DEV (no subshell,
# or the cleanup list would not see it).
new_loop() {
	local file="$1"
	shift
	LOOP_DEV=$(losetup -f --show "$@" "$file")
	LOOPS+=("$LOOP_DEV")
	echo "attached $LOOP_DEV to $file"
}

mount_ro() {
	mkdir -p "$CASE_DIR/mnt"
	mount -o ro "$1" "$CASE_DIR/mnt"
	MOUNTS+=("$CASE_DIR/mnt")
}

checksum() {
	sha256sum "$1" | cut -d' ' -f1
}

# run_json OUT ARGS...: the runner with JSON-lines output into OUT; sets STATUS.
run_json() {
	local out="$1"
	shift
	set +e
	"$RUNNER" run --output-format json "$@" >"$out" 2>"$out.err"
	STATUS=$?
	set -e
	echo "drivequal-runner run $* -> $STATUS"
	sed 's/^/  stderr: /' "$out.err" | head -5
}

# serial_of TARGET: the serial the runner derives (from a read-only job's accepted event).
serial_of() {
	"$RUNNER" run --output-format json --filename "$1" --rw read --size 4k "${@:2}" |
		grep -o '"device":{"serial":"[^"]*"' | head -1 | sed 's/.*"serial":"//; s/"$//'
}

allow_serial() {
	echo "{\"devices\": [{\"serial\": \"$2\"${3:+, $3}}]}" >"$1"
}

allow_address() {
	echo "{\"devices\": [{\"transportAddress\": \"$2\"${3:+, $3}}]}" >"$1"
}

# expect_refused REASON TARGET ARGS...: the job is refused for REASON, exit 3, and TARGET's
# bytes are exactly what they were.
expect_refused() {
	local reason="$1" target="$2" before after out
	shift 2
	out="$CASE_DIR/refused-$reason-$RANDOM.jsonl"
	before=$(checksum "$target")
	run_json "$out" --filename "$target" "$@"
	after=$(checksum "$target")
	[ "$STATUS" -eq 3 ] || fail "expected exit 3 (refused $reason), got $STATUS"
	"$CHECK" stream "$out" --refused "$reason" || fail "expected a refused/$reason event"
	grep -q "\"reason\":\"$reason\"" "$out" || fail "no reason $reason in the output"
	[ "$before" = "$after" ] || fail "$target changed although the job was refused ($reason)"
	echo "ok refused $reason, $target unchanged ($after)"
}
