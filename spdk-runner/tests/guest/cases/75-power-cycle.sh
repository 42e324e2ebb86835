#!/usr/bin/env bash
# Power-loss integrity through the guest's own power path: the pci-slot power driver turns the
# emulated controller's PCIe slot off and on (/sys/bus/pci/slots/1/power, pciehp), 5 cycles. QEMU
# destroys the controller when its slot goes off and guest.sh's replug.py puts an identical one
# back on the same backing file, so after each cut the namespace comes back cold (new controller,
# re-enumerated) and the runner finds it again by serial and reopens it. QEMU declares a volatile
# write cache, so the phase flushes (the uring engine's flush: an NVMe Flush through the block
# layer) and holds the drive to "flushed writes survive"; its backing file keeps every write it
# took, so the drive behaves like one with power-loss protection and every cycle must PASS. The
# refusals come first, each before any write (sha256 unchanged): a powerSlot that is no slot, and
# no power driver.
source "$(dirname "$0")/lib.sh"
# shellcheck source=../drive.sh
source "$(dirname "$0")/../drive.sh"

SLOT=/sys/bus/pci/slots/1
CYCLES=5
[ -w "$SLOT/power" ] || fail "no writable $SLOT/power: the controller is not in guest.sh's hot-plug root port ($(ls /sys/bus/pci/slots 2>&1))"
[ "$(cat "$SLOT/address").0" = "$(basename "$(readlink -f /sys/class/nvme/nvme0/device)")" ] ||
	fail "slot 1 ($(cat "$SLOT/address")) does not hold nvme0 ($(readlink -f /sys/class/nvme/nvme0/device))"
replugs_before=$(wc -l <"$OUT/replug.log" 2>/dev/null || echo 0)

phases() {
	jq -c -n --arg driver "$1" --argjson cycles "$CYCLES" \
		'[{name: "power-cycles", kind: "power-cycle", queueDepth: 8, rangePercent: 25,
		   powerCycle: {powerDriver: $driver, cycles: $cycles, writesPerCycle: 1000,
				flushEvery: 128}}]'
}

# Bad input: a powerSlot that is no slot of this host, and no power driver at all.
echo "{\"devices\": [{\"serial\": \"$NVME_SERIAL\", \"powerSlot\": \"9\"}]}" >"$SCRATCH/allow-slot9.json"
job_file "$SCRATCH/slot9.json" uring "$(phases pci-slot)"
expect_refusal "$SCRATCH/slot9.json" "$SCRATCH/allow-slot9.json" \
	"the allowlisted powerSlot '9' is not a PCIe slot" wrongSlotRefusal
echo "{\"devices\": [{\"serial\": \"$NVME_SERIAL\", \"powerSlot\": \"1\"}]}" >"$SCRATCH/allow.json"
job_file "$SCRATCH/none.json" uring "$(phases none)"
expect_refusal "$SCRATCH/none.json" "$SCRATCH/allow.json" "no power driver configured" noDriverRefusal

job_file "$SCRATCH/cycles.json" uring "$(phases pci-slot)"
out="$SCRATCH/cycles.jsonl"
started=$(date +%s.%N)
run_job "$out" "$DEV" "$SCRATCH/cycles.json" --allowlist "$SCRATCH/allow.json"
seconds=$(awk -v now="$(date +%s.%N)" -v then="$started" 'BEGIN { printf "%.1f", now - then }')
result=$(event "$out" phase-completed 0 | jq -c .powerCycle)
echo "power cycles: $(jq -c 'del(.perCycle)' <<<"$result")"
jq -c '.perCycle[]' <<<"$result"
[ "$(jq -r '"\(.powerDriver) \(.durability) \(.cycles) \(.cyclesPassed) \(.verdict)"' <<<"$result")" = "pci-slot on-flush $CYCLES $CYCLES pass" ] ||
	fail "expected $CYCLES cycles through pci-slot, on-flush, all passed: $result"
[ "$(jq -r '"\(.lostDurable) \(.corrupt)"' <<<"$result")" = "0 0" ] ||
	fail "flushed writes lost or blocks corrupt: $result"
[ "$(jq -r '.flushes > 0 and .acknowledgedWrites >= 5 * 500' <<<"$result")" = true ] ||
	fail "the phase must have written and flushed: $result"
[ "$(jq -r '[.perCycle[] | select(.verdict == "pass")] | length' <<<"$result")" = "$CYCLES" ] ||
	fail "every cycle must pass: $result"
# QEMU's replug: one new controller per cut
replugs=$(($(wc -l <"$OUT/replug.log" 2>/dev/null || echo 0) - replugs_before))
# The runner found the namespace by serial under whatever name it came back with: the kernel frees
# a controller's instance number only when its last holder is gone, which the runner's ring may
# still be when the new controller probes (nvme1n1 then). The next cases expect nvme0n1: with
# nothing holding the drive now, one more slot cycle gives the kernel's instance 0 back.
namespace=none controller=none
for disk in /sys/class/block/nvme*; do
	[[ "$(basename "$disk")" =~ ^nvme[0-9]+n1$ ]] && grep -qs "^$NVME_SERIAL" "$disk/device/serial" &&
		namespace=$(basename "$disk")
done
for ctrl in /sys/class/nvme/nvme*; do
	grep -qs "^$NVME_SERIAL" "$ctrl/serial" && controller=$(basename "$ctrl")
done
echo "after the cycles the drive is $namespace on controller $controller"
figure namespaceAfterCycles "$namespace"
figure controllerAfterCycles "$controller"
back_as_nvme0() {
	local tries
	for tries in 1 2 3; do
		[ -b /dev/nvme0n1 ] && [ "$(tr -d ' ' </sys/class/nvme/nvme0/serial)" = "$NVME_SERIAL" ] && return 0
		echo "cycling slot 1 once more (try $tries) for nvme0n1 on nvme0"
		echo 0 >"$SLOT/power" || true
		for _ in $(seq 1 300); do
			[ "$(cat "$SLOT/power")" = 1 ] || echo 1 >"$SLOT/power" 2>/dev/null || true
			[ -b /dev/nvme0n1 ] && break
			sleep 0.2
		done
	done
	[ -b /dev/nvme0n1 ] && [ "$(tr -d ' ' </sys/class/nvme/nvme0/serial)" = "$NVME_SERIAL" ]
}
back_as_nvme0 || fail "the drive did not come back as nvme0n1 after the cycles ($(ls /sys/class/block))"
for name in cycles cyclesPassed acknowledgedWrites flushes intact lostAllowed lostDurable corrupt inFlightAtCut inFlightLost; do
	figure "$name" "$(jq -r ".$name" <<<"$result")"
done
figure durability "$(jq -r .durability <<<"$result")"
figure replugs "$replugs"
figure phaseSeconds "$seconds"
echo "ok $CYCLES power cycles through PCIe slot 1: the drive came back each time ($replugs replugs), every cycle passed; $(jq -r '"\(.acknowledgedWrites) writes acknowledged, \(.flushes) flushes, \(.intact) blocks intact, \(.lostAllowed) lost (allowed), \(.lostDurable) lost durable, \(.corrupt) corrupt"' <<<"$result")"
