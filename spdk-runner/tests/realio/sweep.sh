#!/usr/bin/env bash
# The real-IO tests' fixture (setup and cleanup): unmount and detach whatever a killed test left
# under the scratch directory, so no loop device or mount outlives a ctest run.
set -uo pipefail
: "${WORK:?WORK=scratch directory}"

if [ "$(id -u)" -eq 0 ]; then
	grep " $WORK/" /proc/self/mountinfo 2>/dev/null | awk '{print $5}' | sort -r |
		while read -r mount_point; do umount -l "$mount_point" && echo "unmounted $mount_point"; done
	losetup -n -O NAME,BACK-FILE 2>/dev/null | while read -r dev back; do
		case "$back" in
		"$WORK"/*) losetup -d "$dev" && echo "detached $dev ($back)" ;;
		esac
	done
fi
rm -rf "$WORK"
mkdir -p "$WORK"
exit 0
