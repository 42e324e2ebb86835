#!/usr/bin/env bash
# 4 KiB random write at QD32 (GUEST_RANDWRITE_S seconds) with SMART snapshots before and after:
# the SMART 02h Data Units Written delta is the host's bytes to the unit, the OCP C0h physical
# media bytes grow by exactly the bytes written, and so WAF = 1 (an emulated drive has no FTL).
# The health read during the job (every 10 s by default) is decoded as QEMU emulates it: a fixed
# composite temperature of 323 K, WCTEMP 343 K and CCTEMP 373 K from Identify, no critical warning.
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
health=$(jq -c 'select(.type == "health") | .smart' "$out")
readings=$(grep -c . <<<"$health")
figure healthReadings "$readings"
# at the workload's start, every 10 s of it, at the smart phase's start and at the end
[ "$readings" -ge 3 ] || fail "$readings health readings in a ${GUEST_RANDWRITE_S} s job"
for field in temperatureK warningTemperatureThresholdK criticalTemperatureThresholdK criticalWarning; do
	figure "health.$field" "$(jq -s -r "map(.$field) | unique | join(\",\")" <<<"$health")"
done
jq -e -s 'all(.available and .source == "nvme-log-02h" and .temperatureK == 323
	and .warningTemperatureThresholdK == 343 and .criticalTemperatureThresholdK == 373
	and .criticalWarning == 0)' <<<"$health" >/dev/null ||
	fail "health readings are not QEMU's 323 K, WCTEMP 343 K, CCTEMP 373 K, no warning: $health"
echo "ok 4KiB randwrite QD32 ${GUEST_RANDWRITE_S} s at $iops IOPS; SMART DUW delta exact, C0h PMUW delta = host bytes, WAF $WAF;" \
	"$readings health readings at 323 K (WCTEMP 343 K, CCTEMP 373 K), no critical warning"
