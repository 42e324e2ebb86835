#!/usr/bin/env bash
# Flexible Data Placement (NVMe TP4146) on QEMU's FDP controller (its own subsystem, serial
# FDP_SERIAL: 2 reclaim groups, 8 reclaim unit handles of 96 MiB): the runner's inventory shows the
# configuration as nvme-cli reads it; placed writes of two streams (handles 1 and 2) go as NVMe
# Writes with the placement directive through io_uring passthrough, and the drive's own Reclaim
# Unit Handle Status (I/O Management Receive, read with nvme-cli) shows each stream's blocks in its
# handle's reclaim unit and none in the others (handle 0 takes unplaced writes); the FDP
# Statistics log's host and media bytes grow by exactly what was written. QEMU has no garbage
# collection, so media bytes = host bytes (WAF 1) by construction: this proves the plumbing, the
# simulator the write amplification. A handle out of range, a placed write larger than one NVMe
# command carries, and placement on the main drive (no FDP) are refused before any write.
source "$(dirname "$0")/lib.sh"

command -v nvme >/dev/null || fail "nvme-cli is not installed: run .ci/install-guest-tools"
FDP_CTRL=""
for ctrl in /sys/class/nvme/nvme*; do
	[ "$(xargs <"$ctrl/serial")" = "$FDP_SERIAL" ] && FDP_CTRL=/dev/$(basename "$ctrl")
done
[ -n "$FDP_CTRL" ] || fail "no controller with serial $FDP_SERIAL (is the FDP controller attached?)"
FDP_DEV=${FDP_CTRL}n1
[ "$DEV" != "$FDP_DEV" ] || fail "the FDP namespace took the main drive's name $DEV"
ENDGID=$(nvme id-ns "$FDP_DEV" -o json | jq -r .endgid)
echo "FDP namespace $FDP_DEV (controller $FDP_CTRL, endurance group $ENDGID)"
no_merges

# The drive's own answers, through nvme-cli (an independent reader of the same logs).
nvme fdp configs "$FDP_CTRL" -e "$ENDGID" -o json >"$SCRATCH/configs.json" || fail "nvme fdp configs"
echo "nvme fdp configs: $(jq -c . "$SCRATCH/configs.json")"

# stats: "HOST MEDIA" bytes of the FDP Statistics log (22h).
stats() {
	nvme fdp stats "$FDP_CTRL" -e "$ENDGID" -o json | jq -r '"\(.hbmw | tonumber) \(.mbmw | tonumber)"'
}
# ruamw: "PID RUAMW" per reclaim unit handle status descriptor of the namespace.
ruamw() {
	nvme fdp status "$FDP_DEV" -o json | jq -r '.ruhss[] | "\(.pid) \(.ruamw)"' | sort -n
}

# 1. The inventory.
allow="$SCRATCH/allow.json"
echo "{\"devices\": [{\"serial\": \"$NVME_SERIAL\"}, {\"serial\": \"$FDP_SERIAL\"}]}" >"$allow"
hb="$SCRATCH/heartbeat.json"
"$RUNNER" devices --output-format json --runner-id guest --allowlist "$allow" >"$hb" || fail "devices failed"
"$RUNNER" validate runner-heartbeat "$hb" >/dev/null || fail "the heartbeat breaks the contract"
fdp=$(jq -c --arg dev "$FDP_DEV" '.devices[] | select(.device.transportAddress == $dev) | .capabilities[] | select(.name == "fdp")' "$hb")
main=$(jq -c --arg dev "$DEV" '.devices[] | select(.device.transportAddress == $dev) | .capabilities[] | select(.name == "fdp")' "$hb")
echo "inventory: $FDP_DEV fdp $fdp"
echo "inventory: $DEV fdp $main"
figure inventory "$(jq -r .detail <<<"$fdp")"
[ "$(jq -r '.available and .enabled' <<<"$fdp")" = true ] || fail "FDP not available and enabled: $fdp"
expected=$(jq -r '.configs[0] | "\(.nrg) reclaim groups, \(.nruh) reclaim unit handles, reclaim unit \(.runs) bytes"' "$SCRATCH/configs.json")
[ "$expected" = "2 reclaim groups, 8 reclaim unit handles, reclaim unit 100663296 bytes" ] ||
	fail "nvme-cli reads another configuration than QEMU was given: $expected"
jq -r .detail <<<"$fdp" | grep -qF "$expected (configuration 0 of 1)" ||
	fail "the inventory says '$(jq -r .detail <<<"$fdp")', nvme-cli '$expected'"
[ "$(jq -r '.available' <<<"$main")" = false ] || fail "the main drive claims FDP: $main"

# 2. Refusals before any write: a handle out of range; placement on the drive without FDP.
expect_refused invalid-command "$FDP_DEV" --runtime 1 --allowlist "$allow" --serial "$FDP_SERIAL" \
	--stream name=hot,rw=randwrite,bs=4k,iodepth=8,fdp_pli=8
grep -h "out of range" "$SCRATCH"/refused-invalid-command-*.jsonl.err | tail -1 |
	grep -q "placementHandle 8 is out of range: the drive has 8 reclaim unit handles (0..7)" ||
	fail "the refusal names the range"
rm -f "$SCRATCH"/refused-invalid-command-*
# NVMe passthrough is not split as the block layer splits IOs: a write larger than the drive's
# largest transfer (max_hw_sectors_kb) is refused before any IO rather than failed by the kernel.
expect_refused invalid-command "$FDP_DEV" --runtime 1 --allowlist "$allow" --serial "$FDP_SERIAL" \
	--stream name=big,rw=write,bs=2m,iodepth=1,fdp_pli=1
grep -h "placementHandle 1: a 2097152-byte write is larger than the $(($(cat /sys/block/$(basename "$FDP_DEV")/queue/max_hw_sectors_kb) * 1024)) bytes" \
	"$SCRATCH"/refused-invalid-command-*.jsonl.err || fail "the refusal names the largest transfer"
rm -f "$SCRATCH"/refused-invalid-command-*
expect_refused invalid-command "$DEV" --runtime 1 --allowlist "$allow" --serial "$NVME_SERIAL" \
	--stream name=hot,rw=randwrite,bs=4k,iodepth=8,fdp_pli=0
grep -q "the drive has no Flexible Data Placement (Identify Controller: CTRATT bit 19 clear" \
	"$SCRATCH"/refused-invalid-command-*.jsonl.err || fail "the refusal names the missing FDP"
figure refusals 3

# 3. Placed writes: two streams, handles 1 and 2, paced so neither fills its 96 MiB reclaim unit
# (24,576 blocks: RUAMW then counts down without a new unit).
read -r hbmw0 mbmw0 < <(stats)
ruamw0=$(ruamw)
echo "before: HBMW $hbmw0 MBMW $mbmw0; RUAMW by placement id:"
echo "$ruamw0" | sed 's/^/  /'
out="$SCRATCH/placed.jsonl"
run_json "$out" --filename "$FDP_DEV" --allowlist "$allow" --serial "$FDP_SERIAL" --runtime 5 --smart \
	--stream name=hot,rw=randwrite,bs=4k,iodepth=8,size=50%,rate_iops=1000,fdp_pli=1 \
	--stream name=cold,rw=randwrite,bs=4k,iodepth=8,offset=50%,size=50%,rate_iops=1000,fdp_pli=2
[ "$STATUS" -eq 0 ] || fail "the placed job: exit $STATUS: $(jq -r 'select(.type == "failed" or .type == "refused") | .message' "$out")"
cp "$out" "$OUT/fdp-placed.jsonl"
completed=$(event "$out" phase-completed 0)
written=$(jq -r .write.bytes <<<"$completed")
hot=$(jq -r '.streams[] | select(.name == "hot") | .write.ios' <<<"$completed")
cold=$(jq -r '.streams[] | select(.name == "cold") | .write.ios' <<<"$completed")
read -r hbmw1 mbmw1 < <(stats)
ruamw1=$(ruamw)
echo "after: HBMW $hbmw1 MBMW $mbmw1; RUAMW by placement id:"
echo "$ruamw1" | sed 's/^/  /'
figure hostBytesWritten "$written"
figure hotWrites "$hot"
figure coldWrites "$cold"
figure fdpHostBytesDelta "$((hbmw1 - hbmw0))"
figure fdpMediaBytesDelta "$((mbmw1 - mbmw0))"
[ "$hot" -gt 0 ] && [ "$cold" -gt 0 ] && [ "$written" -eq $(((hot + cold) * 4096)) ] ||
	fail "streams wrote $hot and $cold blocks, $written bytes"
# Each placement id's RUAMW drop: handle 1 took the hot stream's blocks, handle 2 the cold's, no
# other handle (in either reclaim group) any.
while read -r pid before; do
	after=$(awk -v p="$pid" '$1 == p { print $2 }' <<<"$ruamw1")
	drop=$((before - after))
	case $pid in
	1) expected=$hot ;;
	2) expected=$cold ;;
	*) expected=0 ;;
	esac
	[ "$drop" -eq "$expected" ] || fail "placement id $pid: RUAMW fell by $drop blocks, expected $expected"
	[ "$drop" -eq 0 ] || figure "ruamwDrop.pid$pid" "$drop"
done <<<"$ruamw0"
[ $((hbmw1 - hbmw0)) -eq "$written" ] || fail "FDP host bytes grew by $((hbmw1 - hbmw0)), the runner wrote $written"
[ $((mbmw1 - mbmw0)) -eq "$written" ] || fail "FDP media bytes grew by $((mbmw1 - mbmw0)), the runner wrote $written"
# The runner's own readings of the same log: its SMART snapshots before and after the phase and
# its health readings carry the FDP statistics, so device-level WAF is a series.
snap() {
	jq -r --arg w "$1" 'select(.type == "smart-snapshot" and .when == $w) | .smart.fdp | "\(.hostBytesWritten) \(.mediaBytesWritten)"' "$out"
}
read -r rh0 rm0 < <(snap before)
read -r rh1 rm1 < <(snap after)
echo "runner's snapshots: FDP host bytes $rh0 -> $rh1, media bytes $rm0 -> $rm1"
[ "$rh0 $rm0" = "$hbmw0 $mbmw0" ] && [ "$rh1 $rm1" = "$hbmw1 $mbmw1" ] ||
	fail "the runner's FDP statistics ($rh0 $rm0 -> $rh1 $rm1) are not nvme-cli's ($hbmw0 $mbmw0 -> $hbmw1 $mbmw1)"
readings=$(jq -c 'select(.type == "health") | .smart.fdp' "$out" | grep -c hostBytesWritten || true)
[ "$readings" -ge 2 ] || fail "$readings health readings carry the FDP statistics"
figure healthReadingsWithFdp "$readings"
figure fdpWaf "$(awk -v m=$((rm1 - rm0)) -v h=$((rh1 - rh0)) 'BEGIN { printf "%.4f", m / h }')"
events=$(nvme fdp events "$FDP_CTRL" -e "$ENDGID" -o json | jq -c . || true)
echo "nvme fdp events (host): $events"
figure fdpHostEvents "$(jq -r '.n // 0' <<<"$events" 2>/dev/null || echo 0)"
echo "ok FDP: inventory '$(jq -r .detail <<<"$fdp")' as nvme-cli reads it; $hot hot writes in handle 1, $cold cold in handle 2, none elsewhere;" \
	"FDP stats host and media bytes +$written each (WAF 1: QEMU has no GC), the runner's snapshots and $readings health readings agreeing; 3 refusals before any write"
