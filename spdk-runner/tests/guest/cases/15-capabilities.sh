#!/usr/bin/env bash
# What the runner probes on a real NVMe controller (QEMU's), with CAP_SYS_ADMIN and without it (as
# the Helm chart's default runner has it): every capability of the heartbeat's inventory, each
# missing one with its reason, the way the service will refuse a plan before it runs. QEMU's
# controller: Format NVM without crypto erase (FNA 0), no Sanitize (SANICAP 0), Dataset Management,
# SMART 02h, the OCP C0h log (ocp=on), no FDP on this subsystem.
source "$(dirname "$0")/lib.sh"

drop=(setpriv --inh-caps=-sys_admin --bounding-set=-sys_admin --)
allow="$SCRATCH/allow.json"
allow_serial "$allow" "$NVME_SERIAL"

# capabilities_of OUT [PREFIX...]: the namespace's capabilities in the inventory, checked against
# the contract, printed and kept in OUT (one JSON array).
capabilities_of() {
	local out=$1 hb="$SCRATCH/heartbeat-$RANDOM.json"
	shift
	"$@" "$RUNNER" devices --output-format json --runner-id guest --allowlist "$allow" >"$hb" ||
		fail "devices failed ($*)"
	"$RUNNER" validate runner-heartbeat "$hb" >/dev/null || fail "the heartbeat breaks the contract"
	jq -c --arg dev "$DEV" '.devices[] | select(.device.transportAddress == $dev) | .capabilities' "$hb" >"$out"
	[ "$(jq 'length' "$out")" -eq 12 ] || fail "not every capability is listed: $(cat "$out")"
	jq -r '.[] | "  \(.name): \(if .available then "yes" else "no, \(.missing)" end)\(if has("enabled") then (if .enabled then ", enabled" else ", disabled" end) else "" end)\(if .detail then " (\(.detail))" else "" end)"' "$out"
}

# state OUT NAME: "true" or "false <missing>" for one capability.
state() {
	jq -r --arg n "$2" '.[] | select(.name == $n) | if .available then "true" else "false \(.missing)" end' "$1"
}

expect() {
	[ "$(state "$1" "$2")" = "$3" ] || fail "$2 in $(basename "$1"): expected '$3', got '$(state "$1" "$2")': $(cat "$1")"
}

echo "with CAP_SYS_ADMIN:"
full="$SCRATCH/full.json"
capabilities_of "$full"
for name in format format-user-data deallocate smart ocp-smart-c0h; do
	expect "$full" "$name" true
done
for name in format-crypto sanitize-block sanitize-crypto sanitize-overwrite fdp; do
	expect "$full" "$name" "false device-lacks-it"
done
for name in temperature-thresholds volatile-write-cache; do
	figure "$name" "$(state "$full" "$name")"
done

echo "without CAP_SYS_ADMIN:"
dropped="$SCRATCH/dropped.json"
capabilities_of "$dropped" "${drop[@]}"
expect "$dropped" deallocate true
for name in format format-user-data format-crypto sanitize-block sanitize-crypto sanitize-overwrite \
	smart ocp-smart-c0h temperature-thresholds volatile-write-cache fdp; do
	expect "$dropped" "$name" "false runner-lacks-sys-admin"
done
jq -r '.[] | select(.name == "smart") | .detail' "$dropped" | grep -q 'needs CAP_SYS_ADMIN' ||
	fail "the reason names CAP_SYS_ADMIN: $(cat "$dropped")"

# The runner refuses at run time too: purge auto without the privilege, before any write.
out="$SCRATCH/auto-dropped.jsonl"
set +e
"${drop[@]}" "$RUNNER" run --output-format json --filename "$DEV" --purge auto --rw read --size 4k \
	--allowlist "$allow" --serial "$NVME_SERIAL" >"$out"
status=$?
set -e
[ "$status" -eq 3 ] || fail "purge auto without CAP_SYS_ADMIN: exit $status: $(cat "$out")"
grep -q 'cannot purge with auto: it lacks Sanitize and Format NVM \[format-user-data: runner-lacks-sys-admin' "$out" ||
	fail "the refusal names the missing privilege: $(cat "$out")"
figure available_with_sys_admin "$(jq '[.[] | select(.available)] | length' "$full")"
figure available_without_sys_admin "$(jq '[.[] | select(.available)] | length' "$dropped")"
echo "ok $DEV: $(jq '[.[] | select(.available)] | length' "$full") of 12 capabilities with CAP_SYS_ADMIN, $(jq '[.[] | select(.available)] | length' "$dropped") without (deallocate); purge auto refused without it"
