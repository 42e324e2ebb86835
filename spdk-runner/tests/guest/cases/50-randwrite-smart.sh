#!/usr/bin/env bash
# 4 KiB random write at QD32 (GUEST_RANDWRITE_S seconds) with SMART snapshots before and after:
# the SMART 02h Data Units Written delta is the host's bytes to the unit, the OCP C0h physical
# media bytes grow by exactly the bytes written, and so WAF = 1 (an emulated drive has no FTL).
source "$(dirname "$0")/lib.sh"

# One 4 KiB IO is one NVMe write command only if the block layer merges no neighbours, on the
# namespace and on its multipath path (nvme0c0n1), where requests are built: the drive's command
# count then tells how many IOs it took (see smart_deltas).
no_merges
allow="$SCRATCH/allow.json"
allow_serial "$allow" "$NVME_SERIAL"
job_file "$SCRATCH/randwrite.json" uring "[{\"name\": \"randwrite-4k-qd32\", \"kind\": \"workload\",
	\"rw\": \"randwrite\", \"blockSizeBytes\": 4096, \"queueDepth\": 32, \"rangePercent\": 100,
	\"runtimeS\": $GUEST_RANDWRITE_S, \"smartSnapshot\": true},
	{\"name\": \"settled\", \"kind\": \"smart\"}]"
out="$SCRATCH/randwrite.jsonl"
run_job "$out" "$DEV" "$SCRATCH/randwrite.json" --allowlist "$allow"
cp "$out" "$OUT/randwrite.jsonl"
"$CHECK" stream "$out" --final completed --runtime 0 "$GUEST_RANDWRITE_S" --bs 0 4096 ||
	fail "the job's samples and events do not add up"
completed=$(event "$out" phase-completed 0)
iops=$(jq -r "(.write.ios / (.durationNs / 1e9)) | floor" <<<"$completed")
figure iops "$iops"
figure samples "$(jq -r .samples <<<"$completed")"
smart_deltas "$out" 0 "" 4096 32
echo "ok 4KiB randwrite QD32 ${GUEST_RANDWRITE_S} s at $iops IOPS; SMART DUW delta exact, C0h PMUW delta = host bytes, WAF $WAF"
