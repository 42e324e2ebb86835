#!/usr/bin/env bash
# The runner against real IO (files, loop devices; no mocks): its samples and events decode with
# the codecs and add up, precondition/deallocate/data-pattern do what they claim on disk, and
# every interlock refuses on a real device without changing a byte of it.
# Usage: RUNNER=... CHECK=... WORK=... realio.sh CASE
source "$(dirname "$0")/lib.sh"

case_file_run() {
	local file out allow serial
	start_case file-run
	file=$(new_file disk.img 256M)
	allow="$CASE_DIR/allow.json"
	allow_address "$allow" "$file"
	out="$CASE_DIR/write.jsonl"
	run_json "$out" --filename "$file" --rw randwrite --bs 4k --iodepth 32 --runtime 3 \
		--allowlist "$allow"
	[ "$STATUS" -eq 0 ] || fail "randwrite on a file: exit $STATUS"
	"$CHECK" stream "$out" --final completed --runtime 0 3 --bs 0 4096
	# reads need no allowlist, and bs/rw mix are honoured
	out="$CASE_DIR/mixed.jsonl"
	run_json "$out" --filename "$file" --rw randrw --rwmixread 70 --bs 16k --iodepth 8 \
		--runtime 2
	[ "$STATUS" -eq 3 ] || fail "a mixed workload writes: it needs the allowlist ($STATUS)"
	run_json "$out" --filename "$file" --rw randread --bs 16k --iodepth 8 --runtime 2
	[ "$STATUS" -eq 0 ] || fail "randread without an allowlist: exit $STATUS"
	"$CHECK" stream "$out" --final completed --runtime 0 2 --bs 0 16384
	serial=$(serial_of "$file")
	[[ "$serial" == FILE-* ]] || fail "file serial '$serial'"
	echo "ok file runs; serial $serial"
}

case_loop_run() {
	local file out allow serial
	need_root_loop
	start_case loop-run
	file=$(new_file backing.img 256M)
	new_loop "$file"
	serial=$(serial_of "$LOOP_DEV")
	[[ "$serial" == LOOP-* ]] || fail "loop serial '$serial'"
	allow="$CASE_DIR/allow.json"
	allow_serial "$allow" "$serial"
	out="$CASE_DIR/write.jsonl"
	run_json "$out" --filename "$LOOP_DEV" --rw randwrite --bs 4k --iodepth 32 --runtime 3 \
		--allowlist "$allow" --serial "$serial"
	[ "$STATUS" -eq 0 ] || fail "randwrite on $LOOP_DEV: exit $STATUS"
	"$CHECK" stream "$out" --final completed --runtime 0 3 --bs 0 4096
	out="$CASE_DIR/read.jsonl"
	run_json "$out" --filename "$LOOP_DEV" --rw randread --bs 4k --iodepth 32 --runtime 2
	[ "$STATUS" -eq 0 ] || fail "randread on $LOOP_DEV without an allowlist: exit $STATUS"
	"$CHECK" stream "$out" --final completed --runtime 0 2 --bs 0 4096
	# the serial is the backing file's: the same on another loop device
	losetup -d "$LOOP_DEV"
	new_loop "$file"
	[ "$(serial_of "$LOOP_DEV")" = "$serial" ] || fail "serial changed on re-attach"
	echo "ok loop runs; serial $serial is stable across re-attachment"
}

# Sectors the kernel counted as written to a block device (field 7 of its stat).
sectors_written() {
	awk '{print $7}' "/sys/class/block/$(basename "$1")/stat"
}

case_precondition_bytes() {
	local file out allow serial before after range expected
	need_root_loop
	start_case precondition
	file=$(new_file backing.img 64M)
	new_loop "$file"
	serial=$(serial_of "$LOOP_DEV")
	allow="$CASE_DIR/allow.json"
	allow_serial "$allow" "$serial"
	range=$((64 * 1024 * 1024 * 75 / 100)) # 75%, a multiple of the 512-byte LBA
	expected=$((2 * range))
	out="$CASE_DIR/pre.jsonl"
	before=$(sectors_written "$LOOP_DEV")
	run_json "$out" --filename "$LOOP_DEV" --precondition 2 --range 75% --rw randread \
		--size 4k --allowlist "$allow"
	after=$(sectors_written "$LOOP_DEV")
	[ "$STATUS" -eq 0 ] || fail "precondition: exit $STATUS"
	"$CHECK" stream "$out" --final completed --write-bytes 0 "$expected"
	[ $(((after - before) * 512)) -eq "$expected" ] ||
		fail "the kernel counted $(((after - before) * 512)) bytes written, expected $expected"
	echo "ok precondition wrote exactly 2 x 75% = $expected bytes (kernel agrees)"
}

case_deallocate_file() {
	local file job out serial blocks_full blocks_after size=$((64 * 1024 * 1024))
	start_case deallocate
	file=$(new_file disk.img 64M)
	serial=$(serial_of "$file")
	job="$CASE_DIR/job.json"
	cat >"$job" <<-EOF
		{"schemaVersion":1,"type":"start","commandId":"c-1","jobId":"trim-1","runnerId":"ctest",
		 "issuedAt":"2026-11-22T21:00:00.000Z","device":{"serial":"$serial","transportAddress":"$file"},
		 "engine":"uring","phases":[
		  {"index":0,"name":"fill","kind":"precondition","blockSizeBytes":131072,"queueDepth":16,
		   "rangePercent":100,"passes":1},
		  {"index":1,"name":"trim","kind":"deallocate","rangePercent":50},
		  {"index":2,"name":"snap","kind":"smart"}]}
	EOF
	"$RUNNER" validate job-command "$job"
	allow_address "$CASE_DIR/allow.json" "$file"
	blocks_full=$(stat -c %b "$file")
	out="$CASE_DIR/trim.jsonl"
	run_json "$out" --job "$job" --allowlist "$CASE_DIR/allow.json"
	[ "$STATUS" -eq 0 ] || fail "deallocate job: exit $STATUS"
	"$CHECK" stream "$out" --final completed --write-bytes 0 "$size"
	grep -q '"kind":"deallocate","durationNs":[0-9]*,"samples":0,"read":{"ios":0,"bytes":0},"write":{"ios":0,"bytes":0},"deallocatedBytes":'$((size / 2)) "$out" ||
		fail "phase-completed lacks deallocatedBytes $((size / 2))"
	grep -q '"smart":{"available":false,"source":"unavailable","reason":' "$out" ||
		fail "a file's SMART must be unavailable with a reason"
	blocks_after=$(stat -c %b "$file")
	echo "st_blocks: $blocks_full before, $blocks_after after deallocating half"
	[ $((blocks_full * 512)) -ge "$size" ] || fail "the file was not fully allocated"
	[ $((blocks_after * 512)) -le $((size / 2 + 1024 * 1024)) ] ||
		fail "deallocate punched no hole: $blocks_after blocks"
	echo "ok deallocate punched the first half"
}

case_data_pattern() {
	local file out allow compressed size=$((32 * 1024 * 1024))
	start_case data
	file=$(new_file disk.img 32M)
	allow="$CASE_DIR/allow.json"
	allow_address "$allow" "$file"
	out="$CASE_DIR/random.jsonl"
	run_json "$out" --filename "$file" --precondition 1 --rw randread --size 4k --allowlist "$allow"
	[ "$STATUS" -eq 0 ] || fail "random fill: exit $STATUS"
	# every 4 KiB block differs (a reused buffer would repeat every queue-depth IOs)
	"$CHECK" blocks "$file" 4096 "$size" random
	compressed=$(gzip -1 -c "$file" | wc -c)
	echo "gzip -1: $size -> $compressed bytes"
	[ "$compressed" -ge $((size * 99 / 100)) ] || fail "random data compressed to $compressed"
	out="$CASE_DIR/zeros.jsonl"
	run_json "$out" --filename "$file" --precondition 1 --rw randread --size 4k \
		--data-pattern zeros --allowlist "$allow"
	[ "$STATUS" -eq 0 ] || fail "zeros fill: exit $STATUS"
	"$CHECK" blocks "$file" 4096 "$size" zeros
	echo "ok random data is fresh and incompressible; zeros are zeros"
}

case_refuse_allowlist() {
	local file serial allow
	need_root_loop
	start_case refuse-allowlist
	file=$(new_file backing.img 32M)
	dd if=/dev/urandom of="$file" bs=1M count=32 conv=notrunc status=none
	new_loop "$file"
	serial=$(serial_of "$LOOP_DEV")
	allow="$CASE_DIR/allow.json"
	expect_refused not-allowlisted "$LOOP_DEV" --rw randwrite --runtime 2 --iodepth 8
	allow_serial "$allow" "SOME-OTHER-DRIVE"
	expect_refused not-allowlisted "$LOOP_DEV" --rw write --size 1m --allowlist "$allow"
	expect_refused not-allowlisted "$LOOP_DEV" --purge deallocate --rw read --size 4k \
		--allowlist "$allow"
	allow_serial "$allow" "$serial"
	expect_refused serial-mismatch "$LOOP_DEV" --rw randwrite --runtime 2 --allowlist "$allow" \
		--serial "WRONG-SERIAL"
	expect_refused serial-mismatch "$LOOP_DEV" --rw randread --runtime 1 --serial "WRONG-SERIAL"
	run_json "$CASE_DIR/missing.jsonl" --filename /dev/drivequal-no-such-device --rw randwrite \
		--runtime 1 --allowlist "$allow"
	[ "$STATUS" -eq 3 ] || fail "a missing device: exit $STATUS"
	"$CHECK" stream "$CASE_DIR/missing.jsonl" --refused device-not-found
}

case_refuse_mounted() {
	local file serial allow
	need_root_loop
	command -v mkfs.ext4 >/dev/null || skip "mkfs.ext4 (e2fsprogs) is not installed"
	start_case refuse-mounted
	file=$(new_file backing.img 64M)
	new_loop "$file"
	mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$LOOP_DEV"
	mount_ro "$LOOP_DEV"
	serial=$(serial_of "$LOOP_DEV")
	allow="$CASE_DIR/allow.json"
	allow_serial "$allow" "$serial" '"allowSignatures": true'
	expect_refused mounted "$LOOP_DEV" --rw randwrite --runtime 2 --allowlist "$allow"
	# allowMounted lifts that check only: the filesystem signature still refuses
	allow_serial "$allow" "$serial" '"allowMounted": true'
	expect_refused signature "$LOOP_DEV" --rw randwrite --runtime 2 --allowlist "$allow"
	umount "$CASE_DIR/mnt"
	MOUNTS=()
	# a mounted partition of the device counts too
	wipefs -q -a "$LOOP_DEV"
	losetup -d "$LOOP_DEV"
	new_loop "$file" -P
	echo 'label: dos
start=2048, type=83' | sfdisk -q "$LOOP_DEV"
	partx -u "$LOOP_DEV" 2>/dev/null || true
	udevadm settle 2>/dev/null || true
	[ -b "${LOOP_DEV}p1" ] || skip "the kernel created no ${LOOP_DEV}p1 partition node"
	mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "${LOOP_DEV}p1"
	mount_ro "${LOOP_DEV}p1"
	serial=$(serial_of "$LOOP_DEV")
	allow_serial "$allow" "$serial" '"allowPartitioned": true, "allowSignatures": true'
	expect_refused mounted "$LOOP_DEV" --rw randwrite --runtime 2 --allowlist "$allow"
	grep -q "p1 is mounted" "$CASE_DIR"/refused-mounted-*.jsonl || fail "message names the partition"
}

case_refuse_partition() {
	local file serial allow
	need_root_loop
	command -v sfdisk >/dev/null || skip "sfdisk (fdisk) is not installed"
	start_case refuse-partition
	file=$(new_file backing.img 64M)
	new_loop "$file"
	printf 'label: gpt\nsize=16M, type=linux\n' | sfdisk -q --no-reread "$LOOP_DEV" || true
	serial=$(serial_of "$LOOP_DEV")
	allow="$CASE_DIR/allow.json"
	allow_serial "$allow" "$serial"
	# no partscan: the kernel shows no partitions, libblkid finds the table
	expect_refused partition-table "$LOOP_DEV" --rw randwrite --runtime 2 --allowlist "$allow"
	expect_refused partition-table "$LOOP_DEV" --precondition 1 --rw read --size 4k \
		--allowlist "$allow"
	# partscan: the kernel's partitions refuse as well
	losetup -d "$LOOP_DEV"
	new_loop "$file" -P
	serial=$(serial_of "$LOOP_DEV")
	allow_serial "$allow" "$serial"
	expect_refused partition-table "$LOOP_DEV" --rw randwrite --runtime 2 --allowlist "$allow"
}

case_refuse_signature() {
	local file serial allow plain
	need_root_loop
	command -v mkfs.ext4 >/dev/null || skip "mkfs.ext4 (e2fsprogs) is not installed"
	start_case refuse-signature
	file=$(new_file backing.img 64M)
	new_loop "$file"
	mkfs.ext4 -q -F "$LOOP_DEV"
	serial=$(serial_of "$LOOP_DEV")
	allow="$CASE_DIR/allow.json"
	allow_serial "$allow" "$serial"
	expect_refused signature "$LOOP_DEV" --rw randwrite --runtime 2 --allowlist "$allow"
	wipefs -q -a "$LOOP_DEV"
	mkswap -q "$LOOP_DEV" >/dev/null
	expect_refused signature "$LOOP_DEV" --rw write --size 1m --allowlist "$allow"
	grep -q '"message":"[^"]*swap' "$CASE_DIR"/refused-signature-*.jsonl ||
		fail "the message names the swap signature"
	# files are probed too
	plain=$(new_file plain.img 32M)
	mkfs.ext4 -q -F "$plain"
	allow_address "$allow" "$plain"
	expect_refused signature "$plain" --rw randwrite --runtime 1 --allowlist "$allow"
}

# A real IO error: a 64 MiB sparse file on an 8 MiB tmpfs runs out of space mid-workload.
case_io_error() {
	local file out allow
	need_root_loop
	start_case io-error
	mkdir -p "$CASE_DIR/small"
	mount -t tmpfs -o size=8m tmpfs "$CASE_DIR/small"
	MOUNTS+=("$CASE_DIR/small")
	file="$CASE_DIR/small/sparse.img"
	truncate -s 64M "$file"
	allow="$CASE_DIR/allow.json"
	allow_address "$allow" "$file"
	out="$CASE_DIR/enospc.jsonl"
	run_json "$out" --filename "$file" --direct 0 --rw write --bs 1m --iodepth 4 --runtime 30 \
		--allowlist "$allow"
	[ "$STATUS" -eq 1 ] || fail "writing past a full filesystem: exit $STATUS, expected 1"
	"$CHECK" stream "$out" --final failed
	grep -q '"reason":"io-error","message":"phase [^"]*: a 1048576-byte write at offset [0-9]* failed: No space left on device"' "$out" ||
		fail "the failed event names the IO and its error"
	echo "ok a real IO error fails the job with io-error"
}

# A placed write (FDP) through the uring engine on what has no FDP (a file, a loop device): refused
# before any IO, naming why, the target's bytes unchanged. The placed path itself runs on the
# emulated NVMe controller (tests/guest/cases/70-fdp.sh).
case_refuse_placement() {
	local file allow serial
	start_case refuse-placement
	file=$(new_file disk.img 32M)
	dd if=/dev/urandom of="$file" bs=1M count=32 conv=notrunc status=none
	allow="$CASE_DIR/allow.json"
	allow_address "$allow" "$file"
	expect_refused invalid-command "$file" --runtime 1 --allowlist "$allow" \
		--stream rw=randwrite,bs=4k,iodepth=8,fdp_pli=0
	grep -q "placementHandle 0: the drive has no Flexible Data Placement" \
		"$CASE_DIR"/refused-invalid-command-*.jsonl.err ||
		fail "the refusal names the missing FDP"
	if [ "$(id -u)" -eq 0 ] && losetup -f >/dev/null 2>&1; then
		new_loop "$file"
		serial=$(serial_of "$LOOP_DEV")
		allow_serial "$allow" "$serial"
		expect_refused invalid-command "$LOOP_DEV" --runtime 1 --allowlist "$allow" \
			--serial "$serial" --stream name=hot,rw=randwrite,bs=4k,iodepth=8,fdp_pli=1
	fi
	echo "ok placement refused where there is no FDP"
}

case "${1:?case}" in
io-error) case_io_error ;;
file-run) case_file_run ;;
loop-run) case_loop_run ;;
precondition-bytes) case_precondition_bytes ;;
deallocate-file) case_deallocate_file ;;
data-pattern) case_data_pattern ;;
refuse-allowlist) case_refuse_allowlist ;;
refuse-mounted) case_refuse_mounted ;;
refuse-partition) case_refuse_partition ;;
refuse-signature) case_refuse_signature ;;
refuse-placement) case_refuse_placement ;;
*) fail "unknown case $1" ;;
esac
echo "PASS $1"
