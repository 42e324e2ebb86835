#!/usr/bin/env bash
# The purge proof on a real NVMe controller: a purge the controller cannot do (Sanitize) refused
# before any write, naming what it lacks; Format NVM (SES 1) preceded by canaries over the whole
# 64 MiB namespace (16384 units of 4 KiB, coverage "all"), none of which may read back after it;
# then a purge that reports success and erases nothing (the test build's fault switch) caught on
# every canary. A runner built without the switch (Release) must still prove the real erase.
source "$(dirname "$0")/lib.sh"

units=$((NVME_BYTES / 4096))
allow="$SCRATCH/allow.json"
allow_serial "$allow" "$NVME_SERIAL"

# Bad input first: QEMU's controller has no Sanitize (SANICAP 0), so a sanitize purge is refused
# before any canary is written, naming what is missing; the namespace is unchanged (sha256).
job_file "$SCRATCH/sanitize.json" uring '[{"name": "purge", "kind": "purge", "purgeMethod": "sanitize-block"}]'
expect_refusal "$SCRATCH/sanitize.json" "$allow" \
	"cannot purge with sanitize-block: it lacks Sanitize (block erase) \[sanitize-block: device-lacks-it (Identify Controller: SANICAP bit 1 clear, no block erase sanitize)\] (the device offers: .*format-user-data.*); .*nothing was written" \
	sanitizeRefusal
job_file "$SCRATCH/purge.json" uring '[{"name": "purge", "kind": "purge", "purgeMethod": "format-user-data"}]'
run_job "$SCRATCH/purge.jsonl" "$DEV" "$SCRATCH/purge.json" --allowlist "$allow"
proof=$(event "$SCRATCH/purge.jsonl" phase-completed 0 | jq -c .purgeVerification)
echo "purge proof: $proof"
[ "$proof" = "{\"method\":\"format-user-data\",\"status\":\"verified\",\"coverage\":\"all\",\"canaryBlocks\":$units,\"blocksRead\":$units,\"lbasRead\":$units,\"bytesRead\":$NVME_BYTES,\"blocksFound\":0}" ] ||
	fail "Format NVM was not proven over all $units blocks: $proof"
figure purgeStatus verified
figure purgeBlocksRead "$units"
figure purgeBytesRead "$NVME_BYTES"
figure purgeBlocksFound 0
expect_zeros "$DEV" 0 "$NVME_BYTES"

job_file "$SCRATCH/silent.json" uring '[{"name": "purge", "kind": "purge", "purgeMethod": "format-user-data"}]'
DRIVEQUAL_TEST_FAULT=skip-erase run_job "$SCRATCH/silent.jsonl" "$DEV" "$SCRATCH/silent.json" \
	--allowlist "$allow"
proof=$(event "$SCRATCH/silent.jsonl" phase-completed 0 | jq -c .purgeVerification)
echo "silent purge proof: $proof"
if grep -q "TEST FAULT ACTIVE" "$SCRATCH/silent.jsonl.err"; then
	[ "$(jq -r '"\(.status) \(.blocksFound) \(.blocksRead)"' <<<"$proof")" = "failed $units $units" ] ||
		fail "a purge that erased nothing was not caught on all $units canaries: $proof"
	figure silentPurgeStatus failed
	figure silentPurgeBlocksFound "$units"
	echo "ok Format NVM proven on all $units blocks; a purge that erased nothing caught on all $units"
else
	[ "$(jq -r .status <<<"$proof")" = verified ] || fail "without the fault switch the purge must verify: $proof"
	figure silentPurgeStatus "no fault switch in this build"
	echo "ok Format NVM proven on all $units blocks (this runner has no fault switch)"
fi
