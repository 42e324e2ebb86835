#!/usr/bin/env bash
# The safety interlocks on a real NVMe namespace: a drive that is not allowlisted, a serial that is
# not the job's, a mounted filesystem and a partition table each refuse a destructive job before
# any IO, and the namespace's bytes are unchanged (sha256 before and after each refusal).
source "$(dirname "$0")/lib.sh"

allow="$SCRATCH/allow.json"
mnt="$SCRATCH/mnt"
cleanup_interlocks() {
	umount "$mnt" 2>/dev/null || true
	wipefs -q -a "$DEV" 2>/dev/null || true
	blockdev --rereadpt "$DEV" 2>/dev/null || true
	cleanup_case
}
trap cleanup_interlocks EXIT

# Each refusal as the real-IO tests check it (exit 3, the refused event, the bytes' sha256 the
# same before and after), counted for the figures.
refusals=0
refuse() {
	expect_refused "$@"
	refusals=$((refusals + 1))
}

# Data of our own on the namespace, so "unchanged" means something.
dd if=/dev/urandom of="$DEV" bs=1M count=8 oflag=direct status=none

refuse not-allowlisted "$DEV" --rw randwrite --bs 4k --iodepth 32 --runtime 2
allow_serial "$allow" "SOME-OTHER-DRIVE"
refuse not-allowlisted "$DEV" --purge format-user-data --rw read --size 4k --allowlist "$allow"

allow_serial "$allow" "$NVME_SERIAL"
refuse serial-mismatch "$DEV" --rw randwrite --runtime 2 --allowlist "$allow" --serial WRONG-SERIAL

mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$DEV"
mkdir -p "$mnt"
mount -o ro "$DEV" "$mnt"
allow_serial "$allow" "$NVME_SERIAL" '"allowSignatures": true'
refuse mounted "$DEV" --rw randwrite --runtime 2 --allowlist "$allow"
refuse mounted "$DEV" --purge format-user-data --rw read --size 4k --allowlist "$allow"
allow_serial "$allow" "$NVME_SERIAL" '"allowMounted": true'
refuse signature "$DEV" --rw randwrite --runtime 2 --allowlist "$allow"
umount "$mnt"

wipefs -q -a "$DEV"
printf 'label: gpt\nsize=16M, type=linux\n' | sfdisk -q "$DEV"
blockdev --rereadpt "$DEV" 2>/dev/null || true
allow_serial "$allow" "$NVME_SERIAL"
refuse partition-table "$DEV" --rw randwrite --runtime 2 --allowlist "$allow"
refuse partition-table "$DEV" --purge format-user-data --rw read --size 4k --allowlist "$allow"

figure refusals "$refusals"
echo "ok $refusals refusals on $DEV (not-allowlisted x2, serial-mismatch, mounted x2, signature, partition-table x2), its bytes unchanged by each"
