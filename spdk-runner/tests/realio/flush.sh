#!/usr/bin/env bash
# The uring engine's flush op on real IO: one write through the engine, flushed or not, and what
# the kernel counted. A loop device is a block device with a volatile write cache ("write back"),
# so the flush reaches it as a flush request (field 16 of /sys/block/NAME/stat counts them) only
# when the engine flushes; on a regular file the flush is the filesystem's fsync.
# Usage: RUNNER=... CHECK=... WORK=... FLUSH_PROBE=... flush.sh CASE
source "$(dirname "$0")/lib.sh"
: "${FLUSH_PROBE:?FLUSH_PROBE=path of flush_probe}"

# flushes_of DEV: the flush requests the block device completed so far.
flushes_of() {
	awk '{ print $16 }' "/sys/block/$(basename "$1")/stat"
}

case_flush_loop() {
	local file before after name
	need_root_loop
	start_case flush-loop
	file=$(new_file backing.img 16M)
	new_loop "$file"
	name=$(basename "$LOOP_DEV")
	[ -n "$(awk '{ print $16 }' "/sys/block/$name/stat")" ] ||
		skip "this kernel's /sys/block/$name/stat has no flush counters (Linux 5.5+)"
	[ "$(cat "/sys/block/$name/queue/write_cache")" = "write back" ] ||
		fail "$LOOP_DEV declares no volatile write cache: a flush would not reach it"
	before=$(flushes_of "$LOOP_DEV")
	"$FLUSH_PROBE" "$LOOP_DEV" no-flush || fail "the unflushed write failed"
	after=$(flushes_of "$LOOP_DEV")
	[ "$after" -eq "$before" ] ||
		fail "a write alone counted $((after - before)) flushes on $LOOP_DEV: the probe cannot tell"
	"$FLUSH_PROBE" "$LOOP_DEV" flush || fail "the flushed write failed"
	after=$(flushes_of "$LOOP_DEV")
	[ "$after" -gt "$before" ] || fail "the engine's flush never reached $LOOP_DEV ($before flushes before and after)"
	echo "ok a write counted no flush on $LOOP_DEV, the engine's flush counted $((after - before))"
}

case_flush_file() {
	local file
	start_case flush-file
	file=$(new_file data.img 1M)
	"$FLUSH_PROBE" "$file" flush || fail "flushing a regular file failed"
	echo "ok the engine flushed a write to a regular file (fsync)"
}

case "${1:-}" in
flush-loop) case_flush_loop ;;
flush-file) case_flush_file ;;
*) fail "unknown case '${1:-}'" ;;
esac
