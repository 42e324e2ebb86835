#!/usr/bin/env bash
# The spdk engine over PCIe: the emulated controller handed to vfio-pci behind the guest's IOMMU,
# hugepages reserved, and the SPDK-built runner (DRIVEQUAL_SPDK_RUNNER on the host) attaching to
# it by its PCI address: identify, Format NVM, Dataset Management, SMART 02h + OCP C0h, 4 KiB random
# write QD32. What the drive holds after Format and DSM is read back through the kernel's nvme
# driver between the SPDK jobs. Runs last: it takes the drive away from the kernel.
source "$(dirname "$0")/lib.sh"

[ -n "$SPDK_RUNNER" ] || skip "no SPDK-enabled runner: build one against an SPDK install and set DRIVEQUAL_SPDK_RUNNER (docs/spdk.md)"
[ -x "$SPDK_RUNNER" ] || fail "DRIVEQUAL_SPDK_RUNNER=$SPDK_RUNNER is not executable in the guest"
RUNNER=$SPDK_RUNNER
"$RUNNER" run --engine spdk --help >/dev/null 2>&1 || fail "$SPDK_RUNNER has no spdk engine"
[ -n "$(ls /sys/kernel/iommu_groups 2>/dev/null)" ] || fail "the guest has no IOMMU (guest.sh adds one with DRIVEQUAL_SPDK_RUNNER)"

BDF=$(basename "$(readlink -f /sys/class/nvme/nvme0/device)")
PCI=/sys/bus/pci/devices/$BDF
figure pciAddress "$BDF"

# bind DRIVER: give the controller to vfio-pci (SPDK) or back to nvme (the kernel checks).
bind() {
	local driver=$1
	if [ -e "$PCI/driver" ]; then
		echo "$BDF" >"$PCI/driver/unbind"
	fi
	echo "$driver" >"$PCI/driver_override"
	echo "$BDF" >/sys/bus/pci/drivers_probe
	for _ in $(seq 1 60); do
		if [ "$(basename "$(readlink -f "$PCI/driver")")" = "$driver" ] &&
			{ [ "$driver" != nvme ] || [ -b "$DEV" ]; }; then
			return 0
		fi
		sleep 1
	done
	fail "$BDF did not bind to $driver"
}

modprobe vfio-pci
echo 128 >/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages
[ "$(cat /sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages)" -eq 128 ] || fail "could not reserve 128 hugepages"
grep -q ' /dev/hugepages ' /proc/mounts || { mkdir -p /dev/hugepages && mount -t hugetlbfs nodev /dev/hugepages; }
ulimit -l unlimited
allow="$SCRATCH/allow.json"
allow_serial "$allow" "$NVME_SERIAL"
spdk=(--engine spdk --spdk_mem_mb=128)
fill='{"name": "fill", "kind": "precondition", "blockSizeBytes": 131072, "queueDepth": 32, "rangePercent": 100, "passes": 1}'
bind vfio-pci
echo "$BDF is on vfio-pci (IOMMU group $(basename "$(readlink -f "$PCI/iommu_group")")); 128 x 2 MiB hugepages"

# identify (read-only: no allowlist) and the SMART/C0h logs through SPDK's admin queue
job_file "$SCRATCH/identify.json" spdk '[{"name": "smart", "kind": "smart"}]'
run_job "$SCRATCH/identify.jsonl" "$BDF" "$SCRATCH/identify.json" "${spdk[@]}"
device=$(event "$SCRATCH/identify.jsonl" accepted | jq -c .device)
echo "identify: $device"
[ "$(jq -r .serial <<<"$device")" = "$NVME_SERIAL" ] || fail "serial $(jq -r .serial <<<"$device")"
[ "$(jq -r .capacityBytes <<<"$device")" -eq "$NVME_BYTES" ] || fail "capacity $(jq -r .capacityBytes <<<"$device")"
[ "$(jq -r .lbaSizeBytes <<<"$device")" -eq "$NVME_LBA_BYTES" ] || fail "LBA size $(jq -r .lbaSizeBytes <<<"$device")"
[ "$(jq -r .transportAddress <<<"$device")" = "trtype:PCIe traddr:$BDF ns:1" ] || fail "address $(jq -r .transportAddress <<<"$device")"
[ "$(event "$SCRATCH/identify.jsonl" smart-snapshot | jq -r '.smart.available and .smart.source == "nvme-log-02h" and (.smart | has("ocp"))')" = true ] ||
	fail "SMART 02h with OCP C0h expected: $(event "$SCRATCH/identify.jsonl" smart-snapshot)"
figure spdkModel "$(jq -r .model <<<"$device")"

# Sanitize is not emulated (SANICAP 0): refused before anything runs, naming what is offered.
job_file "$SCRATCH/sanitize.json" spdk '[{"name": "purge", "kind": "purge", "purgeMethod": "sanitize-block"}]'
run_json "$SCRATCH/sanitize.jsonl" --filename "$BDF" --job "$SCRATCH/sanitize.json" --allowlist "$allow" "${spdk[@]}"
[ "$STATUS" -eq 3 ] || fail "sanitize on a controller without it: exit $STATUS, expected a refusal"
echo "sanitize: $(event "$SCRATCH/sanitize.jsonl" refused | jq -r .message)"

# Format NVM: random before (read by the kernel), zeros after
job_file "$SCRATCH/fill.json" spdk "[$fill]"
run_job "$SCRATCH/fill.jsonl" "$BDF" "$SCRATCH/fill.json" --allowlist "$allow" "${spdk[@]}"
bind nvme
expect_random "$DEV" 0 "$NVME_BYTES"
bind vfio-pci
job_file "$SCRATCH/format.json" spdk '[{"name": "purge", "kind": "purge", "purgeMethod": "format-user-data"}]'
run_job "$SCRATCH/format.jsonl" "$BDF" "$SCRATCH/format.json" --allowlist "$allow" "${spdk[@]}"
proof=$(event "$SCRATCH/format.jsonl" phase-completed 0 | jq -c .purgeVerification)
[ "$(jq -r '"\(.status) \(.coverage) \(.blocksRead) \(.blocksFound)"' <<<"$proof")" = "verified all $((NVME_BYTES / 4096)) 0" ] ||
	fail "the Format was not proven on every block: $proof"
figure spdkPurgeVerification "$(jq -r '"\(.status), \(.blocksRead) blocks read back, \(.blocksFound) found"' <<<"$proof")"
bind nvme
expect_zeros "$DEV" 0 "$NVME_BYTES"
echo "format: random before, all $NVME_BYTES bytes zeros after; purge proof $proof"

# Dataset Management: fill, deallocate the first half; zeros there, data beyond
bind vfio-pci
half=$((NVME_BYTES / 2))
job_file "$SCRATCH/dsm.json" spdk "[$fill, {\"name\": \"deallocate\", \"kind\": \"deallocate\", \"rangePercent\": 50}]"
run_job "$SCRATCH/dsm.jsonl" "$BDF" "$SCRATCH/dsm.json" --allowlist "$allow" "${spdk[@]}"
[ "$(event "$SCRATCH/dsm.jsonl" phase-completed 1 | jq -r .deallocatedBytes)" -eq "$half" ] || fail "deallocatedBytes"
bind nvme
expect_zeros "$DEV" 0 "$half"
expect_random "$DEV" "$half" "$half"
echo "dsm: bytes 0..$half zeros, the rest random"

# 4 KiB random write QD32 with SMART/C0h before and after
bind vfio-pci
job_file "$SCRATCH/randwrite.json" spdk "[{\"name\": \"randwrite-4k-qd32\", \"kind\": \"workload\",
	\"rw\": \"randwrite\", \"blockSizeBytes\": 4096, \"queueDepth\": 32, \"rangePercent\": 100,
	\"runtimeS\": $GUEST_RANDWRITE_S, \"smartSnapshot\": true}]"
out="$SCRATCH/randwrite.jsonl"
run_job "$out" "$BDF" "$SCRATCH/randwrite.json" --allowlist "$allow" "${spdk[@]}"
"$CHECK" stream "$out" --final completed --runtime 0 "$GUEST_RANDWRITE_S" --bs 0 4096 --little 0 0.02 ||
	fail "the job's samples and events do not add up"
iops=$(event "$out" phase-completed 0 | jq -r "(.write.ios / (.durationNs / 1e9)) | floor")
figure spdkIops "$iops"
figure spdkEffectiveQueueDepth "$(event "$out" phase-completed 0 | jq -r '.effectiveQueueDepthMilli / 1000')"
smart_deltas "$out" 0 spdk 4096 32
cp "$out" "$OUT/spdk-randwrite.jsonl"
echo "ok spdk over PCIe ($BDF): identify, sanitize refused (not emulated), Format NVM zeros, DSM zeros, 4KiB randwrite QD32 at $iops IOPS, SMART DUW exact, WAF $WAF"
