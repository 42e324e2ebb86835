#!/usr/bin/env bash
# Identify through the kernel path: the runner's inventory (the agent's heartbeat) and a job's
# accepted event must name the drive exactly as QEMU was told to build it (serial, capacity, LBA
# format), read from Identify Controller/Namespace over the NVMe passthrough ioctls.
source "$(dirname "$0")/lib.sh"

allow="$SCRATCH/allow.json"
allow_serial "$allow" "$NVME_SERIAL"
"$RUNNER" devices --output-format json --runner-id guest --allowlist "$allow" >"$SCRATCH/heartbeat.json"
"$RUNNER" validate runner-heartbeat "$SCRATCH/heartbeat.json" >/dev/null || fail "the heartbeat breaks the contract"
entry=$(jq -c --arg dev "$DEV" '.devices[] | select(.device.transportAddress == $dev)' "$SCRATCH/heartbeat.json")
[ -n "$entry" ] || fail "the inventory does not list $DEV: $(cat "$SCRATCH/heartbeat.json")"
echo "inventory: $entry"
device=$(jq -c .device <<<"$entry")
for field in serial model firmware capacityBytes lbaSizeBytes; do
	figure "$field" "$(jq -r ".$field" <<<"$device")"
done
[ "$(jq -r .serial <<<"$device")" = "$NVME_SERIAL" ] || fail "serial $(jq -r .serial <<<"$device"), QEMU was given $NVME_SERIAL"
[ "$(jq -r .model <<<"$device")" = "QEMU NVMe Ctrl" ] || fail "model $(jq -r .model <<<"$device")"
[ "$(jq -r .capacityBytes <<<"$device")" -eq "$NVME_BYTES" ] || fail "capacity $(jq -r .capacityBytes <<<"$device"), QEMU was given $NVME_BYTES"
[ "$(jq -r .lbaSizeBytes <<<"$device")" -eq "$NVME_LBA_BYTES" ] || fail "LBA size $(jq -r .lbaSizeBytes <<<"$device"), QEMU was given $NVME_LBA_BYTES"
[ "$(jq -r .engine <<<"$device")" = uring ] || fail "engine $(jq -r .engine <<<"$device")"
[ -n "$(jq -r .firmware <<<"$device")" ] || fail "no firmware revision"
[ "$(jq -r '.allowlisted and .state == "idle"' <<<"$entry")" = true ] || fail "not allowlisted and idle: $entry"

# The kernel's view agrees (it read the same Identify data).
[ "$(cat /sys/block/nvme0n1/queue/logical_block_size)" -eq "$NVME_LBA_BYTES" ] || fail "the kernel sees another LBA size"
[ $(($(cat /sys/block/nvme0n1/size) * 512)) -eq "$NVME_BYTES" ] || fail "the kernel sees another capacity"

# A read-only job (no allowlist needed) opens it through the engine and names the same device.
job="$SCRATCH/identify.json"
job_file "$job" uring '[{"name": "smart", "kind": "smart"}]'
run_job "$SCRATCH/identify.jsonl" "$DEV" "$job"
accepted=$(event "$SCRATCH/identify.jsonl" accepted | jq -c .device)
[ "$(jq -c 'del(.transportAddress)' <<<"$accepted")" = "$(jq -c 'del(.transportAddress)' <<<"$device")" ] ||
	fail "the job's device $accepted differs from the inventory's $device"
snapshot=$(event "$SCRATCH/identify.jsonl" smart-snapshot | jq -c .smart)
[ "$(jq -r '.available and .source == "nvme-log-02h" and has("ocp")' <<<"$snapshot")" = true ] ||
	fail "SMART 02h with the OCP C0h counters expected: $snapshot"
echo "ok $DEV is $(jq -r '"\(.serial), \(.model), firmware \(.firmware), \(.capacityBytes) bytes, \(.lbaSizeBytes)-byte LBAs"' <<<"$device"); SMART 02h and C0h read"
