#!/usr/bin/env bash
# Reading back what the runner wrote, on real IO: a purge proven by canaries that no longer read
# back (and a purge that silently erases nothing caught), a data verify that finds corruption
# injected between the writes and the read-back, and the bad inputs refused before any write (a
# purge the device cannot do, a verify of a range the job never wrote).
# Usage: RUNNER=... CHECK=... WORK=... TEST_FAULTS=ON|OFF readback.sh CASE
source "$(dirname "$0")/lib.sh"

# The fault switch exists only in test builds; elsewhere the variable must change nothing.
expected_under_fault() {
	if [ "${TEST_FAULTS:-OFF}" = ON ]; then echo failed; else echo verified; fi
}

case_purge_proof_loop() {
	local file serial allow out
	need_root_loop
	start_case purge-proof-loop
	file=$(new_file backing.img 64M)
	dd if=/dev/urandom of="$file" bs=1M count=64 conv=notrunc status=none
	new_loop "$file"
	serial=$(serial_of "$LOOP_DEV")
	allow="$CASE_DIR/allow.json"
	allow_serial "$allow" "$serial" '"allowSignatures": true'
	out="$CASE_DIR/purge.jsonl"
	run_json "$out" --filename "$LOOP_DEV" --purge deallocate --rw randread --size 4k \
		--allowlist "$allow" --serial "$serial"
	[ "$STATUS" -eq 0 ] || fail "purge: exit $STATUS"
	"$CHECK" stream "$out" --final completed --purge 0 verified
	grep -q '"purgeVerification":{"method":"deallocate","status":"verified","coverage":"all","canaryBlocks":16384,"blocksRead":16384,"lbasRead":131072,"bytesRead":67108864,"blocksFound":0}' "$out" ||
		fail "the proof did not read back all 16384 blocks of the 64 MiB device"
	# A purge that erases nothing (test builds): every canary reads back, and it is reported.
	out="$CASE_DIR/silent.jsonl"
	DRIVEQUAL_TEST_FAULT=skip-erase run_json "$out" --filename "$LOOP_DEV" --purge deallocate \
		--rw randread --size 4k --allowlist "$allow" --serial "$serial"
	[ "$STATUS" -eq 0 ] || fail "silent purge: exit $STATUS"
	"$CHECK" stream "$out" --final completed --purge 0 "$(expected_under_fault)"
	if [ "$(expected_under_fault)" = failed ]; then
		grep -q '"status":"failed","coverage":"all","canaryBlocks":16384,"blocksRead":16384,"lbasRead":131072,"bytesRead":67108864,"blocksFound":16384,"firstFoundLbas":\[0,8,16,' "$out" ||
			fail "the silent purge was not caught on all 16384 blocks"
		grep -q "TEST FAULT ACTIVE" "$out.err" || fail "the fault did not announce itself"
	fi
	echo "ok purge proven on $LOOP_DEV; a purge that erases nothing is caught"
}

case_purge_proof_sim() {
	local out
	start_case purge-proof-sim
	out="$CASE_DIR/sim.jsonl"
	run_json "$out" --engine sim --filename sim:test-client-7pct --sim_medium=1 \
		--purge format-user-data --rw randread --size 4k
	[ "$STATUS" -eq 0 ] || fail "sim purge: exit $STATUS"
	"$CHECK" stream "$out" --final completed --purge 0 verified
	grep -q '"method":"format-user-data","status":"verified","coverage":"sample","canaryBlocks":65536,"blocksRead":65536,' \
		"$out" || fail "a sampled proof of the Format that ran reads back one block in each of 65536 strata"
	out="$CASE_DIR/silent.jsonl"
	DRIVEQUAL_TEST_FAULT=skip-erase run_json "$out" --engine sim \
		--filename sim:test-client-7pct --sim_medium=1 --purge format-user-data \
		--rw randread --size 4k
	"$CHECK" stream "$out" --final completed --purge 0 "$(expected_under_fault)"
	# Without a medium nothing can be read back: said so, never claimed verified.
	out="$CASE_DIR/no-medium.jsonl"
	run_json "$out" --engine sim --filename sim:test-client-7pct --purge format-user-data \
		--rw randread --size 4k
	"$CHECK" stream "$out" --final completed --purge 0 unverifiable
	grep -q '"reason":"nothing can be read back: the sim engine keeps no data' "$out" ||
		fail "an unverifiable purge names why"
	echo "ok purge proofs on the simulated drive"
}

case_purge_refuse_format() {
	local file serial allow out
	need_root_loop
	start_case purge-refuse-format
	file=$(new_file backing.img 32M)
	dd if=/dev/urandom of="$file" bs=1M count=32 conv=notrunc status=none
	new_loop "$file"
	serial=$(serial_of "$LOOP_DEV")
	allow="$CASE_DIR/allow.json"
	allow_serial "$allow" "$serial" '"allowSignatures": true'
	# A loop device has no Format NVM: refused before a single canary is written.
	expect_refused invalid-command "$LOOP_DEV" --purge format-user-data --rw randread \
		--size 4k --allowlist "$allow" --serial "$serial"
	out=$(ls "$CASE_DIR"/refused-invalid-command-*.jsonl)
	grep -q 'cannot purge with format-user-data: it lacks Format NVM with user-data erase \[format-user-data: device-lacks-it (a loop device: no NVMe controller behind it)\] (the device offers: deallocate); purgeFallback deallocate would accept a TRIM instead, which SNIA PTS does not count as a purge; nothing was written' "$out" ||
		fail "the refusal names the missing capability, why and the way out: $(cat "$out")"
	echo "ok a format purge on a device without Format is refused, data unchanged"
}

# What the runner probes on a loop device with CAP_SYS_ADMIN dropped (as the Helm chart runs it):
# every capability listed, each missing one with its reason, in the heartbeat the agent sends;
# auto does not degrade to a TRIM without the plan's consent, and with it reports the TRIM.
case_probe_loop_no_sys_admin() {
	local file serial allow hb entry out drop=(setpriv --inh-caps=-sys_admin --bounding-set=-sys_admin --)
	need_root_loop
	command -v setpriv >/dev/null || skip "setpriv (util-linux) is not installed"
	start_case probe-loop-no-sys-admin
	file=$(new_file backing.img 32M)
	new_loop "$file"
	serial=$(serial_of "$LOOP_DEV")
	allow="$CASE_DIR/allow.json"
	allow_serial "$allow" "$serial" '"allowSignatures": true'
	hb="$CASE_DIR/heartbeat.json"
	"${drop[@]}" "$RUNNER" devices --output-format json --allowlist "$allow" >"$hb" ||
		fail "devices without CAP_SYS_ADMIN failed"
	"$RUNNER" validate runner-heartbeat "$hb" >/dev/null || fail "the heartbeat breaks the contract"
	entry=$(jq -c --arg dev "$LOOP_DEV" '.devices[] | select(.device.transportAddress == $dev)' "$hb")
	[ -n "$entry" ] || fail "the inventory does not list $LOOP_DEV: $(cat "$hb")"
	jq -r '.capabilities[] | "  \(.name): \(if .available then "yes" else "no, \(.missing)" end)\(if has("enabled") then (if .enabled then ", enabled" else ", disabled" end) else "" end)\(if .detail then " (\(.detail))" else "" end)"' <<<"$entry"
	[ "$(jq '.capabilities | length' <<<"$entry")" -eq 12 ] || fail "not every capability is listed: $entry"
	[ "$(jq -r '.capabilities[] | select(.name == "deallocate") | .available' <<<"$entry")" = true ] ||
		fail "a loop device deallocates (BLKDISCARD)"
	# Its cache is the host's page cache, as the kernel says (queue/write_cache).
	[ "$(jq -r '.capabilities[] | select(.name == "volatile-write-cache") | "\(.available) \(.enabled)"' <<<"$entry")" = \
		"true $([ "$(cat "/sys/block/${LOOP_DEV#/dev/}/queue/write_cache")" = "write back" ] && echo true || echo false)" ] ||
		fail "the loop device's write cache is the kernel's queue/write_cache: $entry"
	for name in format format-user-data format-crypto sanitize-block sanitize-crypto sanitize-overwrite \
		smart ocp-smart-c0h temperature-thresholds fdp; do
		[ "$(jq -r --arg n "$name" '.capabilities[] | select(.name == $n) | "\(.available) \(.missing)"' <<<"$entry")" = "false device-lacks-it" ] ||
			fail "$name on a loop device: expected missing, device-lacks-it: $entry"
	done
	# purge auto: refused before a single canary is written, naming what is missing and why.
	out="$CASE_DIR/auto.jsonl"
	set +e
	"${drop[@]}" "$RUNNER" run --output-format json --filename "$LOOP_DEV" --purge auto \
		--rw randread --size 4k --allowlist "$allow" --serial "$serial" >"$out"
	set -e
	grep -q '"type":"refused"' "$out" || fail "purge auto on a loop device was not refused: $(cat "$out")"
	grep -q 'cannot purge with auto: it lacks Sanitize and Format NVM \[format-user-data: device-lacks-it' "$out" ||
		fail "the refusal names the missing capability: $(cat "$out")"
	# With the buyer's consent it runs, and says that a deallocate ran.
	out="$CASE_DIR/fallback.jsonl"
	set +e
	"${drop[@]}" "$RUNNER" run --output-format json --filename "$LOOP_DEV" --purge auto \
		--purge-fallback deallocate --rw randread --size 4k --allowlist "$allow" \
		--serial "$serial" >"$out"
	STATUS=$?
	set -e
	[ "$STATUS" -eq 0 ] || fail "purge auto with fallback: exit $STATUS: $(cat "$out")"
	grep -q '"purgeVerification":{"method":"deallocate","status":"verified"' "$out" ||
		fail "the fallback's purge names the deallocate that ran: $(cat "$out")"
	echo "ok $LOOP_DEV without CAP_SYS_ADMIN: 12 capabilities probed (deallocate and the write cache there), auto refused, the fallback ran a deallocate"
}

# A job that writes, waits, and reads back; what happens while it waits is the test's.
verify_job() {
	cat >"$1" <<-EOF
		{"schemaVersion":1,"type":"start","commandId":"c-1","jobId":"verify-1","runnerId":"ctest",
		 "issuedAt":"2026-11-22T21:00:00.000Z","device":{"serial":"$2","transportAddress":"$3"},
		 "engine":"uring","phases":[
		  {"index":0,"name":"fill","kind":"precondition","blockSizeBytes":131072,"queueDepth":16,
		   "rangePercent":100,"passes":1},
		  {"index":1,"name":"randwrite","kind":"workload","rw":"randwrite","blockSizeBytes":4096,
		   "queueDepth":32,"rangePercent":100,"sizeBytes":8388608},
		  {"index":2,"name":"settle","kind":"idle","idleS":$4},
		  {"index":3,"name":"verify","kind":"verify","rangePercent":100}]}
	EOF
}

case_verify_loop() {
	local file serial allow job out pid i
	need_root_loop
	start_case verify-loop
	file=$(new_file backing.img 64M)
	new_loop "$file"
	serial=$(serial_of "$LOOP_DEV")
	allow="$CASE_DIR/allow.json"
	allow_serial "$allow" "$serial" '"allowSignatures": true'
	job="$CASE_DIR/job.json"
	verify_job "$job" "$serial" "$LOOP_DEV" 1
	out="$CASE_DIR/clean.jsonl"
	run_json "$out" --job "$job" --allowlist "$allow"
	[ "$STATUS" -eq 0 ] || fail "verify job: exit $STATUS"
	"$CHECK" stream "$out" --final completed --mismatches 3 0
	grep -q '"verify":{"blocksChecked":16384,"unwrittenBlocks":0,"bytesRead":67108864,"mismatches":0,"firstMismatches":\[\]}' "$out" ||
		fail "the verify did not check all 16384 blocks"
	# Corrupt the backing file while the job settles: one block's data, and one block written
	# over another (a misdirected write).
	verify_job "$job" "$serial" "$LOOP_DEV" 20
	out="$CASE_DIR/corrupted.jsonl"
	"$RUNNER" run --output-format json --job "$job" --allowlist "$allow" >"$out" 2>"$out.err" &
	pid=$!
	for i in $(seq 600); do
		grep -q '"type":"phase-started"[^}]*"phaseName":"settle"' "$out" && break
		sleep 0.2
	done
	grep -q '"phaseName":"settle"' "$out" || { kill "$pid"; fail "the job never reached settle"; }
	printf 'CORRUPTED' | dd of="$file" bs=1 seek=$((1048576 + 1000)) conv=notrunc status=none
	dd if="$file" of="$file" bs=4096 skip=100 seek=300 count=1 conv=notrunc,fsync status=none
	sync
	set +e
	wait "$pid"
	STATUS=$?
	set -e
	[ "$STATUS" -eq 0 ] || fail "corrupted verify job: exit $STATUS"
	"$CHECK" stream "$out" --final completed --mismatches 3 2
	grep -q '"firstMismatches":\[{"lba":2048,"expected":"job [0-9a-f]* lba 2048 gen [0-9]*","found":"job [0-9a-f]* lba 2048 seq [0-9]* gen [0-9]* crc [0-9a-f]*, but the data.s crc is [0-9a-f]*"},{"lba":2400,"expected":"job [0-9a-f]* lba 2400 gen [0-9]*","found":"job [0-9a-f]* lba 800 ' "$out" ||
		fail "the mismatches name the corrupted block (LBA 2048) and the misdirected one (LBA 2400)"
	echo "ok verify passes on intact data and catches both injected corruptions"
}

case_verify_sim() {
	local out
	start_case verify-sim
	out="$CASE_DIR/sim.jsonl"
	run_json "$out" --engine sim --filename sim:test-client-7pct --sim_medium=1 --range 1% \
		--rw randwrite --bs 4k --iodepth 32 --size 16m --verify
	[ "$STATUS" -eq 0 ] || fail "sim verify: exit $STATUS"
	"$CHECK" stream "$out" --final completed --mismatches 1 0
	echo "ok verify on the simulated drive"
}

case_verify_refuse() {
	local file allow job out
	start_case verify-refuse
	file=$(new_file disk.img 16M)
	dd if=/dev/urandom of="$file" bs=1M count=16 conv=notrunc status=none
	allow="$CASE_DIR/allow.json"
	allow_address "$allow" "$file"
	# Nothing written by this job: a clear refusal, never a pass.
	job="$CASE_DIR/job.json"
	cat >"$job" <<-EOF
		{"schemaVersion":1,"type":"start","commandId":"c-1","jobId":"verify-2","runnerId":"ctest",
		 "issuedAt":"2026-11-22T21:00:00.000Z","device":{"serial":"$(serial_of "$file")","transportAddress":"$file"},
		 "engine":"uring","phases":[{"index":0,"name":"verify","kind":"verify","rangePercent":50}]}
	EOF
	expect_refused invalid-command "$file" --job "$job" --allowlist "$allow"
	grep -q 'phase verify: verify of \[0, 8388608): no earlier phase of this job writes random data there after the last purge, so nothing there was written by this job: nothing to verify' \
		"$CASE_DIR"/refused-invalid-command-*.jsonl || fail "the refusal says why"
	# Written, then purged: nothing of the job's is left to verify.
	expect_refused invalid-command "$file" --purge deallocate --precondition 1 --rw randread \
		--size 4k --allowlist "$allow" --data-pattern zeros --verify
	# The null engine stores nothing.
	run_json "$CASE_DIR/null.jsonl" --engine null --filename null --rw randwrite --size 1m \
		--verify
	[ "$STATUS" -eq 3 ] || fail "verify on the null engine: exit $STATUS"
	grep -q 'can be read back to verify: the null engine stores nothing' "$CASE_DIR/null.jsonl" ||
		fail "the null engine's refusal says why"
	echo "ok a verify of what the job never wrote is refused before any IO"
}

case "${1:?case}" in
purge-proof-loop) case_purge_proof_loop ;;
purge-proof-sim) case_purge_proof_sim ;;
purge-refuse-format) case_purge_refuse_format ;;
probe-loop-no-sys-admin) case_probe_loop_no_sys_admin ;;
verify-loop) case_verify_loop ;;
verify-sim) case_verify_sim ;;
verify-refuse) case_verify_refuse ;;
*) fail "unknown case $1" ;;
esac
echo "PASS $1"
