#!/usr/bin/env bash
# Dataset Management deallocate of a range (the kernel turns the runner's BLKDISCARD into DSM):
# with discard=unmap the deallocated first half reads as zeros, the second half keeps its data.
source "$(dirname "$0")/lib.sh"

allow="$SCRATCH/allow.json"
allow_serial "$allow" "$NVME_SERIAL"
half=$((NVME_BYTES / 2))
job_file "$SCRATCH/trim.json" uring \
	'[{"name": "fill", "kind": "precondition", "blockSizeBytes": 131072, "queueDepth": 32, "rangePercent": 100, "passes": 1},
	  {"name": "deallocate", "kind": "deallocate", "rangePercent": 50}]'
# The fill is checked before the deallocate by running the two phases as two jobs.
jq -c '.phases |= [.[0]]' "$SCRATCH/trim.json" >"$SCRATCH/fill.json"
jq -c '.phases |= [.[1] | .index = 0] | .jobId += "-d" | .commandId += "-d"' "$SCRATCH/trim.json" >"$SCRATCH/dsm.json"
run_job "$SCRATCH/fill.jsonl" "$DEV" "$SCRATCH/fill.json" --allowlist "$allow"
expect_random "$DEV" 0 "$NVME_BYTES"
run_job "$SCRATCH/dsm.jsonl" "$DEV" "$SCRATCH/dsm.json" --allowlist "$allow"
completed=$(event "$SCRATCH/dsm.jsonl" phase-completed 0)
[ "$(jq -r .deallocatedBytes <<<"$completed")" -eq "$half" ] ||
	fail "deallocatedBytes $(jq -r .deallocatedBytes <<<"$completed"), expected $half"
figure deallocatedBytes "$half"
figure deallocateDurationNs "$(jq -r .durationNs <<<"$completed")"
expect_zeros "$DEV" 0 "$half"
expect_random "$DEV" "$half" "$half"
echo "ok DSM deallocate of bytes 0..$half: zeros there, the random data beyond it intact"
