#!/usr/bin/env bash
# Format NVM as the purge (SES 1, user data erase) through the kernel's NVMe admin passthrough: a
# namespace filled with random data reads back as zeros, every byte of it.
source "$(dirname "$0")/lib.sh"

allow="$SCRATCH/allow.json"
allow_serial "$allow" "$NVME_SERIAL"
job_file "$SCRATCH/fill.json" uring \
	'[{"name": "fill", "kind": "precondition", "blockSizeBytes": 131072, "queueDepth": 32, "rangePercent": 100, "passes": 1}]'
run_job "$SCRATCH/fill.jsonl" "$DEV" "$SCRATCH/fill.json" --allowlist "$allow"
[ "$(event "$SCRATCH/fill.jsonl" phase-completed 0 | jq -r .write.bytes)" -eq "$NVME_BYTES" ] ||
	fail "the fill did not write the whole namespace"
expect_random "$DEV" 0 "$NVME_BYTES"
echo "filled: $NVME_BYTES bytes of fresh random data"

job_file "$SCRATCH/purge.json" uring '[{"name": "purge", "kind": "purge", "purgeMethod": "format-user-data"}]'
run_job "$SCRATCH/purge.jsonl" "$DEV" "$SCRATCH/purge.json" --allowlist "$allow"
completed=$(event "$SCRATCH/purge.jsonl" phase-completed 0)
[ "$(jq -r .kind <<<"$completed")" = purge ] || fail "no purge phase: $completed"
figure formatDurationNs "$(jq -r .durationNs <<<"$completed")"
expect_zeros "$DEV" 0 "$NVME_BYTES"
figure zeroBytesVerified "$NVME_BYTES"
echo "ok Format NVM (user data erase): all $NVME_BYTES bytes read as zeros after, random before"
