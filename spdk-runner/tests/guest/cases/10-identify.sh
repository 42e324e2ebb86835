#!/usr/bin/env bash
# Identify through the kernel path: the runner's inventory (the agent's heartbeat) and a job's
# accepted event must name the drive exactly as QEMU was told to build it (serial, capacity, LBA
# format), read from Identify Controller/Namespace over the NVMe passthrough ioctls. Then the OCP
# logs as QEMU 10 emulates them: C0h log page version 5 under the OCP GUID with the media bytes
# filled and every other member the version defines decoded as the zeros QEMU leaves; no C3h, which
# the snapshot reports as missing (the drive's own answer) rather than decoding garbage; a job that
# asks for the latency monitor is refused on a drive not allowlisted and, allowlisted, runs without
# configuring a monitor the drive does not have.
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

# C0h as QEMU fills it: version 5, the OCP GUID (else ocp would be absent and ocpReason set), the
# media bytes (read: the kernel's probe of the namespace; written: the randwrite-smart case checks
# them to the byte), and the 50 other members version 5 defines all zero.
ocp=$(jq -c .ocp <<<"$snapshot")
echo "C0h: $ocp"
[ "$(jq -r 'has("ocpReason")' <<<"$snapshot")" = false ] || fail "C0h refused: $(jq -r .ocpReason <<<"$snapshot")"
[ "$(jq -r .logPageVersion <<<"$ocp")" -eq 5 ] || fail "QEMU 10 emulates C0h version 5, the runner read $(jq -r .logPageVersion <<<"$ocp")"
members=$(jq -r 'keys | length' <<<"$ocp")
[ "$members" -eq 53 ] || fail "version 5 defines 53 members (with logPageVersion), the runner decoded $members: $ocp"
[ "$(jq -r '(.physicalMediaUnitsWrittenBytes | type) == "number" and .physicalMediaUnitsReadBytes > 0' <<<"$ocp")" = true ] ||
	fail "QEMU fills the media bytes written and read: $ocp"
nonzero=$(jq -r 'del(.logPageVersion, .physicalMediaUnitsWrittenBytes, .physicalMediaUnitsReadBytes) | to_entries | map(select(.value != 0) | .key) | join(",")' <<<"$ocp")
[ -z "$nonzero" ] || fail "QEMU leaves every other C0h member zero; decoded nonzero: $nonzero"
figure c0LogPageVersion "$(jq -r .logPageVersion <<<"$ocp")"
figure c0Members "$members"
figure c0PhysicalMediaUnitsWrittenBytes "$(jq -r .physicalMediaUnitsWrittenBytes <<<"$ocp")"
# C3h: QEMU has no latency monitor log; the runner says so with the drive's answer
[ "$(jq -r 'has("latencyMonitor")' <<<"$snapshot")" = false ] || fail "QEMU has no C3h, yet one was decoded: $snapshot"
c3=$(jq -r '.latencyMonitorReason // ""' <<<"$snapshot")
echo "C3h: $c3"
grep -q 'no OCP Latency Monitor (C3h) log: Get Log Page C3h: the drive answered NVMe status 0x' <<<"$c3" ||
	fail "the snapshot must say the drive has no C3h, with its status: '$c3'"
figure c3Reason "$c3"

# Asking for the latency monitor changes drive state: refused when the drive is not allowlisted,
# before any IO (namespace unchanged) ...
lm_job="$SCRATCH/latency-monitor.json"
job_file "$lm_job" uring '[{"name": "smart", "kind": "smart"}]'
jq -c '. + {latencyMonitor: {thresholdsMs: [5, 10, 20, 50]}}' "$lm_job" >"$lm_job.tmp" && mv "$lm_job.tmp" "$lm_job"
"$RUNNER" validate job-command "$lm_job" >/dev/null || fail "$lm_job breaks the contract"
allow_serial "$SCRATCH/other.json" "SOME-OTHER-SERIAL"
expect_refused not-allowlisted "$DEV" --job "$lm_job" --allowlist "$SCRATCH/other.json"
refusal=$(jq -r 'select(.type == "refused") | .message' "$CASE_DIR"/refused-not-allowlisted-*.jsonl)
grep -q 'Set Features C5h' <<<"$refusal" || fail "the refusal must name Set Features C5h: $refusal"
figure latencyMonitorRefusal "$refusal"
# ... and allowlisted, the job runs: a drive without C3h is left unconfigured, its snapshot says why
run_job "$SCRATCH/latency-monitor.jsonl" "$DEV" "$lm_job" --allowlist "$allow"
grep -q 'no OCP Latency Monitor (C3h) log' <<<"$(event "$SCRATCH/latency-monitor.jsonl" smart-snapshot | jq -r .smart.latencyMonitorReason)" ||
	fail "the allowlisted job's snapshot must say why there is no latency monitor"
echo "ok $DEV is $(jq -r '"\(.serial), \(.model), firmware \(.firmware), \(.capacityBytes) bytes, \(.lbaSizeBytes)-byte LBAs"' <<<"$device"); SMART 02h read; C0h version $(jq -r .logPageVersion <<<"$ocp"), $members members, media bytes read $(jq -r .physicalMediaUnitsReadBytes <<<"$ocp"), the rest zero; C3h absent (said so); latency monitor refused unallowlisted, skipped allowlisted"
